import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import { createQueryClient } from './lib/query-client'
import { createSessionStore } from './lib/session'
import { createAppRouter } from './router'

const queryClient = createQueryClient()
const session = createSessionStore({ queryClient })
const router = createAppRouter(queryClient, session)

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <App router={router} queryClient={queryClient} session={session} />
  </StrictMode>,
)

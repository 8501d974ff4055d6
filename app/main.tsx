import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import './styles.css'
import { onlineManager } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import { captureInstallPrompt } from './features/offline/install-prompt'
import { forgetPersonalOfflineData } from './features/offline/personal-data'
import { createQueryClient } from './lib/query-client'
import { createSessionStore } from './lib/session'
import { createAppRouter } from './router'

const queryClient = createQueryClient()
const session = createSessionStore({ queryClient })
const router = createAppRouter(queryClient, session)

// React Query assumes online until an event says otherwise: a page opened offline must start offline,
// or the 'online' event changes nothing and nothing refetches when the network returns.
onlineManager.setOnline(navigator.onLine)
captureInstallPrompt()
forgetPersonalOfflineData(session)
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  // Off the critical path. Once a first worker controls the page, what is on screen is read again
  // through it, so it is kept for offline use too.
  const readAgain = () => void queryClient.refetchQueries({ type: 'active' })
  window.addEventListener('load', () => void import('./features/offline/register-sw').then((sw) => sw.registerServiceWorker(readAgain)))
}

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <App router={router} queryClient={queryClient} session={session} />
  </StrictMode>,
)

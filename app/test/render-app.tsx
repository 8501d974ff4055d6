import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryHistory } from '@tanstack/react-router'
import { App } from '../app'
import { captureInstallPrompt } from '../lib/pwa/install-prompt'
import { createQueryClient } from '../lib/query-client'
import { createSessionStore } from '../lib/session'
import { createAppRouter } from '../router'

/**
 * Renders the whole app (providers, layout, routes) at the given path. The session starts from
 * localStorage, like in the browser: call signInForTest() first for a signed-in user.
 */
export function renderApp(path = '/') {
  // As main.tsx does at start: the install offer can come before the (idle-loaded) button exists.
  captureInstallPrompt()
  const queryClient = createQueryClient({ retry: false })
  const session = createSessionStore({ queryClient })
  const router = createAppRouter(queryClient, session, createMemoryHistory({ initialEntries: [path] }))
  const user = userEvent.setup()
  const view = render(<App router={router} queryClient={queryClient} session={session} env="test" />)
  return { ...view, router, queryClient, session, user }
}

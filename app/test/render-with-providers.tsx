import { MantineProvider } from '@mantine/core'
import { Notifications } from '@mantine/notifications'
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { createQueryClient } from '../lib/query-client'
import { createSessionStore } from '../lib/session'
import { SessionProvider } from '../lib/session-provider'
import { theme } from '../lib/theme'

/**
 * Renders one feature component with what pages give it: Mantine (with toasts), react-query (no
 * retries), the session (from localStorage: signInForTest() first for a signed-in user) and a throwaway
 * router at the given path, so router links work.
 */
export function renderWithProviders(ui: ReactNode, { path = '/' } = {}) {
  const queryClient = createQueryClient({ retry: false })
  const session = createSessionStore({ queryClient })
  const rootRoute = createRootRoute({ component: () => ui })
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: [path] }) })
  const user = userEvent.setup()
  const view = render(
    <MantineProvider theme={theme} env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <SessionProvider store={session}>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  )
  return { ...view, queryClient, session, router, user }
}

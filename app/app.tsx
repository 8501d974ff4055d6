import type { QueryClient } from '@tanstack/react-query'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { useEffect } from 'react'
import { AppNotifications } from './components/app-notifications'
import { pageRendered } from './lib/after-interactive'
import type { SessionStore } from './lib/session'
import { SessionProvider } from './lib/session-provider'
import { ThemeProvider } from './lib/theme-provider'
import type { createAppRouter } from './router'

interface AppProps {
  router: ReturnType<typeof createAppRouter>
  queryClient: QueryClient
  session: SessionStore
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test'
}

export function App({ router, queryClient, session, env }: AppProps) {
  useEffect(pageRendered, [])

  useEffect(() => {
    // Signed out (here, in another tab, or when renewal failed): protected routes check again and redirect.
    let previous = session.getSnapshot().status
    return session.subscribe(() => {
      const { status } = session.getSnapshot()
      if (status === 'signed-out' && previous !== 'signed-out') void router.invalidate()
      previous = status
    })
  }, [router, session])

  return (
    <ThemeProvider env={env}>
      <AppNotifications />
      <QueryClientProvider client={queryClient}>
        <SessionProvider store={session}>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </ThemeProvider>
  )
}

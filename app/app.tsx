import { MantineProvider } from '@mantine/core'
import type { QueryClient } from '@tanstack/react-query'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { AppNotifications } from './components/app-notifications'
import { colorSchemeManager, cssVariablesResolver, theme } from './lib/theme'
import type { createAppRouter } from './router'

interface AppProps {
  router: ReturnType<typeof createAppRouter>
  queryClient: QueryClient
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test'
}

export function App({ router, queryClient, env }: AppProps) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      cssVariablesResolver={cssVariablesResolver}
      env={env}
    >
      <AppNotifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  )
}

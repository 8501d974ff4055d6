import type { QueryClient } from '@tanstack/react-query'
import { createRouter, type RouterHistory } from '@tanstack/react-router'
import { NotFound } from './components/not-found'
import { PageLoader } from './components/page-loader'
import { RouteError } from './components/route-error'
import type { SessionStore } from './lib/session'
import { routeTree } from './routeTree.gen'

export function createAppRouter(queryClient: QueryClient, session: SessionStore, history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    context: { queryClient, session },
    defaultPreload: 'intent',
    // React Query owns caching; the router always asks it.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: PageLoader,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: () => <NotFound />,
    scrollRestoration: true,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}

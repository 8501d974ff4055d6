import type { QueryClient } from '@tanstack/react-query'
import { createRouter, type ErrorComponentProps, type RouterHistory } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { NotFound } from './components/not-found'
import { PageLoader } from './components/page-loader'
import type { SessionStore } from './lib/session'
import { routeTree } from './routeTree.gen'
import { shellPieces } from './components/shell-pieces'

// A failed load is rare: its alert loads when needed, so it is not part of every page's first load.
const LazyRouteError = lazy(() => shellPieces.routeError().then((m) => ({ default: m.RouteError })))
function RouteError(props: ErrorComponentProps) {
  return (
    <Suspense fallback={null}>
      <LazyRouteError {...props} />
    </Suspense>
  )
}

/** `server`: rendering on the server, where the router must not write its scroll-restoring inline script. */
export function createAppRouter(queryClient: QueryClient, session: SessionStore, history?: RouterHistory, { server = false } = {}) {
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
    scrollRestoration: !server,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}

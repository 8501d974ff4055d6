import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { AppLayout } from '../components/app-layout'
import { NotFound } from '../components/not-found'
import type { SessionStore } from '../lib/session'

export interface RouterContext {
  queryClient: QueryClient
  session: SessionStore
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootComponent,
  notFoundComponent: () => <NotFound />,
})

function RootComponent() {
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  )
}

import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { AppLayout } from '../components/app-layout'
import { NotFound } from '../components/not-found'
import { useAfterInteractive } from '../lib/after-interactive'
import type { SessionStore } from '../lib/session'
import { useSession } from '../lib/session-provider'

export interface RouterContext {
  queryClient: QueryClient
  session: SessionStore
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootComponent,
  notFoundComponent: () => <NotFound />,
})

// Signed-in only, and not worth slowing the first load for: loaded once the page is interactive.
const NotificationBell = lazy(() =>
  import('../features/notifications/components/notification-bell').then((m) => ({ default: m.NotificationBell })),
)

function SignedInBell() {
  const session = useSession()
  const ready = useAfterInteractive()
  if (session.status !== 'signed-in' || !ready) return null
  return (
    <Suspense fallback={null}>
      <NotificationBell email={session.user.email} />
    </Suspense>
  )
}

function RootComponent() {
  return (
    <AppLayout headerActions={<SignedInBell />}>
      <Outlet />
    </AppLayout>
  )
}

import { lazy, Suspense } from 'react'

// Loaded after the first paint: the toast container and its transitions are not needed to show a page.
// notifications.show() called earlier is kept in the store and appears once this mounts.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })))

/** Global toasts: bottom-center, closing after 2 s, no progress bar. */
export function AppNotifications() {
  return (
    <Suspense fallback={null}>
      <Notifications position="bottom-center" autoClose={2000} />
    </Suspense>
  )
}

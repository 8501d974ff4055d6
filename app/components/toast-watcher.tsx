import { useNotifications } from '@mantine/notifications'
import { lazy, Suspense, useState } from 'react'

// The toast container (with its transitions) is a lazy chunk fetched when the first toast is shown,
// so pages that never toast do not pay for it. notifications.show() only touches the small store.
const ToastContainer = lazy(() => import('./toast-container'))

/** Mounts the toast container once a first toast is shown. */
export default function ToastWatcher() {
  const { notifications, queue } = useNotifications()
  const [needed, setNeeded] = useState(false)
  if (!needed && notifications.length + queue.length > 0) setNeeded(true)
  if (!needed) return null
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  )
}

import { lazy, Suspense } from 'react'
import { useAfterInteractive } from '../lib/after-interactive'
import { shellPieces } from './shell-pieces'

// Toasts follow what the user does, so their store's watcher loads once the page is interactive (a toast
// shown before waits in the store until then).
const ToastWatcher = lazy(shellPieces.toastWatcher)

export function AppNotifications() {
  return useAfterInteractive() ? (
    <Suspense fallback={null}>
      <ToastWatcher />
    </Suspense>
  ) : null
}

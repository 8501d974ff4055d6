import { lazy, Suspense } from 'react'
import { useOnline } from '../use-online'

// Shown only while offline, and then from the service worker's cache: not part of the page's first load.
const OfflineStrip = lazy(() => import('./offline-strip'))

/** A strip under the header while the browser is offline. */
export function OfflineIndicator() {
  const online = useOnline()
  // The polite live region is always there, so the strip is announced when it appears.
  return (
    <div aria-live="polite">
      {!online && (
        <Suspense fallback={null}>
          <OfflineStrip />
        </Suspense>
      )}
    </div>
  )
}

import { lazy, Suspense } from 'react'
import { useOnline } from '../lib/use-online'
import { shellPieces } from './shell-pieces'

// Shown only while offline (from the service worker's cache then): not part of the page's first load.
const OfflineStrip = lazy(shellPieces.offlineStrip)

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

import { lazy, Suspense, useState, useSyncExternalStore } from 'react'
import { waitingUpdate } from '../lib/pwa/sw-updates'

// The notice (Mantine's Notification) loads only once a new version waits.
const UpdateNotice = lazy(() => import('./update-notice'))

/** Offers a new version once its service worker waits; Reload activates it and reloads the page. */
export function UpdatePrompt() {
  const applyUpdate = useSyncExternalStore(waitingUpdate.subscribe, waitingUpdate.getSnapshot, () => null)
  const [dismissed, setDismissed] = useState<(() => void) | null>(null)
  if (!applyUpdate || dismissed === applyUpdate) return null
  return (
    <Suspense fallback={null}>
      <UpdateNotice applyUpdate={applyUpdate} onDismiss={() => setDismissed(() => applyUpdate)} />
    </Suspense>
  )
}

// A new service worker waiting to take over, as the update prompt sees it. register-sw.ts feeds it.
// No React here: register-sw.ts is a lazy chunk and should pull in nothing the entry also needs.

/** What the update prompt needs from workbox-window's Workbox (an interface, so tests can fake it). */
export interface UpdatableWorker {
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void
  /** Posts `{ type: 'SKIP_WAITING' }` to the waiting service worker (sw.ts then calls skipWaiting()). */
  messageSkipWaiting(): void
}

let applyUpdate: (() => void) | null = null
const listeners = new Set<() => void>()

function publish(next: (() => void) | null) {
  applyUpdate = next
  for (const listener of [...listeners]) listener()
}

interface WatchOptions {
  reload?: () => void
  /** A first worker took control of this page (no update): what the page read before went past it. */
  onFirstControl?: () => void
}

/**
 * Offers the update when a new service worker is installed and waiting. Applying it asks that worker
 * to activate; once it controls the page, the page reloads so HTML, scripts and worker agree.
 */
export function watchForUpdates(
  worker: UpdatableWorker,
  { reload = () => window.location.reload(), onFirstControl }: WatchOptions = {},
): void {
  let waiting = false
  let requested = false
  // The waiting worker was activated from another tab: this page runs the old build under it.
  let takenOver = false
  worker.addEventListener('controlling', () => {
    if (requested) reload()
    else if (waiting) takenOver = true
    // The very first install (clientsClaim): nothing to reload.
    else onFirstControl?.()
  })
  worker.addEventListener('waiting', () => {
    waiting = true
    publish(() => {
      if (takenOver) return reload()
      requested = true
      worker.messageSkipWaiting()
    })
  })
}

/** For useSyncExternalStore: the action that activates the waiting worker and reloads, or null. */
export const waitingUpdate = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  },
  getSnapshot: (): (() => void) | null => applyUpdate,
}

/** Drops a reported update (tests). */
export function resetUpdatesForTest(): void {
  publish(null)
}

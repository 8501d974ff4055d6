import { whenIdle } from '../lib/idle-queue'

// Parts of every page that show only after something happens (offline, a failed load, a toast): lazy
// chunks, so no page's first load carries them. An offline page needs them though, so they are fetched
// once the page is interactive and before the service worker installs, which keeps what the visit
// loaded (see app/sw.ts).
export const shellPieces = {
  offlineStrip: () => import('./offline-strip'),
  morePagesError: () => import('./more-pages-error'),
  loadError: () => import('./load-error'),
  routeError: () => import('./route-error'),
  toastWatcher: () => import('./toast-watcher'),
  toastContainer: () => import('./toast-container'),
  toastStore: () => import('@mantine/notifications'),
}

/**
 * Fetches every piece (a failure is left for the moment the piece is needed), each asked for in an idle
 * moment of its own: asking for all seven at once (each adds its module preloads to the page) was one task
 * of about 80 ms, more on a slow phone.
 */
export function loadShellPieces(): Promise<unknown> {
  return Promise.all(
    Object.values(shellPieces).map((load) => new Promise((loaded) => whenIdle(() => void load().then(loaded, () => loaded(undefined))))),
  )
}

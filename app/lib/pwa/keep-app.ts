// The service worker keeps, on its first install, only the app files the first visit already loaded (no
// extra bytes on a phone's first visit). The rest of the app's code is kept when the user shows they
// want it offline: on their next visit, when they save something for offline, or when they install it.

/** The message that asks the service worker to keep every app file; it answers on the given port. */
export const KEEP_APP_MESSAGE = 'KEEP_APP'

/** Asks the service worker controlling this page to keep the whole app's code. Resolves once done (or if there is none). */
export async function keepAppForOffline(): Promise<void> {
  const worker = navigator.serviceWorker?.controller
  if (!worker) return
  await new Promise<void>((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => resolve()
    worker.postMessage({ type: KEEP_APP_MESSAGE }, [channel.port2])
  })
}

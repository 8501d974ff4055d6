// Loaded lazily by main.tsx in production builds: registers the service worker built from app/sw.ts.
import { Workbox } from 'workbox-window'
import { keepAppForOffline } from './keep-app'
import { watchForUpdates } from './sw-updates'

/** Browsers look for a new worker on navigations; a tab left open also checks every hour. */
const UPDATE_CHECK_MS = 60 * 60 * 1000

/** `onFirstControl`: the page was read before the worker ran; reading it again keeps it offline. */
export async function registerServiceWorker(onFirstControl: () => void): Promise<void> {
  // A worker already ran this page: this is a later visit, the moment to keep the rest of the app's code.
  if (navigator.serviceWorker.controller) void keepAppForOffline()
  window.addEventListener('appinstalled', () => void keepAppForOffline())
  const workbox = new Workbox('/sw.js', { scope: '/' })
  watchForUpdates(workbox, { onFirstControl })
  const registration = await workbox.register()
  if (registration) setInterval(() => void workbox.update(), UPDATE_CHECK_MS)
}

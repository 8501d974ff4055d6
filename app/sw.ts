/// <reference lib="webworker" />
// The service worker (built by vite-plugin-pwa, injectManifest). What it does, in route order:
//  1. Precache: the build's JS, CSS, index.html, icons and the manifest, each with a revision.
//  2. Page navigations: the precached index.html (every route renders offline; /api/ is never a page).
//  3. API reads: network first, kept in IndexedDB, answered from there when the network fails (gallery
//     searches and tags never asked for online are answered from the kept animations).
//  4. Animation files: previews cached (cache first), downloads from the network; either falls back
//     to the files the user downloaded or saved (IndexedDB) when the network fails.
//
// Why navigations never get stale HTML after a deploy: HTML is only ever served from the precache
// (no runtime route caches it: the precache and navigation routes come before every runtime route,
// and runtime routes match /api/ only). A deploy changes index.html's revision, so the new worker
// installs a fresh copy (fetched with cache: 'reload', past the HTTP cache) next to the new hashed
// assets, while the old worker keeps serving its own index.html with the assets it references. The
// new worker waits; the page offers 'Reload', which posts SKIP_WAITING, and reloads once the new
// worker controls it, so page, scripts and worker always come from the same build (other open tabs
// keep their prompt, whose Reload then just reloads). cleanupOutdatedCaches() drops precaches of
// older workbox versions.
import { API_PATHS, tagListPath, wumpusListPath } from '../contract/api-paths'
import { HOME_TAG_CHIPS } from '../contract/limits'
import { apiStoreFor, networkFirstWithStore, notAvailableOffline, storedFileResponse } from './features/offline/api-fallback'
import { clientsClaim } from 'workbox-core'
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkOnly } from 'workbox-strategies'
import type { WorkboxPlugin } from 'workbox-core/types'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> }

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//] }))

registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && apiStoreFor(url) !== null,
  ({ url, request }) => networkFirstWithStore(request, apiStoreFor(url)!),
)

/** When the network fails: the file as the user downloaded or saved it, else a 503 in the API's shape. */
const keptFileFallback: WorkboxPlugin = {
  handlerDidError: async ({ request }) => (await storedFileResponse(request.url)) ?? notAvailableOffline('files'),
}
const isFile = (url: URL) => url.pathname.startsWith(API_PATHS.filesPrefix)

// Files never change under their URL, so previews can come from the cache.
registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && isFile(url) && request.destination === 'image',
  new CacheFirst({
    cacheName: 'previews',
    plugins: [new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true }), keptFileFallback],
  }),
)
registerRoute(({ url, sameOrigin }) => sameOrigin && isFile(url), new NetworkOnly({ plugins: [keptFileFallback] }))

// Activated on the page's request only (the update prompt's Reload), never on its own.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})

// On the first install, take the open page at once so what it reads from now on is kept offline.
clientsClaim()

// The page that installed the worker fetched the gallery before the worker ran: keep its first page and
// the tag chips now.
self.addEventListener('activate', (event) => {
  const keep = (path: string, storeName: 'wumpus-pages' | 'tag-lists') =>
    networkFirstWithStore(new Request(new URL(path, self.location.origin)), storeName).catch(() => undefined)
  event.waitUntil(Promise.all([keep(wumpusListPath(), 'wumpus-pages'), keep(tagListPath(HOME_TAG_CHIPS), 'tag-lists')]))
})

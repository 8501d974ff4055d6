/// <reference lib="webworker" />
// The service worker (built by vite-plugin-pwa, injectManifest). What it does, in route order:
//  1. App files (the build's JS, CSS, index.html, SVGs, each listed with a revision): kept in one cache per
//     build. The first install keeps index.html and what the first visit already loaded (read from the
//     browser's HTTP cache, no bytes on the wire); the rest is kept once the page asks (next visit, a save
//     for offline, installing the app: see lib/pwa/keep-app.ts) and as pages load it.
//  2. Page navigations: the kept index.html (every route renders offline; /api/ is never a page).
//  3. API reads: network first, kept in IndexedDB, answered from there when the network fails (gallery
//     searches, tags and emoji never asked for online are answered from the kept animations).
//  4. Animation files: previews (the still and WebP images, and the Lottie JSON the cards play) cached
//     (cache first), downloads from the network; either falls back to the files the user downloaded or
//     saved (IndexedDB) when the network fails. Nothing personal is cached: no keyed URL (a private remix's
//     files), no answer marked `private` or `no-store` (lib/pwa/personal-caches.ts); at sign-out the page
//     asks this worker to drop anything personal still in Cache Storage.
//
// Why navigations never get stale HTML after a deploy: HTML is only ever served from this build's cache
// (no runtime route caches it: the app-file and navigation routes come before every runtime route, and
// runtime routes match /api/ only). A deploy changes the file list, so the new worker installs into a
// new cache with a fresh index.html (fetched with cache: 'reload', past the HTTP cache), while the old
// worker keeps serving its own index.html with the assets it references. The new worker waits; the page
// offers 'Reload', which posts SKIP_WAITING, and reloads once the new worker controls it, so page,
// scripts and worker always come from the same build (other open tabs keep their prompt, whose Reload
// then just reloads). On activation the caches of older builds are dropped.
import { API_PATHS, emojiListPath, tagListPath, wumpusListPath } from '../contract/api-paths'
import { HOME_EMOJI_CHIPS, HOME_TAG_CHIPS } from '../contract/limits'
import { apiStoreFor, networkFirstWithStore, notAvailableOffline, storedFileResponse } from './sw/api-fallback'
import { KEEP_APP_MESSAGE } from './lib/pwa/keep-app'
import { FORGET_PERSONAL_MESSAGE, forgetPersonalCaches, isKeyedUrl, mayKeepInCache } from './lib/pwa/personal-caches'
import { clientsClaim } from 'workbox-core'
import { ExpirationPlugin } from 'workbox-expiration'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkOnly } from 'workbox-strategies'
import type { WorkboxPlugin } from 'workbox-core/types'

/** The build's file list, put here by vite-plugin-pwa (injectManifest). */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null } | string> }

const APP_FILES = self.__WB_MANIFEST.map((entry) => {
  const { url, revision } = typeof entry === 'string' ? { url: entry, revision: null } : entry
  return { url: new URL(url, self.location.origin).href, revision: revision ?? null }
})
const APP_CACHE_PREFIX = 'app-files-'
/** One cache per build: its name changes whenever a file or revision does. */
const APP_CACHE = APP_CACHE_PREFIX + fnv1a(JSON.stringify(APP_FILES))
const APP_FILE_URLS = new Set(APP_FILES.map((file) => file.url))
const INDEX_HTML = new URL('/index.html', self.location.origin).href

function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16)
}

/**
 * Fills this build's cache. Files with a revision (index.html, the manifest, SVGs) always come fresh from the
 * network. Hashed files never change under their name: from an older build's cache, else, on the first
 * install, only from the browser's HTTP cache (what the visit loaded); when asked, from the network.
 */
async function keepAppFiles(from: 'already-loaded' | 'network'): Promise<void> {
  const cache = await caches.open(APP_CACHE)
  const kept = new Set((await cache.keys()).map((request) => request.url))
  await Promise.all(
    APP_FILES.filter((file) => !kept.has(file.url)).map(async ({ url, revision }) => {
      const fromNetwork: RequestInit = revision
        ? { cache: 'reload' }
        : from === 'network'
          ? {}
          : { cache: 'only-if-cached', mode: 'same-origin' }
      const response = (!revision && (await caches.match(url))) || (await fetch(url, fromNetwork).catch(() => undefined))
      if (response?.ok) await cache.put(url, response)
      else if (url === INDEX_HTML) throw new Error(`index.html could not be kept (${response?.status ?? 'no answer'})`)
    }),
  )
}

let keepingAll: Promise<void> | null = null
function keepWholeApp(): Promise<void> {
  // A failed run (offline) is tried again on the next request.
  keepingAll ??= keepAppFiles('network').finally(() => (keepingAll = null))
  return keepingAll
}

self.addEventListener('install', (event) => event.waitUntil(keepAppFiles('already-loaded')))

self.addEventListener('activate', (event) => {
  const older = (name: string) => (name.startsWith(APP_CACHE_PREFIX) && name !== APP_CACHE) || name.startsWith('workbox-precache')
  event.waitUntil(caches.keys().then((names) => Promise.all(names.filter(older).map((name) => caches.delete(name)))))
})

/** An app file: this build's copy, else the network (and kept, so code a page loaded works offline). */
async function appFile(request: Request | string): Promise<Response> {
  const cache = await caches.open(APP_CACHE)
  const url = typeof request === 'string' ? request : request.url
  const kept = await cache.match(url)
  if (kept) return kept
  const response = await fetch(request)
  if (response.ok) await cache.put(url, response.clone())
  return response
}

registerRoute(
  ({ url, request }) => request.method === 'GET' && APP_FILE_URLS.has(url.href),
  ({ request }) => appFile(request),
)
registerRoute(new NavigationRoute(() => appFile(INDEX_HTML), { denylist: [/^\/api\//] }))
// The admin forms' emoji data is not among the app files everyone keeps (vite.config.ts): kept once loaded.
registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && /^\/assets\/emoji-data-[\w-]+\.js$/.test(url.pathname),
  ({ request }) => appFile(request),
)

registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && apiStoreFor(url) !== null,
  ({ url, request }) => networkFirstWithStore(request, apiStoreFor(url)!),
)

/** When the network fails: the file as the user downloaded or saved it, else a 503 in the API's shape. */
const keptFileFallback: WorkboxPlugin = {
  handlerDidError: async ({ request }) => (await storedFileResponse(request.url)) ?? notAvailableOffline('files'),
}
const isFile = (url: URL) => url.pathname.startsWith(API_PATHS.filesPrefix)

/** Only what is nobody's own is cached: a private remix's files (keyed, or marked private) never are. */
const keepNothingPersonal: WorkboxPlugin = {
  cacheWillUpdate: async ({ request, response }) => (response.status === 200 && mayKeepInCache(request, response) ? response : null),
}

// Files never change under their URL, so previews can come from the cache. A file asked for as JSON is a
// Lottie a page plays (lib/lottie-json.ts); downloads ask for files without an Accept header. A keyed URL
// goes to the network only (below).
const isPreview = (request: Request) => request.destination === 'image' || request.headers.get('Accept') === 'application/json'
registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && isFile(url) && !isKeyedUrl(url) && isPreview(request),
  new CacheFirst({
    cacheName: 'previews',
    plugins: [
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true }),
      keepNothingPersonal,
      keptFileFallback,
    ],
  }),
)
registerRoute(({ url, sameOrigin }) => sameOrigin && isFile(url), new NetworkOnly({ plugins: [keptFileFallback] }))

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type
  // Activated on the page's request only (the update prompt's Reload), never on its own.
  if (type === 'SKIP_WAITING') void self.skipWaiting()
  if (type === FORGET_PERSONAL_MESSAGE)
    event.waitUntil(forgetPersonalCaches(self.caches).then(() => event.ports[0]?.postMessage('forgotten')))
  if (type === KEEP_APP_MESSAGE)
    event.waitUntil(
      keepWholeApp().then(
        () => event.ports[0]?.postMessage('kept'),
        () => event.ports[0]?.postMessage('failed'),
      ),
    )
})

// On the first install, take the open page at once so what it reads from now on is kept offline.
clientsClaim()

// The page that installed the worker fetched the gallery before the worker ran: keep its first page and
// the tag and emoji chips now.
self.addEventListener('activate', (event) => {
  const keep = (path: string, storeName: 'wumpus-pages' | 'tag-lists' | 'emoji-lists') =>
    networkFirstWithStore(new Request(new URL(path, self.location.origin)), storeName).catch(() => undefined)
  event.waitUntil(
    Promise.all([
      keep(wumpusListPath(), 'wumpus-pages'),
      keep(tagListPath(HOME_TAG_CHIPS), 'tag-lists'),
      keep(emojiListPath(HOME_EMOJI_CHIPS), 'emoji-lists'),
    ]),
  )
})

// The service worker's side of offline data: API reads go to the network first and are kept in
// IndexedDB; when the network fails they are answered from there. Kept free of workbox so it can be
// tested on its own.
import { get, set } from 'idb-keyval'
import type { ErrorBody } from '../../../contract/errors'
import { OFFLINE_COPY_HEADER as OFFLINE_HEADER } from '../../lib/offline-copy'
import { apiKey, fileKey, KEPT_HEADERS, offlineStore, type StoreName, type StoredApiResponse } from './offline-db'


const NOT_OFFLINE: Partial<Record<StoreName, string>> = {
  'wumpus-pages': 'The gallery is not available offline yet. Connect to the internet to load it.',
  'wumpus-details':
    'This animation is not available offline. Open it or save it for offline while you are online to see it here without a connection.',
  profiles: 'This profile is not available offline. Connect to the internet to load it.',
  'user-lists': 'These animations are not available offline. Connect to the internet to load them.',
  files: 'This file is not available offline. Download it or save the animation for offline while you are online.',
}

/** Which store keeps the answers of this API read, or null for requests that are not kept. */
export function apiStoreFor(url: URL): StoreName | null {
  const path = url.pathname
  if (path === '/api/wumpuses') return 'wumpus-pages'
  if (path === '/api/wumpus') return url.searchParams.has('u_email') ? 'user-lists' : null
  if (/^\/api\/wumpus\/[^/]+(\/stickers)?$/.test(path)) return 'wumpus-details'
  if (/^\/api\/profile\/[^/]+$/.test(path)) return 'profiles'
  return null
}

/** The API's error shape with status 503 and `details.offline`, so the app can say what is missing. */
export function notAvailableOffline(storeName: StoreName): Response {
  const body: ErrorBody = {
    error: {
      code: 'STORE_UNAVAILABLE',
      message: NOT_OFFLINE[storeName] ?? 'This is not available offline. Connect to the internet and try again.',
      details: { offline: true },
    },
  }
  return new Response(JSON.stringify(body), {
    status: 503,
    headers: { 'Content-Type': 'application/json; charset=utf-8', [OFFLINE_HEADER]: '1' },
  })
}

/** Keeps a successful answer (body and the headers the app reads) under its URL. */
export async function keepApiResponse(storeName: StoreName, url: string, response: Response): Promise<void> {
  const headers: Record<string, string> = {}
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name)
    if (value !== null) headers[name] = value
  }
  const entry: StoredApiResponse = { status: response.status, body: await response.text(), headers, storedAt: Date.now() }
  await set(apiKey(url), entry, offlineStore(storeName))
}

/** The kept answer for this URL, rebuilt as a Response, or undefined. */
export async function storedApiResponse(storeName: StoreName, url: string): Promise<Response | undefined> {
  const entry = await get<StoredApiResponse>(apiKey(url), offlineStore(storeName))
  if (!entry) return undefined
  return new Response(entry.body, { status: entry.status, headers: { ...entry.headers, [OFFLINE_HEADER]: '1' } })
}

/**
 * Network first: a 200 answer is kept and returned as it came; any HTTP answer (even an error) is the
 * server's word and passes through. Only when the network fails does IndexedDB answer, and with
 * nothing kept, a 503 saying it is not available offline.
 */
export async function networkFirstWithStore(
  request: Request,
  storeName: StoreName,
  fetchImpl: (request: Request) => Promise<Response> = fetch,
): Promise<Response> {
  let response: Response
  try {
    response = await fetchImpl(request)
  } catch {
    return (await storedApiResponse(storeName, request.url).catch(() => undefined)) ?? notAvailableOffline(storeName)
  }
  if (response.status === 200) {
    // A full disk or a closed database must not cost the user the answer itself.
    await keepApiResponse(storeName, request.url, response.clone()).catch(() => {})
  }
  return response
}

/** A kept animation file (downloaded or saved for offline) as a Response with its own type, or undefined. */
export async function storedFileResponse(url: string): Promise<Response | undefined> {
  const blob = await get<Blob>(fileKey(url), offlineStore('files')).catch(() => undefined)
  if (!blob) return undefined
  return new Response(blob, {
    status: 200,
    headers: {
      'Content-Type': blob.type || 'application/octet-stream',
      'Content-Length': String(blob.size),
      [OFFLINE_HEADER]: '1',
    },
  })
}

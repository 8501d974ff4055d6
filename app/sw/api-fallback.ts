// The service worker's side of offline data: API reads go to the network first and are kept in
// IndexedDB; when the network fails they are answered from there. A gallery search, tag list or emoji list
// that was never asked for online is answered from the animations kept on the device, with the server's
// rules (contract/search.ts). Kept free of workbox so it can be tested on its own.
import { entries, get, set } from 'idb-keyval'
import { API_PATHS, PACK_PATTERN, PROFILE_PATTERN, WUMPUS_DETAIL_PATTERN } from '../../contract/api-paths'
import type { ErrorBody } from '../../contract/errors'
import { TOTAL_COUNT_HEADER } from '../../contract/limits'
import { galleryFilterFromApiQuery } from '../../contract/gallery-search'
import { searchItems } from '../../contract/search'
import type { EmojiCount, TagCount, Wumpus } from '../../contract/wumpus'
import { OFFLINE_COPY_HEADER as OFFLINE_HEADER } from '../lib/offline-copy'
import { isPersonalResponse } from '../lib/pwa/personal-caches'
import { recordFileUse } from '../lib/local-data/kept-downloads'
import {
  apiKey,
  fileKey,
  KEPT_HEADERS,
  offlineStore,
  parseJson,
  type SavedPack,
  type SavedSticker,
  type StoreName,
  type StoredApiResponse,
} from '../lib/local-data/stores'

const NOT_OFFLINE: Partial<Record<StoreName, string>> = {
  'wumpus-pages': 'The gallery is not available offline yet. Connect to the internet to load it.',
  'wumpus-details':
    'This animation is not available offline. Open it or save it for offline while you are online to see it here without a connection.',
  profiles: 'This profile is not available offline. Connect to the internet to load it.',
  'user-lists': 'These animations are not available offline. Connect to the internet to load them.',
  'tag-lists': 'The tags are not available offline yet. Connect to the internet to load them.',
  'emoji-lists': 'The emoji are not available offline yet. Connect to the internet to load them.',
  packs: 'This pack is not available offline. Open it or save it for offline while you are online to see it here without a connection.',
  files: 'This file is not available offline. Download it or save the animation for offline while you are online.',
}

/** Which store keeps the answers of this API read, or null for requests that are not kept. */
export function apiStoreFor(url: URL): StoreName | null {
  const path = url.pathname
  if (path === API_PATHS.wumpusList) return 'wumpus-pages'
  if (path === API_PATHS.tags) return 'tag-lists'
  if (path === API_PATHS.emoji) return 'emoji-lists'
  if (path === API_PATHS.userAnimations) return url.searchParams.has('u_email') ? 'user-lists' : null
  if (WUMPUS_DETAIL_PATTERN.test(path)) return 'wumpus-details'
  if (PROFILE_PATTERN.test(path)) return 'profiles'
  if (path === API_PATHS.packs || path === API_PATHS.myPacks || PACK_PATTERN.test(path)) return 'packs'
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
 * server's word and passes through. Only when the network fails does IndexedDB answer: the answer kept
 * for that URL, else one made from the kept animations (gallery lists, tags and emoji), else a 503 saying it is
 * not available offline.
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
    return (
      (await storedApiResponse(storeName, request.url).catch(() => undefined)) ??
      (await localAnswer(storeName, new URL(request.url)).catch(() => undefined)) ??
      notAvailableOffline(storeName)
    )
  }
  if (
    response.status === 200 &&
    worthKeeping(new URL(request.url)) &&
    !isPersonalListPage(storeName, response) &&
    !(await isPrivateRemix(storeName, response))
  ) {
    // A full disk or a closed database must not cost the user the answer itself.
    await keepApiResponse(storeName, request.url, response.clone()).catch(() => {})
  }
  return response
}

/** A kept animation file (downloaded or saved for offline) as a Response with its own type, or undefined. */
export async function storedFileResponse(url: string): Promise<Response | undefined> {
  const blob = await get<Blob>(fileKey(url), offlineStore('files')).catch(() => undefined)
  if (!blob) return undefined
  recordFileUse(url)
  return new Response(blob, {
    status: 200,
    headers: {
      'Content-Type': blob.type || 'application/octet-stream',
      'Content-Length': String(blob.size),
      [OFFLINE_HEADER]: '1',
    },
  })
}

/**
 * A private remix (its detail, or any answer about it the server marks `no-store`) is never kept on the
 * device: only its owner may see it, and the next person on this browser must not. Shared remixes are kept
 * like any animation and forgotten at sign-out (personal-data.ts).
 */
async function isPrivateRemix(storeName: StoreName, response: Response): Promise<boolean> {
  if (storeName !== 'wumpus-details') return false
  if (/\bno-store\b/.test(response.headers.get('Cache-Control') ?? '')) return true
  const body = parseJson(await response.clone().text()) as Partial<Wumpus> | undefined
  return typeof body?.remixOf === 'string' && body.visibility !== 'link'
}

/** The lists whose answers the server marks `private` when they hold sensitive animations (or their tags and emoji). */
const LISTS_WITH_SENSITIVE: readonly StoreName[] = ['wumpus-pages', 'user-lists', 'tag-lists', 'emoji-lists']

/**
 * A gallery or maker's list page, or a tag or emoji count, the server marks `private` (one with sensitive
 * animations, for a person who turned them on) is never kept on the device: the next person on this browser
 * must not be shown it offline.
 */
function isPersonalListPage(storeName: StoreName, response: Response): boolean {
  return LISTS_WITH_SENSITIVE.includes(storeName) && isPersonalResponse(response)
}

/**
 * Searches are not kept: typing makes one answer per pause, which would pile up; offline, the kept
 * animations answer them instead (localAnswer).
 */
function worthKeeping(url: URL): boolean {
  return !(url.pathname === API_PATHS.wumpusList && url.searchParams.get('q'))
}

/**
 * An answer made from what this device keeps, for reads that can be: a gallery list's first page, the tags, the
 * emoji (from the kept animations), and the public packs' first page (the ones saved for offline, none or many).
 */
async function localAnswer(storeName: StoreName, url: URL): Promise<Response | undefined> {
  if (storeName === 'packs' && url.pathname === API_PATHS.packs && !url.searchParams.has('cursor')) {
    const saved = (await entries<string, SavedPack>(offlineStore('saved-packs')))
      .map(([, entry]) => entry)
      .filter((entry) => entry.pack.visibility === 'public')
      .sort((a, b) => b.savedAt - a.savedAt)
      .map((entry) => entry.pack)
    return localJson(saved, saved.length)
  }
  if (storeName === 'wumpus-pages' && !url.searchParams.has('cursor')) {
    const items = await keptWumpuses()
    if (items.length === 0) return undefined
    const matches = searchItems(items, galleryFilterFromApiQuery(url.searchParams))
    // Every match on one page: the kept animations are few, and there is no server to ask for more.
    return localJson(matches, matches.length)
  }
  if (storeName === 'tag-lists') {
    const counts = new Map<string, number>()
    for (const wumpus of await keptWumpuses()) for (const tag of wumpus.tags ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1)
    if (counts.size === 0) return undefined
    const tags: TagCount[] = [...counts]
      .map(([tag, count]) => ({ tag, count }))
      .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))
    return localJson(tags.slice(0, Number(url.searchParams.get('limit')) || undefined), tags.length)
  }
  if (storeName === 'emoji-lists') {
    const kept = await keptWumpuses()
    if (kept.length === 0) return undefined
    // Counted by character as stored (fully qualified; a skin tone is its own emoji), as the server counts
    // them. Copies kept before emoji existed have none: an empty list then, not a failure.
    const counts = new Map<string, EmojiCount>()
    for (const wumpus of kept) {
      const once = new Set<string>()
      for (const { char, name, shortcode } of wumpus.emoji ?? []) {
        if (once.has(char)) continue
        once.add(char)
        const entry = counts.get(char) ?? { char, name, ...(shortcode ? { shortcode } : {}), count: 0 }
        entry.count += 1
        counts.set(char, entry)
      }
    }
    const emoji = [...counts.values()].sort((a, b) => b.count - a.count || (a.char < b.char ? -1 : a.char > b.char ? 1 : 0))
    return localJson(emoji.slice(0, Number(url.searchParams.get('limit')) || undefined), emoji.length)
  }
  return undefined
}

function localJson(body: unknown, total: number): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', [TOTAL_COUNT_HEADER]: String(total), [OFFLINE_HEADER]: '1' },
  })
}

/** Every animation kept on this device (gallery pages, opened details, saved stickers), its latest copy each. */
export async function keptWumpuses(): Promise<Wumpus[]> {
  const latest = new Map<string, { wumpus: Wumpus; at: number }>()
  const offer = (value: unknown, at: number) => {
    if (!isWumpus(value)) return
    const seen = latest.get(value._id)
    if (!seen || seen.at <= at) latest.set(value._id, { wumpus: value, at })
  }
  const kept = async (name: 'wumpus-pages' | 'wumpus-details') => entries<string, StoredApiResponse>(offlineStore(name))
  for (const [, entry] of await kept('wumpus-pages')) {
    const body = parseJson(entry.body)
    if (Array.isArray(body)) for (const item of body) offer(item, entry.storedAt)
  }
  for (const [, entry] of await kept('wumpus-details')) offer(parseJson(entry.body), entry.storedAt)
  for (const [, sticker] of await entries<string, SavedSticker>(offlineStore('saved'))) offer(sticker.wumpus, sticker.savedAt)
  return [...latest.values()].map((entry) => entry.wumpus)
}

function isWumpus(value: unknown): value is Wumpus {
  const item = value as Partial<Wumpus> | null
  return (
    typeof item === 'object' &&
    item !== null &&
    typeof item._id === 'string' &&
    typeof item.name === 'string' &&
    typeof item.description === 'string'
  )
}

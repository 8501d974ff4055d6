// Local data: what this device keeps in IndexedDB, as Excalidraw keeps its LocalData, one idb-keyval store per
// purpose (a database each, holding one object store of the same name). This file names them and their keys;
// beside it: kept-downloads.ts (downloads kept while there is room), saved-stickers.ts and saved-packs.ts
// (saved for offline on purpose), outbox.ts (writes not sent yet), favourites-store.ts (the favourites as last
// read), submission-drafts.ts (a submission not sent yet), notifications-store.ts (one's notifications as last read) and personal-data.ts (what sign-out forgets). The service worker reads and writes them too (app/sw/).
import { createStore, type UseStore } from 'idb-keyval'
import type { PackDetail } from '../../../contract/pack'
import type { Wumpus } from '../../../contract/wumpus'

export const STORE_NAMES = [
  /** Gallery list pages and searches, keyed by URL (`/api/wumpuses?limit=24&q=moon&cursor=...`). */
  'wumpus-pages',
  /** One animation and its chat app files' list, keyed by URL (`/api/wumpus/{id}`, `/api/wumpus/{id}/stickers`). */
  'wumpus-details',
  /** Profiles, keyed by URL (`/api/profile/{email}`). */
  'profiles',
  /** One uploader's animations, keyed by URL (`/api/wumpus?u_email=...`). */
  'user-lists',
  /** Tags with their counts, keyed by URL (`/api/tags?limit=12`). */
  'tag-lists',
  /** Emoji with their names and counts, keyed by URL (`/api/emoji?limit=8`). */
  'emoji-lists',
  /** Animation files as Blobs, keyed by URL path (`/api/files/{id}/{name}`). */
  'files',
  /** Stickers saved for offline, keyed by animation id. */
  'saved',
  /** Pack lists and packs, keyed by URL (`/api/packs?limit=24`, `/api/me/packs?limit=24`, `/api/packs/{id}`). */
  'packs',
  /** Packs saved for offline, keyed by pack id. */
  'saved-packs',
  /** Size and last use of each kept download, keyed like `files` (kept-downloads.ts prunes by it). */
  'file-uses',
  /** The signed-in user's favourites as last read (ids and list), keyed by email: kept by the page, not the worker. */
  'favourites',
  /** A sticker submission being written (its fields and picked file), keyed by email: forgotten on sign-out. */
  'submission-drafts',
  /** The signed-in user's notifications as last read (notifications-store.ts), keyed by email: forgotten on sign-out. */
  'notifications',
] as const
export type StoreName = (typeof STORE_NAMES)[number]

const stores = new Map<StoreName, UseStore>()

export function offlineStore(name: StoreName): UseStore {
  let store = stores.get(name)
  if (!store) {
    store = createStore(name, name)
    stores.set(name, store)
  }
  return store
}

/** A sticker saved for offline (the `saved` store): the page writes it, the service worker reads it. */
export interface SavedSticker {
  wumpus: Wumpus
  savedAt: number
  /** Bytes of every kept file. */
  bytes: number
  /** Keys of its files in the `files` store. */
  files: string[]
}

/** A pack saved for offline (the `saved-packs` store): the page writes it, the service worker lists the public ones. */
export interface SavedPack {
  pack: PackDetail
  savedAt: number
  /** Stickers this pack saved (ones saved before stay when the pack is removed). */
  addedStickerIds: string[]
}

/** An API answer as kept for offline use: enough to rebuild the same Response. */
export interface StoredApiResponse {
  status: number
  /** The JSON body as sent. */
  body: string
  /** Content-Type plus, for lists, X-Total-Count and Link. */
  headers: Record<string, string>
  storedAt: number
}

/** A kept answer's body as JSON (undefined when it is not JSON). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Headers worth keeping with an API answer. */
export const KEPT_HEADERS = ['Content-Type', 'X-Total-Count', 'Link'] as const

/** Key of an API answer: path and query of its URL, as the browser normalises them. */
export function apiKey(url: string | URL): string {
  const parsed = new URL(url, 'http://base.invalid')
  return parsed.pathname + parsed.search
}

/** Key of a kept file: the path of its URL (any query is ignored). */
export function fileKey(url: string | URL): string {
  return new URL(url, 'http://base.invalid').pathname
}

/** Whether this environment has IndexedDB at all (not in some tests, nor in old private modes). */
export function hasIndexedDb(): boolean {
  return typeof indexedDB !== 'undefined'
}

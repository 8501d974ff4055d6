// The page's side of offline data: stickers saved for offline (the animation's JSON, its three files,
// its card's still (and animated previews where its Lottie cannot play), and its chat app files with their list), kept as Blobs that the service worker
// serves when the network fails. Downloaded files are kept by kept-downloads.ts.
import { del, delMany, entries, get, set } from 'idb-keyval'
import { stickersPath, wumpusPath } from '../../../contract/api-paths'
import type { StickerExport } from '../../../contract/stickers'
import type { Wumpus } from '../../../contract/wumpus'
import { apiRequest, apiGetBlob, trusted } from '../api-client'
import { playsLightFile } from '../lottie-json'
import { forgetFileUses, recordFileUse } from './kept-downloads'
import { apiKey, fileKey, hasIndexedDb, offlineStore, type SavedSticker, type StoredApiResponse } from './stores'
import { keepAppForOffline } from '../pwa/keep-app'

// Saved stickers by id, read once from IndexedDB and kept in step by save and remove.
let saved: ReadonlyMap<string, SavedSticker> | null = null
let loading: Promise<void> | null = null
const listeners = new Set<() => void>()

function publish(next: ReadonlyMap<string, SavedSticker>) {
  saved = next
  for (const listener of [...listeners]) listener()
}

function load(): Promise<void> {
  loading ??= (async () => {
    const list = hasIndexedDb() ? await entries<string, SavedSticker>(offlineStore('saved')).catch(() => []) : []
    publish(new Map(list))
  })()
  return loading
}

/** For useSyncExternalStore: the saved stickers by id (null until read from IndexedDB). */
export const savedStickers = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    void load()
    return () => {
      listeners.delete(listener)
    }
  },
  getSnapshot: (): ReadonlyMap<string, SavedSticker> | null => saved,
}

/** Whether the sticker is saved for offline on this device. */
export async function isSavedForOffline(id: string): Promise<boolean> {
  await load()
  return saved?.has(id) ?? false
}

/** A kept file (saved or downloaded), or undefined; reading it counts as a use. */
export async function readKeptFile(url: string): Promise<Blob | undefined> {
  if (!hasIndexedDb()) return undefined
  const blob = await get<Blob>(fileKey(url), offlineStore('files')).catch(() => undefined)
  if (blob) recordFileUse(url)
  return blob
}

/** A JSON body as the service worker keeps API answers. */
export const jsonAnswer = (value: unknown): StoredApiResponse => ({
  status: 200,
  body: JSON.stringify(value),
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  storedAt: Date.now(),
})

/**
 * Stores the animation's JSON (as its detail page reads it), its three files, its card's still and
 * its chat app files with their list, then marks it saved. Cards play the Lottie over the still; the
 * animated WebP previews (150-260 KB each) are kept only for a Lottie the card player cannot draw. Without the list (a server hiccup) the
 * sticker is saved without its chat app files.
 */
export async function saveForOffline(wumpus: Wumpus): Promise<SavedSticker> {
  if (!hasIndexedDb()) throw new Error('This browser cannot keep files for offline use.')
  await load()
  const firstSave = saved?.size === 0
  const detailUrl = wumpusPath(wumpus._id)
  const [stickers, lottie] = await Promise.all([
    apiRequest(stickersPath(wumpus._id), trusted<StickerExport[]>()).catch(() => undefined),
    apiGetBlob(wumpus.lottie),
  ])
  const preview = wumpus.preview
  const previews = !preview ? [] : (await playsLightFile(lottie)) ? [preview.still] : [preview.webp, preview.webp2x, preview.still]
  const others = [
    wumpus.gif,
    wumpus.apng,
    ...previews,
    ...(stickers ?? []).flatMap((sticker) => (sticker.status === 'ready' && sticker.url ? [sticker.url] : [])),
  ]
  const urls = [wumpus.lottie, ...others]
  const blobs = [lottie, ...(await Promise.all(others.map((url) => apiGetBlob(url))))]
  const files = urls.map((url) => fileKey(url))
  await Promise.all(files.map((key, i) => set(key, blobs[i], offlineStore('files'))))
  await set(apiKey(detailUrl), jsonAnswer(wumpus), offlineStore('wumpus-details'))
  if (stickers) await set(apiKey(stickersPath(wumpus._id)), jsonAnswer(stickers), offlineStore('wumpus-details'))
  const sticker: SavedSticker = { wumpus, savedAt: Date.now(), bytes: blobs.reduce((sum, blob) => sum + blob.size, 0), files }
  await set(wumpus._id, sticker, offlineStore('saved'))
  publish(new Map(saved).set(wumpus._id, sticker))
  // Ask once that the browser not evict what the user chose to keep.
  if (firstSave) await navigator.storage?.persist?.().catch(() => false)
  // A sticker kept offline needs the app's pages to show it there: keep all of its code too.
  void keepAppForOffline()
  return sticker
}

/** Forgets a saved sticker and deletes its files, freeing their space. */
export async function removeFromOffline(id: string): Promise<void> {
  if (!hasIndexedDb()) return
  await load()
  const sticker = saved?.get(id) ?? (await get<SavedSticker>(id, offlineStore('saved')))
  if (sticker) {
    await delMany(sticker.files, offlineStore('files'))
    await forgetFileUses(sticker.files)
  }
  await del(id, offlineStore('saved'))
  const next = new Map(saved)
  next.delete(id)
  publish(next)
}

/** Forgets what was read from IndexedDB (tests start each case from a fresh database). */
export function resetSavedStickersForTest(): void {
  saved = null
  loading = null
}

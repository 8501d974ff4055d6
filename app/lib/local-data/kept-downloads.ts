// Files a user downloads are kept so the same download works offline. Unlike stickers saved on purpose
// they are kept only while there is room: least recently used first, the oldest go once they pass a size
// budget. As in Excalidraw's local data module: a store of its own for the bookkeeping ('file-uses'),
// and last-use writes batched and debounced (a gallery page reads many files at once). A keyed file (a
// private remix's) is never kept: it is its owner's, and the next person on this device must not find it.
import { delMany, entries, getMany, set, setMany, values } from 'idb-keyval'
import { isKeyedUrl } from '../pwa/personal-caches'
import { fileKey, hasIndexedDb, offlineStore } from './stores'
import type { SavedSticker } from './stores'

/** Room for kept downloads on this device. */
export const KEPT_DOWNLOADS_BUDGET_BYTES = 50 * 1024 * 1024

/** One kept download's size and when it was last downloaded or read (ms since the epoch). */
export interface FileUse {
  bytes: number
  lastUsedAt: number
}

export interface KeptDownloadsUsage {
  bytes: number
  files: number
  budget: number
}

const USE_WRITE_DELAY_MS = 500

const pendingUses = new Map<string, number>()
let flushTimer: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()

/** Tells the Saved page that the figures changed. */
export function subscribeKeptDownloads(listener: () => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

function changed() {
  for (const listener of [...listeners]) listener()
}

/**
 * Keeps a downloaded file (so it can be downloaded again offline), then prunes the kept downloads down
 * to the budget; a keyed URL (a private remix's file) is not kept. Never throws.
 */
export async function keepDownload(url: string, blob: Blob, budget = KEPT_DOWNLOADS_BUDGET_BYTES): Promise<void> {
  if (!hasIndexedDb() || isKeyedUrl(url)) return
  try {
    const key = fileKey(url)
    await set(key, blob, offlineStore('files'))
    await set(key, { bytes: blob.size, lastUsedAt: Date.now() } satisfies FileUse, offlineStore('file-uses'))
    pendingUses.delete(key)
    await pruneKeptDownloads(budget)
  } catch {
    // A full disk or a closed database: the download itself has worked.
  }
}

/** Marks a kept file as just used (read by the page or served by the service worker); written shortly after. */
export function recordFileUse(url: string, at = Date.now()): void {
  if (!hasIndexedDb()) return
  pendingUses.set(fileKey(url), at)
  clearTimeout(flushTimer)
  flushTimer = setTimeout(() => void flushFileUses().catch(() => {}), USE_WRITE_DELAY_MS)
}

/** Writes the pending last uses now; only files still kept as downloads are touched. */
export async function flushFileUses(): Promise<void> {
  clearTimeout(flushTimer)
  flushTimer = undefined
  if (pendingUses.size === 0) return
  const batch = [...pendingUses]
  pendingUses.clear()
  const store = offlineStore('file-uses')
  const known = await getMany<FileUse | undefined>(
    batch.map(([key]) => key),
    store,
  )
  const updates = batch.flatMap(([key, lastUsedAt], i): [string, FileUse][] => {
    const use = known[i]
    return use ? [[key, { ...use, lastUsedAt }]] : []
  })
  if (updates.length > 0) await setMany(updates, store)
}

/** Kept downloads, least recently used first, leaving out the files of stickers saved on purpose. */
async function keptDownloads(): Promise<[string, FileUse][]> {
  await flushFileUses()
  const saved = new Set((await values<SavedSticker>(offlineStore('saved'))).flatMap((sticker) => sticker.files))
  const uses = await entries<string, FileUse>(offlineStore('file-uses'))
  return uses.filter(([key]) => !saved.has(key)).sort(([, a], [, b]) => a.lastUsedAt - b.lastUsedAt)
}

async function forget(keys: string[]): Promise<void> {
  if (keys.length === 0) return
  await delMany(keys, offlineStore('files'))
  await delMany(keys, offlineStore('file-uses'))
  changed()
}

/** Removes the least recently used kept downloads until the rest fit in the budget. */
export async function pruneKeptDownloads(budget = KEPT_DOWNLOADS_BUDGET_BYTES): Promise<string[]> {
  const kept = await keptDownloads()
  let total = kept.reduce((sum, [, use]) => sum + use.bytes, 0)
  const removed: string[] = []
  for (const [key, use] of kept) {
    if (total <= budget) break
    removed.push(key)
    total -= use.bytes
  }
  await forget(removed)
  if (removed.length === 0) changed()
  return removed
}

/** What the kept downloads take now. */
export async function keptDownloadsUsage(budget = KEPT_DOWNLOADS_BUDGET_BYTES): Promise<KeptDownloadsUsage> {
  if (!hasIndexedDb()) return { bytes: 0, files: 0, budget }
  const kept = await keptDownloads()
  return { bytes: kept.reduce((sum, [, use]) => sum + use.bytes, 0), files: kept.length, budget }
}

/** Removes every kept download; saved stickers stay. */
export async function clearKeptDownloads(): Promise<void> {
  if (!hasIndexedDb()) return
  await forget((await keptDownloads()).map(([key]) => key))
}

/** Bookkeeping for files that went with a removed sticker. */
export async function forgetFileUses(keys: string[]): Promise<void> {
  await delMany(keys, offlineStore('file-uses'))
  changed()
}

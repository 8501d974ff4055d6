import { clear, del, entries } from 'idb-keyval'
import { API_PATHS, stickersPath, wumpusPath } from '../../../contract/api-paths'
import type { Pack } from '../../../contract/pack'
import type { Wumpus } from '../../../contract/wumpus'
import { forgetPersonalCaches, forgetPersonalInServiceWorker, isKeyedUrl } from '../pwa/personal-caches'
import { forgetQueuedWrites } from './outbox'
import { hasIndexedDb, offlineStore, parseJson, type SavedPack, type SavedSticker, type StoredApiResponse } from './stores'
import { removePackFromOffline } from './saved-packs'
import { removeFromOffline } from './saved-stickers'

/**
 * Profiles, uploaders' lists and personal packs are read with the user's token, favourites, notifications and queued
 * writes (the outbox) are the user's own: when the user signs out (here or in another tab; main.tsx calls
 * this from the session's sign-out listener), the copies on this device go too, and so do remixes (one's own
 * versions of stickers, kept when opened or saved). Gallery pages, details, saved stickers and public packs are public.
 * Cache Storage loses every keyed or private answer, here and in the service worker (lib/pwa/personal-caches.ts).
 */
export async function forgetPersonalOfflineData(): Promise<void> {
  await Promise.all([forgetPersonalCaches(), forgetPersonalInServiceWorker()])
  if (!hasIndexedDb()) return
  await Promise.all([
    clear(offlineStore('profiles')),
    clear(offlineStore('user-lists')),
    clear(offlineStore('favourites')),
    clear(offlineStore('submission-drafts')),
    clear(offlineStore('notifications')),
    forgetQueuedWrites(),
    forgetPersonalPacks(),
    forgetRemixes(),
    forgetKeyedCacheBookkeeping(),
  ]).catch(() => {})
}

/** Workbox's expiration plugin notes each cached URL with its time (database `workbox-expiration`). */
const CACHE_BOOKKEEPING = { database: 'workbox-expiration', store: 'cache-entries' }

/**
 * Drops workbox's notes of keyed URLs (an older service worker cached a private remix's previews):
 * the URLs name the files and carry their keys. A device that never had the database gets none.
 */
async function forgetKeyedCacheBookkeeping(): Promise<void> {
  const db = await new Promise<IDBDatabase | undefined>((resolve) => {
    const request = indexedDB.open(CACHE_BOOKKEEPING.database)
    // Not there: opening would make it, so the upgrade is undone.
    request.onupgradeneeded = () => request.transaction?.abort()
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => resolve(undefined)
  })
  if (!db) return
  try {
    if (!db.objectStoreNames.contains(CACHE_BOOKKEEPING.store)) return
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(CACHE_BOOKKEEPING.store, 'readwrite')
      const cursorRequest = tx.objectStore(CACHE_BOOKKEEPING.store).openCursor()
      cursorRequest.onsuccess = () => {
        const cursor = cursorRequest.result
        if (!cursor) return
        const url = (cursor.value as { url?: unknown }).url
        if (typeof url === 'string' && isKeyedUrl(url)) cursor.delete()
        cursor.continue()
      }
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(new Error(String(tx.error)))
    })
  } finally {
    db.close()
  }
}

/** Every remix kept on this device: its detail, its chat app files' list, and its saved copy with its files. */
async function forgetRemixes(): Promise<void> {
  const isRemix = (value: unknown) => typeof (value as Partial<Wumpus> | undefined)?.remixOf === 'string'
  const remixIds = new Set<string>()
  for (const [key, entry] of await entries<string, StoredApiResponse>(offlineStore('wumpus-details'))) {
    if (!key.endsWith('/stickers') && isRemix(parseJson(entry.body))) remixIds.add(key.slice(key.lastIndexOf('/') + 1))
  }
  for (const [id, sticker] of await entries<string, SavedSticker>(offlineStore('saved'))) if (isRemix(sticker.wumpus)) remixIds.add(id)
  for (const id of remixIds) {
    await del(wumpusPath(id), offlineStore('wumpus-details'))
    await del(stickersPath(id), offlineStore('wumpus-details'))
  }
  await Promise.all([...remixIds].map((id) => removeFromOffline(id)))
}

/** The My packs list and every pack that is not public, kept or saved for offline. */
async function forgetPersonalPacks(): Promise<void> {
  const kept = await entries<string, StoredApiResponse>(offlineStore('packs'))
  const personal = kept.filter(([key, entry]) => key.startsWith(API_PATHS.myPacks) || !isPublicPack(entry.body))
  await Promise.all(personal.map(([key]) => del(key, offlineStore('packs'))))
  for (const [id, saved] of await entries<string, SavedPack>(offlineStore('saved-packs')))
    if (saved.pack.visibility !== 'public') await removePackFromOffline(id)
}

/** A kept pack list holds public packs only (/api/packs); a pack's own answer says what it is. */
function isPublicPack(body: string): boolean {
  try {
    const value = JSON.parse(body) as Pack | Pack[]
    return Array.isArray(value) || value.visibility === 'public'
  } catch {
    return false
  }
}

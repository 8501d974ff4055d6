import { clear, del, entries } from 'idb-keyval'
import { API_PATHS } from '../../../contract/api-paths'
import type { Pack } from '../../../contract/pack'
import { forgetQueuedWrites } from '../sync/outbox'
import { hasIndexedDb, offlineStore, type StoredApiResponse } from './offline-db'
import { removePackFromOffline, type SavedPack } from './saved-packs'

/**
 * Profiles, uploaders' lists and personal packs are read with the user's token, favourites and queued
 * writes (the outbox) are the user's own: when the user signs out (here or in another tab; main.tsx calls
 * this from the session's sign-out listener), the copies on this device go too. Gallery pages, details,
 * saved stickers and public packs are public.
 */
export async function forgetPersonalOfflineData(): Promise<void> {
  if (!hasIndexedDb()) return
  await Promise.all([
    clear(offlineStore('profiles')),
    clear(offlineStore('user-lists')),
    clear(offlineStore('favourites')),
    forgetQueuedWrites(),
    forgetPersonalPacks(),
  ]).catch(() => {})
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

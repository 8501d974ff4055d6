import { clear } from 'idb-keyval'
import { forgetQueuedWrites } from '../sync/outbox'
import { hasIndexedDb, offlineStore } from './offline-db'

/**
 * Profiles and uploaders' lists are read with the user's token, favourites and queued writes (the outbox)
 * are the user's own: when the user signs out (here or in another tab; main.tsx calls this from the
 * session's sign-out listener), the copies on this device go too. Gallery pages, details and saved stickers
 * are public.
 */
export async function forgetPersonalOfflineData(): Promise<void> {
  if (!hasIndexedDb()) return
  await Promise.all([
    clear(offlineStore('profiles')),
    clear(offlineStore('user-lists')),
    clear(offlineStore('favourites')),
    forgetQueuedWrites(),
  ]).catch(() => {})
}

import { clear } from 'idb-keyval'
import { hasIndexedDb, offlineStore } from './offline-db'

/**
 * Profiles and uploaders' lists are read with the user's token: when the user signs out (here or in
 * another tab; main.tsx calls this from the session's sign-out listener), the offline copies go too.
 * Gallery pages, details and saved stickers are public.
 */
export async function forgetPersonalOfflineData(): Promise<void> {
  if (hasIndexedDb()) await Promise.all([clear(offlineStore('profiles')), clear(offlineStore('user-lists'))]).catch(() => {})
}

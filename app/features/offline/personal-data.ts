import { clear } from 'idb-keyval'
import type { SessionStore } from '../../lib/session'
import { hasIndexedDb, offlineStore } from './offline-db'

/**
 * Profiles and uploaders' lists are read with the user's token: when the user signs out (here or in
 * another tab), the offline copies go too. Gallery pages, details and saved stickers are public.
 */
export function forgetPersonalOfflineData(session: Pick<SessionStore, 'onSignOut'>): () => void {
  return session.onSignOut(() => {
    if (hasIndexedDb()) void Promise.all([clear(offlineStore('profiles')), clear(offlineStore('user-lists'))]).catch(() => {})
  })
}

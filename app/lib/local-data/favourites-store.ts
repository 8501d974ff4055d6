// The signed-in user's favourites as this device last read them (the `favourites` store, keyed by email): they
// answer when the network fails. Read and written by the favourites' data code (entities/favourite).
import { get, update } from 'idb-keyval'
import type { Favourite } from '../../../contract/favourites'
import { offlineStore } from './stores'

/** What this device keeps of one user's favourites. */
export interface KeptFavourites {
  /** GET /api/me/favourite-ids as last read. */
  ids?: string[]
  /** The list's pages as last read, in order. */
  items?: Favourite[]
  /** Stickers favourited here whose write may not be sent yet: the list shows them meanwhile. */
  added?: Record<string, Favourite>
}

const keptStore = () => offlineStore('favourites')

export async function readKeptFavourites(email: string): Promise<KeptFavourites> {
  return (await get<KeptFavourites>(email, keptStore()).catch(() => undefined)) ?? {}
}

/** A full disk or a closed database must not cost the user what the server answered: failures are ignored. */
export async function keepFavourites(email: string, change: (kept: KeptFavourites) => KeptFavourites): Promise<void> {
  await update<KeptFavourites>(email, (kept = {}) => change(kept), keptStore()).catch(() => {})
}

// The favourites rules: a signed-in user favourites existing animations, each once, up to FAVOURITES_MAX;
// adding one already there and removing one not there are fine (a device replaying queued changes).
import { FAVOURITES_MAX } from '../../../contract/limits'
import { canSee } from '../domain/visibility'
import type { Store, WumpusRecord } from '../store/port'
import type { Actor } from '../domain/viewer'
import { findVisibleWumpus, noSuchAnimation } from './find-wumpus'
import { conflict } from '../domain/errors'

/** A favourite: the animation, and when it was favourited. */
export interface FavouriteView {
  record: WumpusRecord
  favouritedAt: Date
}

export interface FavouriteService {
  /** Newest favourited first; favourites of animations deleted meanwhile (or remixes made private) are left out. */
  list(viewer: Actor, page: { limit: number; cursor?: string }): Promise<{ items: FavouriteView[]; total: number; nextCursor?: string }>
  ids(email: string): Promise<string[]>
  /** Throws NOT_FOUND for an unknown animation (undefined: a malformed id, or a remix the viewer may not see), CONFLICT at the cap. */
  add(viewer: Actor, wumpusId: string | undefined): Promise<void>
  /**
   * Throws NOT_FOUND for an animation that was not a favourite and that is unknown or that the viewer may not
   * see (another person's private remix answers as an unknown id does).
   */
  remove(viewer: Actor, wumpusId: string | undefined): Promise<void>
}

export function createFavouriteService(store: Store): FavouriteService {
  return {
    async list(viewer, page) {
      const { items, total, nextCursor } = await store.favourites.list(viewer.email, page)
      const records = await Promise.all(items.map((item) => store.wumpuses.get(item.wumpusId)))
      const favourites = items.flatMap((item, i) => {
        const record = records[i]
        return record && canSee(record, viewer) ? [{ record, favouritedAt: item.favouritedAt }] : []
      })
      return { items: favourites, total, ...(nextCursor ? { nextCursor } : {}) }
    },

    ids: (email) => store.favourites.ids(email),

    async add(viewer, wumpusId) {
      const record = await findVisibleWumpus(store, wumpusId, viewer)
      if ((await store.favourites.add(viewer.email, record._id, { max: FAVOURITES_MAX })) === 'full') {
        throw conflict(`You have ${FAVOURITES_MAX.toLocaleString('en')} favourites, the most one can keep: remove some to add more`, {
          reason: 'favourites-full',
          max: FAVOURITES_MAX,
        })
      }
    },

    async remove(viewer, wumpusId) {
      if (wumpusId === undefined) throw noSuchAnimation()
      if (await store.favourites.remove(viewer.email, wumpusId)) return
      await findVisibleWumpus(store, wumpusId, viewer)
    },
  }
}

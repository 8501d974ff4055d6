import { notFound } from '../domain/errors'
import type { Viewer } from '../domain/viewer'
import { canSee } from '../domain/visibility'
import type { Store, WumpusRecord } from '../store/port'

/** The one answer for an animation that is not there, or that the caller may not see. */
export const noSuchAnimation = () => notFound('No animation with this id')

/** The animation with this id (undefined: an id that is not even well formed), or NOT_FOUND. */
export async function findWumpus(store: Store, id: string | undefined): Promise<WumpusRecord> {
  const record = id === undefined ? undefined : await store.wumpuses.get(id)
  if (!record) throw noSuchAnimation()
  return record
}

/** The animation with this id when the viewer may see it (domain/visibility.ts), else NOT_FOUND. */
export async function findVisibleWumpus(store: Store, id: string | undefined, viewer: Viewer): Promise<WumpusRecord> {
  const record = id === undefined ? undefined : await store.wumpuses.get(id)
  if (!record || !canSee(record, viewer)) throw noSuchAnimation()
  return record
}

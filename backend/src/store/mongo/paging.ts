import type { Document, Filter } from 'mongodb'
import type { ListKey, ListOrder } from '../../../../contract/search'
import type { WumpusDocument } from './wumpuses'

/**
 * What comes after a newest-first cursor's key, as the `$or` of a MongoDB filter: an earlier time, or the same
 * time and a smaller id (the order's tie-break). `time` and `id` name the fields the list is sorted on.
 */
export function afterNewest<T extends Document>(after: ListKey, time: string, id: string): Filter<T>[] {
  const at = new Date(after.time)
  return [{ [time]: { $lt: at } }, { [time]: at, [id]: { $lt: after.id } }] as Filter<T>[]
}

export const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const
export const MOST_DOWNLOADED_FIRST = { downloads: -1, ...NEWEST_FIRST } as const

/** What every list, search and count asks for: the animations that are not remixes (null matches a missing field). */
export const ORIGINALS = { remixOf: null }

/** Records as the port answers them: the search prefixes and words stay in the database. */
export const RECORD_PROJECTION = { searchPrefixes: 0, searchWords: 0 } as const

/** The cursor condition of an order: strictly after the key (both orders end on createdAt and _id). */
export function afterKey(key: ListKey, order: ListOrder): Filter<WumpusDocument>[] {
  const newest = afterNewest<WumpusDocument>(key, 'createdAt', '_id')
  if (order !== 'popular') return newest
  return [{ downloads: { $lt: key.rank } }, ...newest.map((condition) => ({ downloads: key.rank, ...condition }))]
}

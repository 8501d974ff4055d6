import type { Document, Filter } from 'mongodb'
import type { ListKey } from '../../../../contract/search'

/**
 * What comes after a newest-first cursor's key, as the `$or` of a MongoDB filter: an earlier time, or the same
 * time and a smaller id (the order's tie-break). `time` and `id` name the fields the list is sorted on.
 */
export function afterNewest<T extends Document>(after: ListKey, time: string, id: string): Filter<T>[] {
  const at = new Date(after.time)
  return [{ [time]: { $lt: at } }, { [time]: at, [id]: { $lt: after.id } }] as Filter<T>[]
}

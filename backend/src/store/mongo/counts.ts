/**
 * Tag and emoji counts (the `tags` and `emoji` collections: how many originals carry each value) counted
 * again from the animations, in the database, and corrected where the stored ones drifted.
 */
import type { AnyBulkWriteOperation, Db, Document, MongoClient } from 'mongodb'
import { ORIGINALS } from './paging'

/**
 * How many animations carry a tag or emoji (its `_id`), and how many of them are sensitive (none when the
 * field is missing), kept up to date with every write (the lists need no scan; without the sensitive
 * animations a count is count - sensitive).
 */
export interface CountDocument {
  _id: string
  count: number
  sensitive?: number
}

/** How much a write moves a count and its count among sensitive animations. */
export interface CountMove {
  count: number
  sensitive: number
}

/** 1 for a sensitive animation, else 0 (false, or stored before the flag). */
const SENSITIVE_ONE = { $cond: [{ $eq: ['$sensitive', true] }, 1, 0] }

/**
 * Each count collection's aggregation over the originals: a tag for each of an animation's tags, an emoji
 * character once per animation however often it uses it. Only the distinct values with their counts leave
 * the database, never an animation.
 */
const COUNTED: ReadonlyArray<[collection: 'tags' | 'emoji', pipeline: Document[]]> = [
  [
    'tags',
    [{ $match: ORIGINALS }, { $unwind: '$tags' }, { $group: { _id: '$tags', count: { $sum: 1 }, sensitive: { $sum: SENSITIVE_ONE } } }],
  ],
  [
    'emoji',
    [
      { $match: ORIGINALS },
      { $project: { chars: { $setUnion: [{ $ifNull: ['$emoji.char', []] }, []] }, sensitive: 1 } },
      { $unwind: '$chars' },
      { $group: { _id: '$chars', count: { $sum: 1 }, sensitive: { $sum: SENSITIVE_ONE } } },
    ],
  ],
]

/**
 * Counts tags and emoji from the animations and writes only the stored counts that differ: a wrong count
 * set, a missing one added, one of a value no animation carries (or counted 0) removed. Everything is read
 * and written in one snapshot transaction: a write that changes a count meanwhile makes it a write
 * conflict, and the driver runs it again on the new state. Answers how many counts were corrected.
 * A writer outside transactions (an older instance during a rolling deploy) may still leave a count off
 * between its two writes: the next run corrects it.
 */
export async function correctCounts(client: MongoClient, db: Db): Promise<number> {
  return client.withSession((session) =>
    session.withTransaction(
      async () => {
        let corrected = 0
        for (const [name, pipeline] of COUNTED) {
          const collection = db.collection<CountDocument>(name)
          const counted = await db.collection('wumpuses').aggregate<CountDocument>(pipeline, { session }).toArray()
          const stored = new Map((await collection.find({}, { session }).toArray()).map((doc) => [doc._id, doc]))
          const fixes = corrections(counted, stored)
          if (fixes.length > 0) await collection.bulkWrite(fixes, { ordered: false, session })
          corrected += fixes.length
        }
        return corrected
      },
      { readConcern: { level: 'snapshot' } },
    ),
  )
}

/** The writes that make the stored counts the counted ones. */
function corrections(counted: CountDocument[], stored: ReadonlyMap<string, CountDocument>): AnyBulkWriteOperation<CountDocument>[] {
  const fixes: AnyBulkWriteOperation<CountDocument>[] = []
  const carried = new Set<string>()
  for (const { _id, count, sensitive = 0 } of counted) {
    carried.add(_id)
    const was = stored.get(_id)
    if (was?.count !== count || (was.sensitive ?? 0) !== sensitive)
      fixes.push({
        updateOne: {
          filter: { _id },
          // No `sensitive` where none are: the same document as one never counted a sensitive animation.
          update: sensitive > 0 ? { $set: { count, sensitive } } : { $set: { count }, $unset: { sensitive: '' } },
          upsert: true,
        },
      })
  }
  for (const value of stored.keys()) if (!carried.has(value)) fixes.push({ deleteOne: { filter: { _id: value } } })
  return fixes
}

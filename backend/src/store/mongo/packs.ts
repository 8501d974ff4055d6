/** Sticker packs in MongoDB: the `packs` collection, indexed by the animations they hold. */
import type { ClientSession, Collection, Db, Filter } from 'mongodb'
import type { PackVisibility } from '../../../../contract/pack'
import { isId, newId } from '../ids'
import { decodeCursor, newestKey, pageOf } from '../list-order'
import { afterNewest } from './paging'
import type { NewPack, PackPatch, PackRecord, PackRepository, PackUpdate } from '../port'
import { editedPack, newPackRecord, packCover, toPackRecord } from '../records'
import type { AccountCaps } from './caps'
import { guard } from './errors'

/**
 * A stored pack. `revision` grows with every write, so a write made from a read applies only while
 * the pack is still as read (updatedAt alone can repeat within a millisecond). Documents stored before
 * personal packs have no visibility (public), edit times nor revision.
 */
type PackDocument = Omit<PackRecord, 'id' | 'visibility' | 'editedAt'> & {
  _id: string
  visibility?: PackVisibility | null
  editedAt?: PackRecord['editedAt']
  revision?: number | null
}

type Page = { items: PackRecord[]; total: number; nextCursor?: string }

/** The public packs (those stored before visibility existed included), newest first: /packs. */
export const PUBLIC_NEWEST_FIRST = { visibility: 1, createdAt: -1, _id: -1 } as const
/** One owner's packs, most recently updated first (their public ones, an admin's few, are skipped). */
export const PERSONAL_LATEST_FIRST = { createdBy: 1, updatedAt: -1, _id: -1 } as const

const PUBLIC: Filter<PackDocument> = { visibility: { $in: ['public', null] } }
const personal = (owner: string): Filter<PackDocument> => ({ createdBy: owner, visibility: { $in: ['link', 'private'] } })

/** Concurrent writes to one pack an update retries after, before it gives up. */
const UPDATE_ATTEMPTS = 20

function fromDocument(doc: PackDocument): PackRecord {
  return toPackRecord({ ...doc, id: doc._id, visibility: doc.visibility ?? undefined })
}

export class MongoPacks implements PackRepository {
  private readonly packs: Collection<PackDocument>

  constructor(
    db: Db,
    private readonly caps: AccountCaps,
  ) {
    this.packs = db.collection<PackDocument>('packs')
  }

  list(options: { limit: number; cursor?: string }): Promise<Page> {
    return this.page(PUBLIC, 'createdAt', { createdAt: -1, _id: -1 }, options)
  }

  listPersonal(owner: string, options: { limit: number; cursor?: string }): Promise<Page> {
    return this.page(personal(owner), 'updatedAt', { updatedAt: -1, _id: -1 }, options)
  }

  private async page(
    filter: Filter<PackDocument>,
    key: 'createdAt' | 'updatedAt',
    sort: Record<string, 1 | -1>,
    options: { limit: number; cursor?: string },
  ): Promise<Page> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const paged: Filter<PackDocument> = after ? { ...filter, $or: afterNewest(after, key, '_id') } : filter
    const [docs, total] = await guard(() =>
      Promise.all([
        this.packs
          .find(paged)
          .sort(sort)
          .limit(options.limit + 1)
          .toArray(),
        this.packs.countDocuments(filter),
      ]),
    )
    return {
      ...pageOf(docs, options.limit, { items: (page) => page.map(fromDocument), key: (pack) => newestKey(pack[key], pack.id) }),
      total,
    }
  }

  async get(id: string): Promise<PackRecord | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.packs.findOne({ _id: id }))
    return doc ? fromDocument(doc) : undefined
  }

  async insert(pack: NewPack, session?: ClientSession): Promise<PackRecord> {
    const now = new Date()
    const record = newPackRecord(newId(now.getTime()), pack, now)
    const { id: _id, ...rest } = record
    await guard(() => this.packs.insertOne({ _id, ...rest, revision: 0 }, { session }))
    return record
  }

  /** Within the cap atomically: the count and the insert are one transaction in the owner's turn (caps.ts). */
  async insertPersonal(pack: NewPack & { visibility: 'link' | 'private' }, options: { max: number }): Promise<PackRecord | 'full'> {
    return this.caps.inTurn(`packs:${pack.createdBy}`, async (session) => {
      if ((await this.packs.countDocuments(personal(pack.createdBy), { session })) >= options.max) return 'full'
      return this.insert(pack, session)
    })
  }

  async update(id: string, patch: PackPatch, options: { editedAt?: Date } = {}): Promise<PackUpdate | undefined> {
    if (!isId(id)) return undefined
    // Written only while the pack is still as read, else read again: a concurrent edit of another field
    // or a concurrent removal of an animation is never undone.
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const current = await guard(() => this.packs.findOne({ _id: id }))
      if (!current) return undefined
      const now = new Date()
      const { pack, superseded, changed } = editedPack(fromDocument(current), patch, options.editedAt ?? now, now)
      if (!changed) return { pack, superseded }
      const { id: _id, ...next } = pack
      const doc = await guard(() =>
        this.packs.findOneAndReplace(
          // null also matches a document stored without a revision.
          { _id: id, revision: current.revision ?? null },
          { ...next, revision: (current.revision ?? 0) + 1 },
          { returnDocument: 'after' },
        ),
      )
      if (doc) return { pack: fromDocument(doc), superseded }
    }
    throw new Error(`Pack ${id} kept changing while being updated`)
  }

  async delete(id: string): Promise<number> {
    if (!isId(id)) return 0
    const { deletedCount } = await guard(() => this.packs.deleteOne({ _id: id }))
    return deletedCount
  }

  /** Takes a deleted animation out of the packs that hold it (found by index); covers move to the first. */
  /** Takes the animation out of every pack and off every cover; with `session`, inside its transaction. */
  async removeWumpus(wumpusId: string, session?: ClientSession): Promise<void> {
    const now = new Date()
    await guard(() =>
      this.packs.updateMany(
        { wumpusIds: wumpusId },
        { $pull: { wumpusIds: wumpusId }, $set: { updatedAt: now }, $inc: { revision: 1 } },
        { session },
      ),
    )
    for (const pack of await guard(() => this.packs.find({ coverWumpusId: wumpusId }, { session }).toArray())) {
      await guard(() =>
        this.packs.updateOne(
          { _id: pack._id, coverWumpusId: wumpusId },
          { $set: { coverWumpusId: packCover(pack.wumpusIds, null) }, $inc: { revision: 1 } },
          { session },
        ),
      )
    }
  }
}

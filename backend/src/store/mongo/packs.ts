/** Sticker packs in MongoDB: the `packs` collection, indexed by the animations they hold. */
import type { Collection, Db, Filter } from 'mongodb'
import { isId, newId } from '../ids'
import { decodeCursor, encodeCursor } from '../list-order'
import type { NewPack, PackPatch, PackRecord, PackRepository } from '../port'
import { newPackRecord, packCover, patchedPack, toPackRecord } from '../records'
import { guard } from './errors'

type PackDocument = Omit<PackRecord, 'id'> & { _id: string }

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const

function fromDocument(doc: PackDocument): PackRecord {
  return toPackRecord({ ...doc, id: doc._id })
}

export class MongoPacks implements PackRepository {
  private readonly packs: Collection<PackDocument>

  constructor(db: Db) {
    this.packs = db.collection<PackDocument>('packs')
  }

  async list(options: { limit: number; cursor?: string }): Promise<{ items: PackRecord[]; total: number; nextCursor?: string }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const filter: Filter<PackDocument> = after
      ? { $or: [{ createdAt: { $lt: new Date(after.time) } }, { createdAt: new Date(after.time), _id: { $lt: after.id } }] }
      : {}
    const [docs, total] = await guard(() =>
      Promise.all([
        this.packs
          .find(filter)
          .sort(NEWEST_FIRST)
          .limit(options.limit + 1)
          .toArray(),
        this.packs.countDocuments({}),
      ]),
    )
    const items = docs.slice(0, options.limit).map(fromDocument)
    const last = items.at(-1)
    return docs.length > options.limit && last
      ? { items, total, nextCursor: encodeCursor({ rank: 0, time: last.createdAt.getTime(), id: last.id }, 'new') }
      : { items, total }
  }

  async get(id: string): Promise<PackRecord | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.packs.findOne({ _id: id }))
    return doc ? fromDocument(doc) : undefined
  }

  async insert(pack: NewPack): Promise<PackRecord> {
    const now = new Date()
    const record = newPackRecord(newId(now.getTime()), pack, now)
    const { id: _id, ...rest } = record
    await guard(() => this.packs.insertOne({ _id, ...rest }))
    return record
  }

  async update(id: string, patch: PackPatch): Promise<PackRecord | undefined> {
    if (!isId(id)) return undefined
    // Written only if the pack read is still the stored one, so a concurrent delete of an animation is not undone.
    for (let attempt = 0; attempt < 10; attempt++) {
      const current = await guard(() => this.packs.findOne({ _id: id }))
      if (!current) return undefined
      const { id: _id, ...next } = patchedPack(fromDocument(current), patch, new Date())
      const doc = await guard(() =>
        this.packs.findOneAndReplace({ _id: id, updatedAt: current.updatedAt }, next, { returnDocument: 'after' }),
      )
      if (doc) return fromDocument(doc)
    }
    throw new Error(`Pack ${id} kept changing while being updated`)
  }

  async delete(id: string): Promise<number> {
    if (!isId(id)) return 0
    const { deletedCount } = await guard(() => this.packs.deleteOne({ _id: id }))
    return deletedCount
  }

  /** Takes a deleted animation out of the packs that hold it (found by index); covers move to the first. */
  async removeWumpus(wumpusId: string): Promise<void> {
    const now = new Date()
    await guard(() => this.packs.updateMany({ wumpusIds: wumpusId }, { $pull: { wumpusIds: wumpusId }, $set: { updatedAt: now } }))
    for (const pack of await guard(() => this.packs.find({ coverWumpusId: wumpusId }).toArray())) {
      await guard(() =>
        this.packs.updateOne({ _id: pack._id, coverWumpusId: wumpusId }, { $set: { coverWumpusId: packCover(pack.wumpusIds, null) } }),
      )
    }
  }
}

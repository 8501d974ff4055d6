/**
 * Telegram sets in MongoDB: one document per pack and kind in `telegramSets` (_id: `<pack id>:<kind>`, setKey), claimed with one
 * findOneAndUpdate whose filter picks a due document, so two instances never get the same one. Lease and retry
 * times are the database server's clock, as for render jobs (ServerClock).
 */
import type { Collection, Db, Filter, UpdateFilter } from 'mongodb'
import type {
  TelegramSetJob,
  TelegramSetKind,
  TelegramSetOutcome,
  TelegramSetProgress,
  TelegramSetRecord,
  TelegramSetRepository,
  TelegramSetSticker,
} from '../port'
import { guard } from './errors'
import { ServerClock } from './render-jobs'

export const TELEGRAM_SETS_COLLECTION = 'telegramSets'

/** A set's `_id`: its pack's id and its kind. */
export const setKey = (packId: string, kind: TelegramSetKind) => `${packId}:${kind}`

export interface TelegramSetDocument {
  _id: string
  packId: string
  kind: TelegramSetKind
  name: string
  state: TelegramSetRecord['state']
  reason?: string
  removing: boolean
  generation: number
  created: boolean
  title?: string
  stickers: TelegramSetSticker[]
  pending: TelegramSetSticker[]
  ownerUserId?: number
  updatedAt: Date
  lease?: { owner: string; until: Date }
  retryAt?: Date | null
}

function fromDocument(doc: TelegramSetDocument): TelegramSetRecord {
  return {
    packId: doc.packId,
    kind: doc.kind,
    name: doc.name,
    state: doc.state,
    ...(doc.reason !== undefined && doc.reason !== null ? { reason: doc.reason } : {}),
    removing: doc.removing,
    generation: doc.generation,
    created: doc.created,
    ...(doc.title !== undefined && doc.title !== null ? { title: doc.title } : {}),
    stickers: doc.stickers,
    pending: doc.pending,
    ...(typeof doc.ownerUserId === 'number' ? { ownerUserId: doc.ownerUserId } : {}),
    updatedAt: doc.updatedAt,
  }
}

export class MongoTelegramSets implements TelegramSetRepository {
  private readonly sets: Collection<TelegramSetDocument>

  constructor(
    db: Db,
    private readonly clock = new ServerClock(db),
  ) {
    this.sets = db.collection<TelegramSetDocument>(TELEGRAM_SETS_COLLECTION)
  }

  async get(packId: string, kind: TelegramSetKind): Promise<TelegramSetRecord | undefined> {
    const doc = await guard(() => this.sets.findOne({ _id: setKey(packId, kind) }))
    return doc ? fromDocument(doc) : undefined
  }

  async request(
    packId: string,
    kind: TelegramSetKind,
    options: { name?: string; ownerUserId?: number; remove?: boolean; now: Date },
  ): Promise<TelegramSetRecord | undefined> {
    const asked = {
      $set: { state: 'making' as const, updatedAt: options.now, ...(options.remove ? { removing: true } : {}) },
      $unset: { reason: '', retryAt: '' } as const,
      $inc: { generation: 1 },
    }
    const _id = setKey(packId, kind)
    const doc = await guard(() => this.sets.findOneAndUpdate({ _id }, asked, { returnDocument: 'after' }))
    if (doc) return fromDocument(doc)
    if (options.name === undefined) return undefined
    const fresh: TelegramSetDocument = {
      _id,
      packId,
      kind,
      name: options.name,
      state: 'making',
      removing: options.remove ?? false,
      generation: 1,
      created: false,
      stickers: [],
      pending: [],
      ...(options.ownerUserId !== undefined ? { ownerUserId: options.ownerUserId } : {}),
      updatedAt: options.now,
    }
    // Two requests at once: the second finds the first's document and asks again on it.
    const inserted = await guard(() =>
      this.sets.updateOne({ _id }, { $setOnInsert: fresh }, { upsert: true }).then((r) => r.upsertedCount > 0),
    )
    return inserted ? fromDocument(fresh) : this.request(packId, kind, { ...options, name: undefined })
  }

  async requestHolding(wumpusId: string, now: Date): Promise<number> {
    // Every set of a pack one of whose sets holds the animation.
    const packIds = await guard(() => this.sets.distinct('packId', { 'stickers.wumpusId': wumpusId }))
    if (packIds.length === 0) return 0
    const { modifiedCount } = await guard(() =>
      this.sets.updateMany(
        { packId: { $in: packIds } },
        { $set: { state: 'making', updatedAt: now }, $unset: { reason: '', retryAt: '' }, $inc: { generation: 1 } },
      ),
    )
    return modifiedCount
  }

  async claim(options: { owner: string; leaseMs: number; now: Date }): Promise<TelegramSetJob | undefined> {
    const skew = await this.clock.skew()
    const now = new Date(options.now.getTime() + skew)
    const due: Filter<TelegramSetDocument> = {
      state: 'making',
      $and: [
        { $or: [{ 'lease.until': null }, { 'lease.until': { $lte: now } }] },
        { $or: [{ retryAt: null }, { retryAt: { $lte: now } }] },
      ],
    }
    const leaseUntil = new Date(options.now.getTime() + options.leaseMs)
    const doc = await guard(() =>
      this.sets.findOneAndUpdate(
        due,
        { $set: { lease: { owner: options.owner, until: new Date(leaseUntil.getTime() + skew) } } },
        { returnDocument: 'after', sort: { updatedAt: 1 } },
      ),
    )
    return doc ? { record: fromDocument(doc), owner: options.owner, leaseUntil } : undefined
  }

  async renew(job: TelegramSetJob, until: Date): Promise<boolean> {
    const skew = await this.clock.skew()
    const { matchedCount } = await guard(() =>
      this.sets.updateOne(
        { _id: setKey(job.record.packId, job.record.kind), 'lease.owner': job.owner },
        { $set: { 'lease.until': new Date(until.getTime() + skew) } },
      ),
    )
    return matchedCount > 0
  }

  async save(job: TelegramSetJob, { created, title, stickers, pending, ownerUserId }: TelegramSetProgress): Promise<boolean> {
    const progress = {
      created,
      stickers,
      pending,
      ...(title !== undefined ? { title } : {}),
      ...(ownerUserId !== undefined ? { ownerUserId } : {}),
    }
    const { matchedCount } = await guard(() =>
      this.sets.updateOne({ _id: setKey(job.record.packId, job.record.kind), 'lease.owner': job.owner }, { $set: progress }),
    )
    return matchedCount > 0
  }

  async finish(job: TelegramSetJob, outcome: TelegramSetOutcome): Promise<boolean> {
    const held = { _id: setKey(job.record.packId, job.record.kind), 'lease.owner': job.owner }
    const current = { ...held, generation: job.record.generation }
    if ('retryAt' in outcome) {
      const retryAt = new Date(outcome.retryAt.getTime() + (await this.clock.skew()))
      const { matchedCount } = await guard(() =>
        this.sets.updateOne(held, { $unset: { lease: '' }, $set: { retryAt, reason: outcome.reason } }),
      )
      return matchedCount > 0
    }
    if ('removed' in outcome) {
      const { deletedCount } = await guard(() => this.sets.deleteOne(current))
      if (deletedCount > 0) return true
    } else {
      const ended: UpdateFilter<TelegramSetDocument> =
        outcome.state === 'failed'
          ? { $unset: { lease: '' }, $set: { state: outcome.state, reason: outcome.reason } }
          : { $unset: { lease: '', reason: '' }, $set: { state: outcome.state } }
      const { matchedCount } = await guard(() => this.sets.updateOne(current, ended))
      if (matchedCount > 0) return true
    }
    // A newer request came meanwhile: the set stays to be made.
    const { matchedCount } = await guard(() => this.sets.updateOne(held, { $unset: { lease: '' } }))
    return matchedCount > 0
  }

  async nextRetry(): Promise<Date | undefined> {
    const doc = await guard(() =>
      this.sets.findOne({ state: 'making', retryAt: { $ne: null } }, { sort: { retryAt: 1 }, projection: { retryAt: 1 } }),
    )
    if (!doc?.retryAt) return undefined
    return new Date(doc.retryAt.getTime() - (await this.clock.skew()))
  }
}

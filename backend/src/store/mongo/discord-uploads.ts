/**
 * Discord upload jobs in MongoDB: one document per job in `discordUploads`, the state's hash unique. Claiming
 * reads the queue's first job (the one ready first: the oldest job without a retry time, or the job backing off
 * with the earliest retry time, whichever became ready first), then takes it with one findOneAndUpdate whose
 * filter wants its lease free and its retry time come, so two instances never get the same one. Lease and retry
 * times are the database server's clock, as for render jobs (ServerClock). A turn kept through a 429 is a lease
 * with no owner until the retry time.
 */
import type { Collection, Db } from 'mongodb'
import type {
  DiscordUploadJob,
  DiscordUploadOutcome,
  DiscordUploadProgress,
  DiscordUploadRecord,
  DiscordUploadRepository,
  NewDiscordUpload,
} from '../discord-uploads-port'
import { guard } from './errors'
import { ServerClock } from './render-jobs'

export const DISCORD_UPLOADS_COLLECTION = 'discordUploads'
/** The queue's two halves, each a range of this index: unfinished jobs without a retry time by age, and those backing off by retry time. */
export const DISCORD_QUEUE = { state: 1, retryAt: 1, createdAt: 1, _id: 1 } as const

interface DiscordUploadDocument extends Omit<DiscordUploadRecord, 'id' | 'reason' | 'tier' | 'pending'> {
  _id: string
  reason?: string | null
  tier?: number | null
  pending?: DiscordUploadRecord['pending'] | null
  /** owner null: a turn kept (a 429) until `until`. */
  lease?: { owner: string | null; until: Date } | null
  retryAt?: Date | null
}

function fromDocument({ _id, lease: _lease, retryAt: _retryAt, ...doc }: DiscordUploadDocument): DiscordUploadRecord {
  const { reason, tier, pending, ...rest } = doc
  return {
    id: _id,
    ...rest,
    ...(reason !== null && reason !== undefined ? { reason } : {}),
    ...(tier !== null && tier !== undefined ? { tier } : {}),
    ...(pending !== null && pending !== undefined ? { pending } : {}),
  }
}

const UNFINISHED = { $in: ['waiting', 'uploading'] as DiscordUploadRecord['state'][] }

export class MongoDiscordUploads implements DiscordUploadRepository {
  private readonly jobs: Collection<DiscordUploadDocument>

  constructor(
    db: Db,
    private readonly clock = new ServerClock(db),
  ) {
    this.jobs = db.collection<DiscordUploadDocument>(DISCORD_UPLOADS_COLLECTION)
  }

  async create(job: NewDiscordUpload): Promise<DiscordUploadRecord | undefined> {
    const doc: DiscordUploadDocument = {
      _id: job.id,
      stateHash: job.stateHash,
      account: job.account,
      packId: job.packId,
      guildId: job.guildId,
      state: 'waiting',
      uploaded: [],
      notFitted: [],
      createdAt: job.now,
      updatedAt: job.now,
    }
    // The state's hash is unique: a second job with it finds the first and makes nothing.
    const made = await guard(() => this.jobs.updateOne({ stateHash: job.stateHash }, { $setOnInsert: doc }, { upsert: true }))
    return made.upsertedCount > 0 ? fromDocument(doc) : undefined
  }

  async get(id: string): Promise<DiscordUploadRecord | undefined> {
    const doc = await guard(() => this.jobs.findOne({ _id: id }))
    return doc ? fromDocument(doc) : undefined
  }

  async hasState(stateHash: string): Promise<boolean> {
    return (await guard(() => this.jobs.findOne({ stateHash }, { projection: { _id: 1 } }))) !== null
  }

  async claim(options: { owner: string; leaseMs: number; now: Date }): Promise<DiscordUploadJob | undefined> {
    const skew = await this.clock.skew()
    const now = new Date(options.now.getTime() + skew)
    const head = await this.head(skew)
    if (!head) return undefined
    const leaseUntil = new Date(options.now.getTime() + options.leaseMs)
    const doc = await guard(() =>
      this.jobs.findOneAndUpdate(
        {
          _id: head._id,
          state: UNFINISHED,
          $and: [
            { $or: [{ 'lease.until': null }, { 'lease.until': { $lte: now } }] },
            { $or: [{ retryAt: null }, { retryAt: { $lte: now } }] },
          ],
        },
        { $set: { state: 'uploading', retryAt: null, lease: { owner: options.owner, until: new Date(leaseUntil.getTime() + skew) } } },
        { returnDocument: 'after' },
      ),
    )
    return doc ? { record: fromDocument(doc), owner: options.owner, leaseUntil } : undefined
  }

  /**
   * The job that became ready first: the oldest without a retry time (new, running, or keeping its turn), or the
   * one backing off whose retry time (the database's clock, `skew` ahead of ours) is earlier than that.
   */
  private async head(skew: number): Promise<{ _id: string } | undefined> {
    const [fresh, backingOff] = await Promise.all([
      guard(() =>
        this.jobs.findOne({ state: UNFINISHED, retryAt: null }, { sort: { createdAt: 1, _id: 1 }, projection: { _id: 1, createdAt: 1 } }),
      ),
      guard(() =>
        this.jobs.findOne(
          { state: UNFINISHED, retryAt: { $ne: null } },
          { sort: { retryAt: 1, createdAt: 1, _id: 1 }, projection: { _id: 1, retryAt: 1 } },
        ),
      ),
    ])
    if (!fresh || !backingOff) return fresh ?? backingOff ?? undefined
    const readyAt = backingOff.retryAt!.getTime() - skew
    const first = readyAt < fresh.createdAt.getTime() || (readyAt === fresh.createdAt.getTime() && backingOff._id < fresh._id)
    return first ? backingOff : fresh
  }

  async renew(job: DiscordUploadJob, until: Date): Promise<boolean> {
    const skew = await this.clock.skew()
    const { matchedCount } = await guard(() =>
      this.jobs.updateOne({ _id: job.record.id, 'lease.owner': job.owner }, { $set: { 'lease.until': new Date(until.getTime() + skew) } }),
    )
    return matchedCount > 0
  }

  async save(job: DiscordUploadJob, { tier, uploaded, notFitted, pending }: DiscordUploadProgress, now: Date): Promise<boolean> {
    const { matchedCount } = await guard(() =>
      this.jobs.updateOne(
        { _id: job.record.id, 'lease.owner': job.owner },
        { $set: { uploaded, notFitted, updatedAt: now, tier: tier ?? null, pending: pending ?? null } },
      ),
    )
    return matchedCount > 0
  }

  async finish(job: DiscordUploadJob, outcome: DiscordUploadOutcome, now: Date): Promise<boolean> {
    let set: Partial<DiscordUploadDocument>
    if ('retryAt' in outcome) {
      const at = new Date(outcome.retryAt.getTime() + (await this.clock.skew()))
      set = outcome.keepsTurn
        ? { state: 'waiting', reason: outcome.reason, retryAt: null, lease: { owner: null, until: at } }
        : { state: 'waiting', reason: outcome.reason, retryAt: at, lease: null }
    } else set = { state: outcome.state, reason: 'reason' in outcome ? outcome.reason : null, retryAt: null, lease: null }
    const { matchedCount } = await guard(() =>
      this.jobs.updateOne({ _id: job.record.id, 'lease.owner': job.owner }, { $set: { ...set, updatedAt: now } }),
    )
    return matchedCount > 0
  }

  async nextRetry(): Promise<Date | undefined> {
    const [retry, turn] = await guard(() =>
      Promise.all([
        this.jobs.findOne({ state: UNFINISHED, retryAt: { $ne: null } }, { sort: { retryAt: 1 }, projection: { retryAt: 1 } }),
        this.jobs.findOne({ state: UNFINISHED, 'lease.owner': null, 'lease.until': { $ne: null } }, { projection: { lease: 1 } }),
      ]),
    )
    const times = [retry?.retryAt, turn?.lease?.until].filter((t): t is Date => t instanceof Date).map((t) => t.getTime())
    if (times.length === 0) return undefined
    return new Date(Math.min(...times) - (await this.clock.skew()))
  }
}

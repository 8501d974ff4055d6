/**
 * Render jobs in MongoDB: fields of the animation's document (`renderedVersion`, indexed, and `render`),
 * claimed with one findOneAndUpdate whose filter picks a due document, so two instances never get the
 * same one.
 * Lease, retry and claim times are the database server's clock, one clock for every instance, so a lease
 * ends when the server says, not when the instance with the fastest clock thinks. The port's times are
 * this instance's clock (the caller's `now`, `until`, `retryAt`), moved by how far the server's clock is
 * from this instance's (ServerClock): the same instant for every instance, whatever their clocks say.
 */
import type { Collection, Db, Filter } from 'mongodb'
import { isId } from '../ids'
import type { RenderJob, RenderJobRepository } from '../port'
import { toWumpusRecord } from '../records'
import { guard } from './errors'
import { RECORD_PROJECTION, type WumpusDocument } from './wumpuses'

export class MongoRenderJobs implements RenderJobRepository {
  private readonly wumpuses: Collection<WumpusDocument>

  constructor(
    db: Db,
    private readonly clock = new ServerClock(db),
  ) {
    this.wumpuses = db.collection<WumpusDocument>('wumpuses')
  }

  async claim(options: { owner: string; version: number; leaseMs: number; now: Date; id?: string }): Promise<RenderJob | undefined> {
    if (options.id !== undefined && !isId(options.id)) return undefined
    const { version } = options
    const skew = await this.clock.skew()
    const now = new Date(options.now.getTime() + skew)
    // Below the version asked for, lease free or ended, and no retry time of a failure at that version ahead.
    const due: Filter<WumpusDocument> = {
      ...(options.id === undefined ? {} : { _id: options.id }),
      renderedVersion: { $lt: version },
      $and: [
        { $or: [{ 'render.until': null }, { 'render.until': { $lte: now } }] },
        { $or: [{ 'render.retryAt': null }, { 'render.retryAt': { $lte: now } }, { 'render.failedVersion': { $lt: version } }] },
      ],
    }
    const leaseUntil = new Date(options.now.getTime() + options.leaseMs)
    const doc = await guard(() =>
      this.wumpuses.findOneAndUpdate(
        due,
        { $set: { 'render.owner': options.owner, 'render.until': new Date(leaseUntil.getTime() + skew) } },
        { returnDocument: 'after', projection: RECORD_PROJECTION },
      ),
    )
    if (!doc) return undefined
    const failures = doc.render?.failedVersion === version ? (doc.render.failures ?? 0) : 0
    return { record: toWumpusRecord(doc), owner: options.owner, leaseUntil, version, failures }
  }

  async renew(job: RenderJob, until: Date): Promise<boolean> {
    const skew = await this.clock.skew()
    const { matchedCount } = await guard(() =>
      this.wumpuses.updateOne(
        { _id: job.record._id, 'render.owner': job.owner },
        { $set: { 'render.until': new Date(until.getTime() + skew) } },
      ),
    )
    return matchedCount > 0
  }

  async release(job: RenderJob, failure?: { retryAt: Date }): Promise<boolean> {
    const held = { _id: job.record._id, 'render.owner': job.owner }
    const end = { $unset: { 'render.owner': '', 'render.until': '' } } as const
    if (failure) {
      const retryAt = new Date(failure.retryAt.getTime() + (await this.clock.skew()))
      const failed = { 'render.failures': job.failures + 1, 'render.failedVersion': job.version, 'render.retryAt': retryAt }
      const sameLottie = { ...held, 'files.lottie.id': job.record.files.lottie.id }
      const { matchedCount } = await guard(() => this.wumpuses.updateOne(sameLottie, { ...end, $set: failed }))
      if (matchedCount > 0) return true
    }
    const { matchedCount } = await guard(() => this.wumpuses.updateOne(held, end))
    return matchedCount > 0
  }
}

/** How often the server's clock is read again. */
const CLOCK_CHECK_MS = 10 * 60 * 1000
/**
 * Differences below this are a read's latency as much as the clocks: a clock within it of the server's is
 * taken as the server's (so that instances, and the same instance across restarts, agree to the ms), and a
 * change of the measured difference within it keeps the difference kept.
 */
const CLOCK_JITTER_MS = 1000

/**
 * How far the database server's clock is ahead of this instance's (ms), read from `hello`'s `localTime`
 * (half the round trip counted), at first use and every CLOCK_CHECK_MS; below CLOCK_JITTER_MS it counts as
 * none, and a reading within CLOCK_JITTER_MS of the kept difference keeps it, so that times compared across
 * calls move together.
 */
export class ServerClock {
  private kept?: { skew: number; checkedAt: number }
  private reading?: Promise<number>

  constructor(private readonly db: Db) {}

  skew(): Promise<number> {
    const kept = this.kept
    if (kept && Date.now() - kept.checkedAt < CLOCK_CHECK_MS) return Promise.resolve(kept.skew)
    this.reading ??= this.read().finally(() => (this.reading = undefined))
    return this.reading
  }

  private async read(): Promise<number> {
    const sent = Date.now()
    const reply = await guard(() => this.db.command({ hello: 1 }))
    const received = Date.now()
    const serverTime = reply.localTime instanceof Date ? reply.localTime.getTime() : undefined
    const measured = serverTime === undefined ? 0 : Math.round(serverTime - (sent + received) / 2)
    const skew =
      Math.abs(measured) < CLOCK_JITTER_MS
        ? 0
        : this.kept && Math.abs(measured - this.kept.skew) < CLOCK_JITTER_MS
          ? this.kept.skew
          : measured
    this.kept = { skew, checkedAt: received }
    return skew
  }
}

/**
 * Render jobs in MongoDB: fields of the animation's document (`renderedVersion`, indexed, and `render`),
 * claimed with one findOneAndUpdate whose filter picks a due document, so two instances never get the
 * same one.
 */
import type { Collection, Db, Filter } from 'mongodb'
import { isId } from '../ids'
import type { RenderJob, RenderJobRepository } from '../port'
import { toWumpusRecord } from '../records'
import { guard } from './errors'
import { RECORD_PROJECTION, type WumpusDocument } from './wumpuses'

export class MongoRenderJobs implements RenderJobRepository {
  private readonly wumpuses: Collection<WumpusDocument>

  constructor(db: Db) {
    this.wumpuses = db.collection<WumpusDocument>('wumpuses')
  }

  async claim(options: { owner: string; version: number; leaseMs: number; now: Date; id?: string }): Promise<RenderJob | undefined> {
    if (options.id !== undefined && !isId(options.id)) return undefined
    const { now, version } = options
    // Below the version asked for, lease free or ended, and no retry time of a failure at that version ahead.
    const due: Filter<WumpusDocument> = {
      ...(options.id === undefined ? {} : { _id: options.id }),
      renderedVersion: { $lt: version },
      $and: [
        { $or: [{ 'render.until': null }, { 'render.until': { $lte: now } }] },
        { $or: [{ 'render.retryAt': null }, { 'render.retryAt': { $lte: now } }, { 'render.failedVersion': { $lt: version } }] },
      ],
    }
    const leaseUntil = new Date(now.getTime() + options.leaseMs)
    const doc = await guard(() =>
      this.wumpuses.findOneAndUpdate(
        due,
        { $set: { 'render.owner': options.owner, 'render.until': leaseUntil } },
        { returnDocument: 'after', projection: RECORD_PROJECTION },
      ),
    )
    if (!doc) return undefined
    const failures = doc.render?.failedVersion === version ? (doc.render.failures ?? 0) : 0
    return { record: toWumpusRecord(doc), owner: options.owner, leaseUntil, version, failures }
  }

  async renew(job: RenderJob, until: Date): Promise<boolean> {
    const { matchedCount } = await guard(() =>
      this.wumpuses.updateOne({ _id: job.record._id, 'render.owner': job.owner }, { $set: { 'render.until': until } }),
    )
    return matchedCount > 0
  }

  async release(job: RenderJob, failure?: { retryAt: Date }): Promise<boolean> {
    const held = { _id: job.record._id, 'render.owner': job.owner }
    const end = { $unset: { 'render.owner': '', 'render.until': '' } } as const
    if (failure) {
      const failed = { 'render.failures': job.failures + 1, 'render.failedVersion': job.version, 'render.retryAt': failure.retryAt }
      const sameLottie = { ...held, 'files.lottie.id': job.record.files.lottie.id }
      const { matchedCount } = await guard(() => this.wumpuses.updateOne(sameLottie, { ...end, $set: failed }))
      if (matchedCount > 0) return true
    }
    const { matchedCount } = await guard(() => this.wumpuses.updateOne(held, end))
    return matchedCount > 0
  }
}

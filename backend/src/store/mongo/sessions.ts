/**
 * Signed-in sessions in MongoDB: the `sessions` collection, which a TTL index empties of expired ones
 * (idle ones are swept by deleteExpired, the idle time being a setting).
 */
import type { Collection, Db, Filter } from 'mongodb'
import type { NewSession, SessionRecord, SessionRepository } from '../port'
import { newSessionRecord, toSessionRecord } from '../records'
import { guard } from './errors'

type SessionDocument = Omit<SessionRecord, 'id'> & { _id: string }

export class MongoSessions implements SessionRepository {
  private readonly sessions: Collection<SessionDocument>

  constructor(db: Db) {
    this.sessions = db.collection<SessionDocument>('sessions')
  }

  async create(session: NewSession): Promise<SessionRecord> {
    const record = newSessionRecord(session)
    const { id: _id, ...rest } = record
    await guard(() => this.sessions.insertOne({ _id, ...rest }))
    return record
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const doc = await guard(() => this.sessions.findOne({ _id: id }))
    return doc ? toSessionRecord({ ...doc, id: doc._id }) : undefined
  }

  async delete(id: string): Promise<boolean> {
    const { deletedCount } = await guard(() => this.sessions.deleteOne({ _id: id }))
    return deletedCount > 0
  }

  async deleteForUser(email: string, options: { exceptId?: string } = {}): Promise<number> {
    const filter: Filter<SessionDocument> = options.exceptId === undefined ? { email } : { email, _id: { $ne: options.exceptId } }
    const { deletedCount } = await guard(() => this.sessions.deleteMany(filter))
    return deletedCount
  }

  async touch(id: string, at: Date): Promise<boolean> {
    const { matchedCount } = await guard(() => this.sessions.updateOne({ _id: id }, { $max: { lastUsedAt: at } }))
    return matchedCount > 0
  }

  async deleteExpired(now: Date, options: { lastUsedBefore?: Date } = {}): Promise<number> {
    const ended: Filter<SessionDocument>[] = [{ expiresAt: { $lte: now } }]
    if (options.lastUsedBefore) {
      ended.push({ lastUsedAt: { $lt: options.lastUsedBefore } })
      ended.push({ lastUsedAt: { $exists: false }, createdAt: { $lt: options.lastUsedBefore } })
    }
    const { deletedCount } = await guard(() => this.sessions.deleteMany({ $or: ended }))
    return deletedCount
  }
}

/** Signed-in sessions in MongoDB: the `sessions` collection, which a TTL index empties of expired ones. */
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

  async deleteExpired(now: Date): Promise<number> {
    const { deletedCount } = await guard(() => this.sessions.deleteMany({ expiresAt: { $lte: now } }))
    return deletedCount
  }
}

/** Accounts in MongoDB: the `users` collection, unique by email. */
import { MongoServerError, type Collection, type Db } from 'mongodb'
import { newId } from '../ids'
import type { Role, UserPatch, UserRecord, UserRepository } from '../port'
import { toUserRecord, USER_DEFAULTS, userPatchFields } from '../records'
import { guard } from './errors'

type UserDocument = UserRecord & { _id: string }

export class MongoUsers implements UserRepository {
  private readonly users: Collection<UserDocument>

  constructor(db: Db) {
    this.users = db.collection<UserDocument>('users')
  }

  async get(email: string): Promise<UserRecord | undefined> {
    const doc = await guard(() => this.users.findOne({ email }))
    return doc ? toUserRecord(doc) : undefined
  }

  async upsert(email: string, patch: UserPatch): Promise<UserRecord> {
    const attempt = async () => {
      const now = new Date()
      const set = { ...userPatchFields(patch), updatedAt: now }
      const defaults = Object.fromEntries(Object.entries(USER_DEFAULTS).filter(([key]) => !(key in set)))
      return this.users.findOneAndUpdate(
        { email },
        { $set: set, $setOnInsert: { _id: newId(now.getTime()), ...defaults, createdAt: now } },
        { upsert: true, returnDocument: 'after' },
      )
    }
    // Two first sign-ins racing on one email: the loser's insert hits the unique index; then it updates.
    const doc = await guard(() =>
      attempt().catch((error: unknown) => {
        if (error instanceof MongoServerError && error.code === 11000) return attempt()
        throw error
      }),
    )
    if (!doc) throw new Error(`Upsert of user ${email} returned no document`)
    return toUserRecord(doc)
  }

  async list(): Promise<UserRecord[]> {
    const docs = await guard(() => this.users.find({}).sort({ email: 1 }).toArray())
    return docs.map(toUserRecord)
  }

  async setRole(email: string, role: Role): Promise<number> {
    const { modifiedCount } = await guard(() =>
      this.users.updateOne({ email, role: { $ne: role } }, { $set: { role, updatedAt: new Date() } }),
    )
    return modifiedCount
  }

  async bind(email: string, uid: string): Promise<UserRecord | undefined> {
    const doc = await guard(() =>
      this.users.findOneAndUpdate(
        { email, $or: [{ firebaseUid: { $exists: false } }, { firebaseUid: uid }] },
        { $set: { firebaseUid: uid } },
        { returnDocument: 'after' },
      ),
    )
    return doc ? toUserRecord(doc) : undefined
  }
}

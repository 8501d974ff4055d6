/** Accounts in SQLite, keyed by email. */
import type { Role, UserPatch, UserRecord, UserRepository } from '../port'
import { toUserRecord, USER_DEFAULTS, userPatchFields } from '../records'
import { guarded, type Db } from './database'

interface UserRow {
  email: string
  user_name: string
  role: Role
  photo: string
  cover: string
  url: string
  job: string
  description: string
  show_sensitive: number
  firebase_uid: string | null
  created_at: number
  updated_at: number
}

function fromRow(row: UserRow): UserRecord {
  const { firebase_uid, created_at, updated_at, show_sensitive, ...profile } = row
  return toUserRecord({
    ...profile,
    showSensitive: show_sensitive === 1,
    ...(firebase_uid === null ? {} : { firebaseUid: firebase_uid }),
    createdAt: new Date(created_at),
    updatedAt: new Date(updated_at),
  })
}

function toUserRow(user: UserRecord): UserRow {
  return {
    email: user.email,
    user_name: user.user_name,
    role: user.role,
    photo: user.photo,
    cover: user.cover,
    url: user.url,
    job: user.job,
    description: user.description,
    show_sensitive: user.showSensitive ? 1 : 0,
    firebase_uid: user.firebaseUid ?? null,
    created_at: user.createdAt.getTime(),
    updated_at: user.updatedAt.getTime(),
  }
}

export class SqliteUsers implements UserRepository {
  private readonly sql

  constructor(db: Db) {
    this.sql = {
      get: db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?'),
      all: db.prepare<[], UserRow>('SELECT * FROM users ORDER BY email'),
      write: db.prepare(
        `INSERT OR REPLACE INTO users (email, user_name, role, photo, cover, url, job, description, show_sensitive, firebase_uid, created_at, updated_at)
         VALUES (@email, @user_name, @role, @photo, @cover, @url, @job, @description, @show_sensitive, @firebase_uid, @created_at, @updated_at)`,
      ),
      setRole: db.prepare<[Role, number, string, Role]>('UPDATE users SET role = ?, updated_at = ? WHERE email = ? AND role != ?'),
      bind: db.prepare<[string, number, string], UserRow>(
        'UPDATE users SET firebase_uid = ?, updated_at = ? WHERE email = ? AND firebase_uid IS NULL RETURNING *',
      ),
    }
  }

  get(email: string): Promise<UserRecord | undefined> {
    return guarded(() => {
      const row = this.sql.get.get(email)
      return row && fromRow(row)
    })
  }

  upsert(email: string, patch: UserPatch): Promise<UserRecord> {
    return guarded(() => {
      const now = new Date()
      const row = this.sql.get.get(email)
      const user: UserRecord = row
        ? { ...fromRow(row), ...userPatchFields(patch), updatedAt: now }
        : { email, ...USER_DEFAULTS, ...userPatchFields(patch), createdAt: now, updatedAt: now }
      this.sql.write.run(toUserRow(user))
      return toUserRecord(user)
    })
  }

  /** Stores a user as it is (an import of older data); a later one with the same email replaces it. */
  restore(user: UserRecord): void {
    this.sql.write.run(toUserRow(user))
  }

  list(): Promise<UserRecord[]> {
    return guarded(() => this.sql.all.all().map(fromRow))
  }

  setRole(email: string, role: Role): Promise<number> {
    return guarded(() => this.sql.setRole.run(role, Date.now(), email, role).changes)
  }

  bind(email: string, uid: string): Promise<UserRecord | undefined> {
    return guarded(() => {
      const bound = this.sql.bind.get(uid, Date.now(), email)
      if (bound) return fromRow(bound)
      const row = this.sql.get.get(email)
      return row?.firebase_uid === uid ? fromRow(row) : undefined
    })
  }
}

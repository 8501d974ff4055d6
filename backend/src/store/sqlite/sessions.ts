/** Signed-in sessions in SQLite. */
import type { NewSession, SessionRecord, SessionRepository } from '../port'
import { newSessionRecord, toSessionRecord } from '../records'
import { guarded, type Db } from './database'

interface SessionRow {
  id: string
  email: string
  uid: string
  created_at: number
  expires_at: number
  last_used_at: number
}

function fromRow(row: SessionRow): SessionRecord {
  return toSessionRecord({
    id: row.id,
    email: row.email,
    uid: row.uid,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    lastUsedAt: new Date(row.last_used_at),
  })
}

function toSessionRow(session: SessionRecord): SessionRow {
  return {
    id: session.id,
    email: session.email,
    uid: session.uid,
    created_at: session.createdAt.getTime(),
    expires_at: session.expiresAt.getTime(),
    last_used_at: session.lastUsedAt.getTime(),
  }
}

export class SqliteSessions implements SessionRepository {
  private readonly sql

  constructor(db: Db) {
    this.sql = {
      insert: db.prepare(
        'INSERT INTO sessions (id, email, uid, created_at, expires_at, last_used_at) VALUES (@id, @email, @uid, @created_at, @expires_at, @last_used_at)',
      ),
      get: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id = ?'),
      delete: db.prepare<[string]>('DELETE FROM sessions WHERE id = ?'),
      deleteForUser: db.prepare<[string, string]>('DELETE FROM sessions WHERE email = ? AND id != ?'),
      touch: db.prepare<[number, string]>('UPDATE sessions SET last_used_at = MAX(last_used_at, ?) WHERE id = ?'),
      deleteExpired: db.prepare<[number, number]>('DELETE FROM sessions WHERE expires_at <= ? OR last_used_at < ?'),
    }
  }

  create(session: NewSession): Promise<SessionRecord> {
    return guarded(() => {
      const record = newSessionRecord(session)
      this.sql.insert.run(toSessionRow(record))
      return record
    })
  }

  /** Stores a session as it is (an import of older data). */
  restore(session: SessionRecord): void {
    this.sql.insert.run(toSessionRow(session))
  }

  get(id: string): Promise<SessionRecord | undefined> {
    return guarded(() => {
      const row = this.sql.get.get(id)
      return row && fromRow(row)
    })
  }

  delete(id: string): Promise<boolean> {
    return guarded(() => this.sql.delete.run(id).changes > 0)
  }

  deleteForUser(email: string, options: { exceptId?: string } = {}): Promise<number> {
    // Session ids are 32 hex characters: '' is none of them.
    return guarded(() => this.sql.deleteForUser.run(email, options.exceptId ?? '').changes)
  }

  touch(id: string, at: Date): Promise<boolean> {
    return guarded(() => this.sql.touch.run(at.getTime(), id).changes > 0)
  }

  deleteExpired(now: Date, options: { lastUsedBefore?: Date } = {}): Promise<number> {
    return guarded(() => this.sql.deleteExpired.run(now.getTime(), options.lastUsedBefore?.getTime() ?? 0).changes)
  }
}

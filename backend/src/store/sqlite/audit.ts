/** The audit log in SQLite, newest first. */
import { newId } from '../ids'
import { decodeCursor, newestKey, pageOf } from '../list-order'
import type { AuditChange, AuditRecord, AuditRepository, NewAuditRecord } from '../port'
import { toAuditRecord } from '../records'
import { guarded, json, type Db } from './database'

interface AuditRow {
  id: string
  at: number
  actor: string
  action: AuditRecord['action']
  target_type: AuditRecord['target']['type']
  target_id: string
  target_name: string
  changes: string
}

function fromRow(row: AuditRow): AuditRecord {
  return toAuditRecord({
    id: row.id,
    at: new Date(row.at),
    actor: row.actor,
    action: row.action,
    target: { type: row.target_type, id: row.target_id, name: row.target_name },
    changes: json.read<AuditChange[]>(row.changes),
  })
}

function toAuditRow(record: AuditRecord): AuditRow {
  return {
    id: record.id,
    at: record.at.getTime(),
    actor: record.actor,
    action: record.action,
    target_type: record.target.type,
    target_id: record.target.id,
    target_name: record.target.name,
    changes: json.write(record.changes),
  }
}

export class SqliteAudit implements AuditRepository {
  private readonly sql
  private lastAt: number

  constructor(db: Db) {
    this.sql = {
      insert: db.prepare(
        `INSERT INTO audit (id, at, actor, action, target_type, target_id, target_name, changes)
         VALUES (@id, @at, @actor, @action, @target_type, @target_id, @target_name, @changes)`,
      ),
      page: db.prepare<[number], AuditRow>('SELECT * FROM audit ORDER BY at DESC, id DESC LIMIT ?'),
      pageAfter: db.prepare<[number, string, number], AuditRow>(
        'SELECT * FROM audit WHERE (at, id) < (?, ?) ORDER BY at DESC, id DESC LIMIT ?',
      ),
    }
    this.lastAt = db.prepare<[], { at: number | null }>('SELECT max(at) AS at FROM audit').get()!.at ?? 0
  }

  append(entry: NewAuditRecord): Promise<AuditRecord> {
    return guarded(() => {
      // Entries keep their order even within one millisecond.
      const at = new Date(Math.max(Date.now(), this.lastAt + 1))
      const record = toAuditRecord({ ...entry, id: newId(at.getTime()), at })
      this.sql.insert.run(toAuditRow(record))
      this.lastAt = at.getTime()
      return record
    })
  }

  /** Stores an entry as it is (an import of older data). */
  restore(record: AuditRecord): void {
    this.sql.insert.run(toAuditRow(record))
    this.lastAt = Math.max(this.lastAt, record.at.getTime())
  }

  list(options: { limit: number; cursor?: string }): Promise<{ items: AuditRecord[]; nextCursor?: string }> {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
      const rows = after ? this.sql.pageAfter.all(after.time, after.id, options.limit + 1) : this.sql.page.all(options.limit + 1)
      return pageOf(rows, options.limit, { items: (page) => page.map(fromRow), key: (entry) => newestKey(entry.at, entry.id) })
    })
  }
}

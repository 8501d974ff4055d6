/** Submissions in SQLite: the `submissions` table, each record as JSON beside the columns lists go by. */
import type { SubmissionState } from '../../../../contract/submission-states'
import type { NewSubmission, SubmissionPatch, SubmissionRecord, SubmissionRepository } from '../port'
import {
  decodeSubmissionCursor,
  inStates,
  newSubmissionRecord,
  patchedSubmission,
  stateCounts,
  submissionPage,
  toSubmissionRecord,
} from '../submission-records'
import { guarded, json, type Db } from './database'

interface SubmissionRow {
  id: string
  u_email: string
  state: SubmissionState
  created_at: number
  doc: string
}

type StoredSubmission = Omit<SubmissionRecord, 'createdAt' | 'updatedAt'> & { createdAt: number; updatedAt: number }

function fromRow(row: SubmissionRow): SubmissionRecord {
  const doc = json.read<StoredSubmission>(row.doc)
  return toSubmissionRecord({ ...doc, createdAt: new Date(doc.createdAt), updatedAt: new Date(doc.updatedAt) })
}

function toRow(record: SubmissionRecord): SubmissionRow {
  return {
    id: record.id,
    u_email: record.u_email,
    state: record.state,
    created_at: record.createdAt.getTime(),
    doc: json.write({ ...record, createdAt: record.createdAt.getTime(), updatedAt: record.updatedAt.getTime() }),
  }
}

export class SqliteSubmissions implements SubmissionRepository {
  private readonly sql

  constructor(private readonly db: Db) {
    this.sql = {
      get: db.prepare<[string], SubmissionRow>('SELECT * FROM submissions WHERE id = ?'),
      insert: db.prepare('INSERT INTO submissions (id, u_email, state, created_at, doc) VALUES (@id, @u_email, @state, @created_at, @doc)'),
      update: db.prepare('UPDATE submissions SET state = @state, doc = @doc WHERE id = @id'),
      delete: db.prepare<[string]>('DELETE FROM submissions WHERE id = ?'),
      bySubmitter: db.prepare<[string, number], SubmissionRow>(
        'SELECT * FROM submissions WHERE u_email = ? ORDER BY created_at DESC, id DESC LIMIT ?',
      ),
      bySubmitterAfter: db.prepare<[string, number, string, number], SubmissionRow>(
        'SELECT * FROM submissions WHERE u_email = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?',
      ),
      byState: db.prepare<[string, number], SubmissionRow>('SELECT * FROM submissions WHERE state = ? ORDER BY created_at, id LIMIT ?'),
      byStateAfter: db.prepare<[string, number, string, number], SubmissionRow>(
        'SELECT * FROM submissions WHERE state = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?',
      ),
      count: db.prepare<[string, string], number>('SELECT count(*) FROM submissions WHERE u_email = ? AND state = ?').pluck(),
      counts: db.prepare<[string], { state: string; count: number }>(
        'SELECT state, count(*) AS count FROM submissions WHERE u_email = ? GROUP BY state',
      ),
    }
  }

  insert(submission: NewSubmission): Promise<SubmissionRecord> {
    return guarded(() => {
      const record = newSubmissionRecord(submission)
      this.sql.insert.run(toRow(record))
      return record
    })
  }

  get(id: string): Promise<SubmissionRecord | undefined> {
    return guarded(() => {
      const row = this.sql.get.get(id)
      return row ? fromRow(row) : undefined
    })
  }

  update(id: string, patch: SubmissionPatch, options: { whileStates: readonly SubmissionState[] }): Promise<SubmissionRecord | undefined> {
    return guarded(() =>
      this.db.transaction(() => {
        const row = this.sql.get.get(id)
        if (!row) return undefined
        const current = fromRow(row)
        if (!inStates(current, options.whileStates)) return undefined
        const next = patchedSubmission(current, patch, new Date())
        this.sql.update.run(toRow(next))
        return next
      })(),
    )
  }

  delete(id: string, options: { whileStates: readonly SubmissionState[] }): Promise<SubmissionRecord | undefined> {
    return guarded(() =>
      this.db.transaction(() => {
        const row = this.sql.get.get(id)
        if (!row) return undefined
        const current = fromRow(row)
        if (!inStates(current, options.whileStates)) return undefined
        this.sql.delete.run(id)
        return current
      })(),
    )
  }

  listBySubmitter(email: string, options: { limit: number; cursor?: string }) {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeSubmissionCursor(options.cursor, 'newest')
      const rows = after
        ? this.sql.bySubmitterAfter.all(email, after.time, after.id, options.limit + 1)
        : this.sql.bySubmitter.all(email, options.limit + 1)
      return submissionPage(rows.map(fromRow), options.limit, 'newest')
    })
  }

  listByState(state: SubmissionState, options: { limit: number; cursor?: string }) {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeSubmissionCursor(options.cursor, 'oldest')
      const rows = after
        ? this.sql.byStateAfter.all(state, after.time, after.id, options.limit + 1)
        : this.sql.byState.all(state, options.limit + 1)
      return submissionPage(rows.map(fromRow), options.limit, 'oldest')
    })
  }

  countBySubmitter(email: string, state: SubmissionState): Promise<number> {
    return guarded(() => this.sql.count.get(email, state)!)
  }

  countsBySubmitter(email: string): Promise<Record<SubmissionState, number>> {
    return guarded(() => stateCounts(this.sql.counts.all(email)))
  }
}

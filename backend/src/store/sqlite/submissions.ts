/** Submissions in SQLite: the `submissions` table, each record as JSON beside the columns lists go by. */
import type { SubmissionState } from '../../../../contract/submission-states'
import type { Statement } from 'better-sqlite3'
import type {
  NewSubmission,
  SubmissionPatch,
  SubmissionRecord,
  SubmissionRepository,
  SubmissionWaitingCap,
  SubmissionWriteGuard,
} from '../port'
import {
  decodeSubmissionCursor,
  inStates,
  newSubmissionRecord,
  patchedSubmission,
  stateCounts,
  submissionPage,
  toSubmissionRecord,
  waitsAgain,
  type SubmissionOrder,
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
      // One submitter's few rows (their index), never every submission in the state: `+state` keeps the
      // state index out (it would read every waiting submission of everyone for each submit).
      count: db.prepare<[string, string], number>('SELECT count(*) FROM submissions WHERE u_email = ? AND +state = ?').pluck(),
      counts: db.prepare<[string], { state: string; count: number }>(
        'SELECT state, count(*) AS count FROM submissions WHERE u_email = ? GROUP BY state',
      ),
    }
  }

  insert(submission: NewSubmission, options: SubmissionWaitingCap): Promise<SubmissionRecord | 'full'>
  insert(submission: NewSubmission): Promise<SubmissionRecord>
  /** Counted and inserted in one transaction: SQLite has one writer, so concurrent inserts never pass waitingMax. */
  insert(submission: NewSubmission, options?: SubmissionWaitingCap): Promise<SubmissionRecord | 'full'> {
    return guarded(() =>
      this.db.transaction(() => {
        const record = newSubmissionRecord(submission)
        if (options && this.sql.count.get(record.u_email, 'waiting')! >= options.waitingMax) return 'full'
        this.sql.insert.run(toRow(record))
        return record
      })(),
    )
  }

  get(id: string): Promise<SubmissionRecord | undefined> {
    return guarded(() => {
      const row = this.sql.get.get(id)
      return row ? fromRow(row) : undefined
    })
  }

  update(
    id: string,
    patch: SubmissionPatch,
    options: SubmissionWriteGuard & SubmissionWaitingCap,
  ): Promise<SubmissionRecord | undefined | 'full'>
  update(id: string, patch: SubmissionPatch, options: SubmissionWriteGuard): Promise<SubmissionRecord | undefined>
  update(
    id: string,
    patch: SubmissionPatch,
    options: SubmissionWriteGuard & Partial<SubmissionWaitingCap>,
  ): Promise<SubmissionRecord | undefined | 'full'> {
    return guarded(() =>
      this.db.transaction(() => {
        const current = this.currentIn(id, options.whileStates)
        if (!current) return undefined
        const next = patchedSubmission(current, patch, new Date())
        if (options.waitingMax !== undefined && waitsAgain(current, next)) {
          if (this.sql.count.get(current.u_email, 'waiting')! >= options.waitingMax) return 'full'
        }
        this.sql.update.run(toRow(next))
        return next
      })(),
    )
  }

  delete(id: string, options: { whileStates: readonly SubmissionState[] }): Promise<SubmissionRecord | undefined> {
    return guarded(() =>
      this.db.transaction(() => {
        const current = this.currentIn(id, options.whileStates)
        if (current) this.sql.delete.run(id)
        return current
      })(),
    )
  }

  listBySubmitter(email: string, options: { limit: number; cursor?: string }) {
    return this.page(email, 'newest', options, this.sql.bySubmitter, this.sql.bySubmitterAfter)
  }

  listByState(state: SubmissionState, options: { limit: number; cursor?: string }) {
    return this.page(state, 'oldest', options, this.sql.byState, this.sql.byStateAfter)
  }

  /** One page of a list keyed by `key` (a submitter or a state) in `order`: from the start, or after the cursor's key. */
  private page(
    key: string,
    order: SubmissionOrder,
    options: { limit: number; cursor?: string },
    first: Statement<[string, number], SubmissionRow>,
    next: Statement<[string, number, string, number], SubmissionRow>,
  ) {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeSubmissionCursor(options.cursor, order)
      const rows = after ? next.all(key, after.time, after.id, options.limit + 1) : first.all(key, options.limit + 1)
      return submissionPage(rows.map(fromRow), options.limit, order)
    })
  }

  /** The submission when it is in one of `states` (read within the caller's transaction), else undefined. */
  private currentIn(id: string, states: readonly SubmissionState[]): SubmissionRecord | undefined {
    const row = this.sql.get.get(id)
    const current = row && fromRow(row)
    return current && inStates(current, states) ? current : undefined
  }

  countBySubmitter(email: string, state: SubmissionState): Promise<number> {
    return guarded(() => this.sql.count.get(email, state)!)
  }

  countsBySubmitter(email: string): Promise<Record<SubmissionState, number>> {
    return guarded(() => stateCounts(this.sql.counts.all(email)))
  }
}

/** Submission records as both adapters shape and page them, so they answer exactly alike. */
import { SUBMISSION_STATES, type SubmissionState } from '../../../contract/submission-states'
import { newId } from './ids'
import { InvalidCursorError, type NewSubmission, type SubmissionPatch, type SubmissionRecord } from './port'
import { knownLicence } from './records'

/** The two orders submissions are listed in: a submitter's newest first, the review queue oldest first. */
export type SubmissionOrder = 'newest' | 'oldest'

export interface SubmissionKey {
  time: number
  id: string
}

const CURSOR_KIND: Record<SubmissionOrder, string> = { newest: 'sn', oldest: 'so' }
const CURSOR_PATTERN = /^(s[no])(\d{1,15})\.([0-9a-f]{24})$/

export function encodeSubmissionCursor(record: Pick<SubmissionRecord, 'createdAt' | 'id'>, order: SubmissionOrder): string {
  return Buffer.from(`${CURSOR_KIND[order]}${record.createdAt.getTime()}.${record.id}`).toString('base64url')
}

/** The key a cursor carries; InvalidCursorError when malformed or made for the other order (or another list). */
export function decodeSubmissionCursor(cursor: string, order: SubmissionOrder): SubmissionKey {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match || match[1] !== CURSOR_KIND[order]) throw new InvalidCursorError()
  return { time: Number(match[2]), id: match[3]! }
}

/** One page from `limit + 1` records read in the list's order. */
export function submissionPage(
  records: SubmissionRecord[],
  limit: number,
  order: SubmissionOrder,
): { items: SubmissionRecord[]; nextCursor?: string } {
  const items = records.slice(0, limit)
  const last = items.at(-1)
  return records.length > limit && last ? { items, nextCursor: encodeSubmissionCursor(last, order) } : { items }
}

export function newSubmissionRecord(submission: NewSubmission): SubmissionRecord {
  const now = new Date()
  const createdAt = submission.createdAt ?? now
  return toSubmissionRecord({ ...submission, id: newId(createdAt.getTime()), state: 'waiting', createdAt, updatedAt: now })
}

/** A clean copy holding only the known fields. */
export function toSubmissionRecord(doc: SubmissionRecord): SubmissionRecord {
  return {
    id: doc.id,
    u_email: doc.u_email,
    u_name: doc.u_name,
    name: doc.name,
    description: doc.description,
    tags: [...doc.tags],
    emoji: doc.emoji.map(({ char, name, shortcode }) => ({ char, name, ...(shortcode === undefined ? {} : { shortcode }) })),
    keywords: [...doc.keywords],
    licence: knownLicence(doc.licence),
    credit: doc.credit,
    source: doc.source,
    original: doc.original,
    sensitive: doc.sensitive,
    ...(doc.file ? { file: { id: doc.file.id, filename: doc.file.filename } } : {}),
    state: doc.state,
    ...(typeof doc.note === 'string' ? { note: doc.note } : {}),
    ...(typeof doc.wumpusId === 'string' ? { wumpusId: doc.wumpusId } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  }
}

/** The record after a patch, written at `now`. */
export function patchedSubmission(current: SubmissionRecord, patch: SubmissionPatch, now: Date): SubmissionRecord {
  const { file, note, ...fields } = patch
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<SubmissionRecord>
  const next: SubmissionRecord = { ...current, ...defined, updatedAt: now }
  if (file === null) delete next.file
  else if (file) next.file = file
  if (note === null) delete next.note
  else if (note !== undefined) next.note = note
  return toSubmissionRecord(next)
}

/** Whether a write makes a submission wait that did not (so it takes one of its submitter's waiting places). */
export function waitsAgain(current: SubmissionRecord, next: SubmissionRecord): boolean {
  return current.state !== 'waiting' && next.state === 'waiting'
}

export function inStates(record: SubmissionRecord, states: readonly SubmissionState[]): boolean {
  return states.includes(record.state)
}

/** Counts by state from grouped rows, every state present (0 when none). */
export function stateCounts(rows: readonly { state: string; count: number }[]): Record<SubmissionState, number> {
  const counts = Object.fromEntries(SUBMISSION_STATES.map((state) => [state, 0])) as Record<SubmissionState, number>
  for (const row of rows) if ((SUBMISSION_STATES as readonly string[]).includes(row.state)) counts[row.state as SubmissionState] = row.count
  return counts
}

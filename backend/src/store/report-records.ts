/** Report records as both adapters shape and page them, so they answer exactly alike. */
import type { ReportTargetKind } from '../../../contract/reports'
import { newId } from './ids'
import { InvalidCursorError, type NewReport, type ReportGroupRecord, type ReportRecord } from './port'

/** One target's count and oldest report, as the adapters read them before paging. */
export interface ReportGroupKey {
  kind: ReportTargetKind
  id: string
  count: number
  oldest: number
}

const CURSOR_PATTERN = /^rg(\d{1,9})\.(\d{1,15})\.(wumpus|pack)\.([A-Za-z0-9_-]{1,64})$/

export function encodeReportGroupCursor(key: ReportGroupKey): string {
  return Buffer.from(`rg${key.count}.${key.oldest}.${key.kind}.${key.id}`).toString('base64url')
}

export function decodeReportGroupCursor(cursor: string): ReportGroupKey {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match) throw new InvalidCursorError()
  return { count: Number(match[1]), oldest: Number(match[2]), kind: match[3] as ReportTargetKind, id: match[4]! }
}

/** The groups' order: the most reports first, then the oldest first, then by kind and id. */
export function compareGroupKeys(a: ReportGroupKey, b: ReportGroupKey): number {
  return b.count - a.count || a.oldest - b.oldest || a.kind.localeCompare(b.kind) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** One page of group keys (sorted here) after the cursor's, and the cursor of the next page. */
export function groupKeyPage(keys: ReportGroupKey[], limit: number, cursor?: string): { keys: ReportGroupKey[]; nextCursor?: string } {
  const after = cursor === undefined ? undefined : decodeReportGroupCursor(cursor)
  const sorted = [...keys].sort(compareGroupKeys).filter((key) => !after || compareGroupKeys(key, after) > 0)
  const page = sorted.slice(0, limit)
  const last = page.at(-1)
  return sorted.length > limit && last ? { keys: page, nextCursor: encodeReportGroupCursor(last) } : { keys: page }
}

/** The page's groups, each with its reports (oldest first). */
export function reportGroups(keys: ReportGroupKey[], reports: ReportRecord[]): ReportGroupRecord[] {
  return keys.map((key) => ({
    target: { kind: key.kind, id: key.id },
    count: key.count,
    oldest: new Date(key.oldest),
    reports: reports
      .filter((r) => r.target.kind === key.kind && r.target.id === key.id)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)),
  }))
}

export function newReportRecord(report: NewReport): ReportRecord {
  const createdAt = report.createdAt ?? new Date()
  return toReportRecord({ ...report, id: newId(createdAt.getTime()), state: 'open', createdAt })
}

/** A clean copy holding only the known fields. */
export function toReportRecord(doc: ReportRecord): ReportRecord {
  return {
    id: doc.id,
    target: { kind: doc.target.kind, id: doc.target.id },
    reason: doc.reason,
    note: doc.note,
    ...(typeof doc.reporter === 'string' ? { reporter: doc.reporter } : {}),
    reporterKey: doc.reporterKey,
    state: doc.state,
    ...(doc.decision
      ? { decision: { kind: doc.decision.kind, by: doc.decision.by, at: new Date(doc.decision.at), note: doc.decision.note } }
      : {}),
    createdAt: new Date(doc.createdAt),
  }
}

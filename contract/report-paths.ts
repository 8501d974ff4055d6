// The reports API's paths (contract/reports.ts), apart from contract/api-paths.ts as the remix and submission ones are.
import { pagedPath } from './api-paths'
import type { ReportState } from './reports'

/** `POST { wumpusId | packId, reason, note }`: anyone reports a sticker or a shared pack. */
export const REPORTS_PATH = '/api/reports'

/** `POST { wumpusId | packId, decision, note }` (admins): decides a target's open reports. */
export const REPORT_DECISION_PATH = `${REPORTS_PATH}/decision`

/** The reports in one state (admins), grouped by what they are against, a page at a time. */
export function reportGroupsPath(state: ReportState, page: { limit?: number; cursor?: string | null } = {}): string {
  return `${pagedPath(REPORTS_PATH, page)}&state=${state}`
}

import type { Report, ReportGroup } from '../../../../contract/reports'
import type { ReportRecord } from '../../store/port'
import type { ReportGroup as ServiceReportGroup } from '../../services/reports'

/** A stored report as admins see it (contract/reports.ts): never who reported by address. */
export function toApiReport(record: ReportRecord): Report {
  return {
    id: record.id,
    reason: record.reason,
    note: record.note,
    createdAt: record.createdAt.toISOString(),
    ...(record.reporter === undefined ? {} : { reporter: record.reporter }),
    ...(record.decision
      ? {
          decision: record.decision.kind,
          decisionNote: record.decision.note,
          decidedBy: record.decision.by,
          decidedAt: record.decision.at.toISOString(),
        }
      : {}),
  }
}

export function toApiReportGroup(group: ServiceReportGroup): ReportGroup {
  return {
    kind: group.target.kind,
    id: group.target.id,
    name: group.name,
    count: group.count,
    ...(group.hidden ? { hidden: true } : {}),
    reports: group.reports.map(toApiReport),
  }
}

import type { ActivityEntry } from '../../../../contract/audit'
import type { AuditRecord } from '../../store/port'

/** An audit record as the dashboard's Activity page reads it. */
export function toActivityEntry(record: AuditRecord): ActivityEntry {
  return { ...record, at: record.at.toISOString() }
}

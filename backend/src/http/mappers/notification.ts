import type { ApiNotification } from '../../../../contract/notifications'
import type { NotificationRecord } from '../../store/port'

export function toApiNotification(record: NotificationRecord): ApiNotification {
  return {
    id: record.id,
    kind: record.kind,
    subject: { kind: record.subject.kind, id: record.subject.id, name: record.subject.name },
    note: record.note,
    ...(record.decision === undefined ? {} : { decision: record.decision }),
    read: record.read,
    createdAt: record.createdAt.toISOString(),
  }
}

/** Notification records as both adapters shape and page them, so they answer exactly alike. */
import { newId } from './ids'
import { InvalidCursorError, type NewNotification, type NotificationRecord } from './port'

export interface NotificationKey {
  time: number
  id: string
}

const CURSOR_PATTERN = /^nt(\d{1,15})\.([0-9a-f]{24})$/

export function encodeNotificationCursor(record: Pick<NotificationRecord, 'createdAt' | 'id'>): string {
  return Buffer.from(`nt${record.createdAt.getTime()}.${record.id}`).toString('base64url')
}

/** The key a cursor carries; InvalidCursorError when malformed (or made for another list). */
export function decodeNotificationCursor(cursor: string): NotificationKey {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match) throw new InvalidCursorError()
  return { time: Number(match[1]), id: match[2]! }
}

/** One page from `limit + 1` records read newest first. */
export function notificationPage(records: NotificationRecord[], limit: number): { items: NotificationRecord[]; nextCursor?: string } {
  const items = records.slice(0, limit)
  const last = items.at(-1)
  return records.length > limit && last ? { items, nextCursor: encodeNotificationCursor(last) } : { items }
}

export function newNotificationRecord(notification: NewNotification): NotificationRecord {
  const createdAt = notification.createdAt ?? new Date()
  return toNotificationRecord({ ...notification, id: newId(createdAt.getTime()), read: false, createdAt })
}

/** A clean copy holding only the known fields. */
export function toNotificationRecord(doc: NotificationRecord): NotificationRecord {
  return {
    id: doc.id,
    recipient: doc.recipient,
    kind: doc.kind,
    subject: { kind: doc.subject.kind, id: doc.subject.id, name: doc.subject.name },
    note: doc.note,
    ...(typeof doc.decision === 'string' ? { decision: doc.decision } : {}),
    read: doc.read,
    createdAt: new Date(doc.createdAt),
  }
}

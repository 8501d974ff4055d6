/** Notifications in SQLite: the `notifications` table, each record as JSON beside the columns lists go by. */
import type { NewNotification, NotificationRecord, NotificationRepository } from '../port'
import { decodeNotificationCursor, newNotificationRecord, notificationPage, toNotificationRecord } from '../notification-records'
import { guarded, json, type Db } from './database'

interface NotificationRow {
  id: string
  recipient: string
  created_at: number
  read: number
  doc: string
}

type StoredNotification = Omit<NotificationRecord, 'read' | 'createdAt'>

function fromRow(row: NotificationRow): NotificationRecord {
  const doc = json.read<StoredNotification>(row.doc)
  return toNotificationRecord({ ...doc, read: row.read === 1, createdAt: new Date(row.created_at) })
}

function toRow(record: NotificationRecord): NotificationRow {
  const { read, createdAt, ...doc } = record
  return { id: record.id, recipient: record.recipient, created_at: createdAt.getTime(), read: read ? 1 : 0, doc: json.write(doc) }
}

export class SqliteNotifications implements NotificationRepository {
  private readonly sql

  constructor(private readonly db: Db) {
    this.sql = {
      insert: db.prepare(
        'INSERT INTO notifications (id, recipient, created_at, read, doc) VALUES (@id, @recipient, @created_at, @read, @doc)',
      ),
      /** The newest one past those kept. */
      firstDropped: db.prepare<[string, number], Pick<NotificationRow, 'created_at' | 'id'>>(
        'SELECT created_at, id FROM notifications WHERE recipient = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?',
      ),
      dropFrom: db.prepare<[string, number, string]>('DELETE FROM notifications WHERE recipient = ? AND (created_at, id) <= (?, ?)'),
      list: db.prepare<[string, number], NotificationRow>(
        'SELECT * FROM notifications WHERE recipient = ? ORDER BY created_at DESC, id DESC LIMIT ?',
      ),
      listAfter: db.prepare<[string, number, string, number], NotificationRow>(
        'SELECT * FROM notifications WHERE recipient = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?',
      ),
      unread: db.prepare<[string], number>('SELECT count(*) FROM notifications WHERE recipient = ? AND read = 0').pluck(),
      get: db.prepare<[string, string], NotificationRow>('SELECT * FROM notifications WHERE id = ? AND recipient = ?'),
      markAll: db.prepare<[string]>('UPDATE notifications SET read = 1 WHERE recipient = ? AND read = 0'),
      markUpTo: db.prepare<[string, number, string]>(
        'UPDATE notifications SET read = 1 WHERE recipient = ? AND read = 0 AND (created_at, id) <= (?, ?)',
      ),
    }
  }

  insert(notification: NewNotification, options: { keep: number }): Promise<NotificationRecord> {
    return guarded(() =>
      this.db.transaction(() => {
        const record = newNotificationRecord(notification)
        this.sql.insert.run(toRow(record))
        const dropped = this.sql.firstDropped.get(record.recipient, options.keep)
        if (dropped) this.sql.dropFrom.run(record.recipient, dropped.created_at, dropped.id)
        return record
      })(),
    )
  }

  listByRecipient(recipient: string, options: { limit: number; cursor?: string }) {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeNotificationCursor(options.cursor)
      const rows = after
        ? this.sql.listAfter.all(recipient, after.time, after.id, options.limit + 1)
        : this.sql.list.all(recipient, options.limit + 1)
      return notificationPage(rows.map(fromRow), options.limit)
    })
  }

  countUnread(recipient: string): Promise<number> {
    return guarded(() => this.sql.unread.get(recipient)!)
  }

  markRead(recipient: string, options: { upTo?: string }): Promise<number | undefined> {
    return guarded(() =>
      this.db.transaction(() => {
        if (options.upTo === undefined) return this.sql.markAll.run(recipient).changes
        const upTo = this.sql.get.get(options.upTo, recipient)
        if (!upTo) return undefined
        return this.sql.markUpTo.run(recipient, upTo.created_at, upTo.id).changes
      })(),
    )
  }
}

/** Notifications in MongoDB: the `notifications` collection, one document per notification (_id: its id). */
import type { Collection, Db, Filter } from 'mongodb'
import { isId } from '../ids'
import { decodeNotificationCursor, newNotificationRecord, notificationPage, toNotificationRecord } from '../notification-records'
import type { NewNotification, NotificationRecord, NotificationRepository } from '../port'
import { guard } from './errors'

export const NOTIFICATIONS_COLLECTION = 'notifications'
/** One recipient's newest first; the unread count and marking read go by its prefix (at most NOTIFICATIONS_KEPT each). */
export const RECIPIENT_NEWEST_FIRST = { recipient: 1, createdAt: -1, _id: -1 } as const

type NotificationDocument = Omit<NotificationRecord, 'id'> & { _id: string }

const fromDocument = ({ _id, ...rest }: NotificationDocument): NotificationRecord => toNotificationRecord({ ...rest, id: _id })
const toDocument = ({ id, ...rest }: NotificationRecord): NotificationDocument => ({ _id: id, ...rest })

/** The recipient's notifications at or older than the key. */
const atOrOlder = (recipient: string, key: { createdAt: Date; id: string }): Filter<NotificationDocument> => ({
  recipient,
  $or: [{ createdAt: { $lt: key.createdAt } }, { createdAt: key.createdAt, _id: { $lte: key.id } }],
})

export class MongoNotifications implements NotificationRepository {
  private readonly notifications: Collection<NotificationDocument>

  constructor(db: Db) {
    this.notifications = db.collection<NotificationDocument>(NOTIFICATIONS_COLLECTION)
  }

  async insert(notification: NewNotification, options: { keep: number }): Promise<NotificationRecord> {
    const record = newNotificationRecord(notification)
    await guard(() => this.notifications.insertOne(toDocument(record)))
    // Then the older ones past those kept: a failure here leaves a few extra until the next insert.
    const [dropped] = await guard(() =>
      this.notifications
        .find({ recipient: record.recipient }, { projection: { _id: 1, createdAt: 1 } })
        .sort(RECIPIENT_NEWEST_FIRST)
        .skip(options.keep)
        .limit(1)
        .toArray(),
    )
    if (dropped)
      await guard(() => this.notifications.deleteMany(atOrOlder(record.recipient, { createdAt: dropped.createdAt, id: dropped._id })))
    return record
  }

  async listByRecipient(recipient: string, options: { limit: number; cursor?: string }) {
    const after = options.cursor === undefined ? undefined : decodeNotificationCursor(options.cursor)
    const at = after && new Date(after.time)
    const filter: Filter<NotificationDocument> = at
      ? { recipient, $or: [{ createdAt: { $lt: at } }, { createdAt: at, _id: { $lt: after.id } }] }
      : { recipient }
    const docs = await guard(() =>
      this.notifications
        .find(filter)
        .sort(RECIPIENT_NEWEST_FIRST)
        .limit(options.limit + 1)
        .toArray(),
    )
    return notificationPage(docs.map(fromDocument), options.limit)
  }

  countUnread(recipient: string): Promise<number> {
    return guard(() => this.notifications.countDocuments({ recipient, read: false }))
  }

  async markRead(recipient: string, options: { upTo?: string }): Promise<number | undefined> {
    if (options.upTo === undefined) {
      const result = await guard(() => this.notifications.updateMany({ recipient, read: false }, { $set: { read: true } }))
      return result.modifiedCount
    }
    const upTo = options.upTo
    if (!isId(upTo)) return undefined
    const found = await guard(() => this.notifications.findOne({ _id: upTo, recipient }))
    if (!found) return undefined
    const result = await guard(() =>
      this.notifications.updateMany(
        { ...atOrOlder(recipient, { createdAt: found.createdAt, id: found._id }), read: false },
        { $set: { read: true } },
      ),
    )
    return result.modifiedCount
  }
}

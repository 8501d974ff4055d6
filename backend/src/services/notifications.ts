// Notifications (issue 37): what happened to a person's submissions (published, changes asked, refused, with
// the reviewer's note) and to the reports they sent while signed in (decided, with the decision's note). Made
// by the submissions' and reports' services right after the decision is stored; a failure to store one is
// logged and never undoes or fails the decision (the two are in different repositories, which neither store
// writes in one transaction). Each person keeps their newest NOTIFICATIONS_KEPT: an insert removes the older.
import { NOTIFICATIONS_KEPT } from '../../../contract/notifications'
import { notFound } from '../domain/errors'
import type { Logger } from '../logger'
import type { NewNotification, NotificationRecord, Store } from '../store/port'

export interface NotificationService {
  /** Stores each notification; a failure is logged, not thrown: what caused it has happened. */
  notify(notifications: NewNotification[]): Promise<void>
  /** One's own, newest first, and how many of all of them are unread. */
  page(
    recipient: string,
    page: { limit: number; cursor?: string },
  ): Promise<{ items: NotificationRecord[]; nextCursor?: string; unread: number }>
  /** Marks one's own read: all, or `upTo` and older (NOT_FOUND when it is not theirs); how many, and how many are still unread. */
  markRead(recipient: string, upTo?: string): Promise<{ marked: number; unread: number }>
}

export function createNotificationService(deps: { store: Store; logger: Logger }): NotificationService {
  const { store, logger } = deps
  return {
    async notify(notifications) {
      for (const notification of notifications) {
        try {
          await store.notifications.insert(notification, { keep: NOTIFICATIONS_KEPT })
        } catch (error) {
          logger.error('could not store a notification', { kind: notification.kind, subject: notification.subject, error: String(error) })
        }
      }
    },

    async page(recipient, page) {
      const [listed, unread] = await Promise.all([
        store.notifications.listByRecipient(recipient, page),
        store.notifications.countUnread(recipient),
      ])
      return { ...listed, unread }
    },

    async markRead(recipient, upTo) {
      const marked = await store.notifications.markRead(recipient, upTo === undefined ? {} : { upTo })
      if (marked === undefined) throw notFound('No such notification')
      return { marked, unread: await store.notifications.countUnread(recipient) }
    },
  }
}

import { z } from 'zod'
import { cursorSchema, pageQuerySchema } from './paging'

/**
 * Notifications (issue 37): what happened to one's own submissions and reports. Made by the server when an
 * admin decides on a submission (published, changes asked, refused) or on the reports against something (each
 * signed-in reporter; anonymous reporters get none).
 */
export const NOTIFICATION_KINDS = ['submission.published', 'submission.changes', 'submission.refused', 'report.decided'] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

/** What a notification is about: a submission, or the animation or pack a report was against. */
export const NOTIFICATION_SUBJECT_KINDS = ['submission', 'wumpus', 'pack'] as const
export type NotificationSubjectKind = (typeof NOTIFICATION_SUBJECT_KINDS)[number]

/** The newest notifications kept per person; older ones are removed as new ones come. */
export const NOTIFICATIONS_KEPT = 100

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  subject: z.object({ kind: z.enum(NOTIFICATION_SUBJECT_KINDS), id: z.string(), name: z.string() }),
  /** The reviewer's note or reason, or the decision's note on a report; '' when none. */
  note: z.string(),
  /** A report's decision (`dismiss`, ...); only on `report.decided`. */
  decision: z.string().optional(),
  read: z.boolean(),
  createdAt: z.string(),
})
export type ApiNotification = z.infer<typeof notificationSchema>

/** GET /api/me/notifications answers a page, newest first (next page in `Link`), and how many are unread in all. */
export const notificationPageSchema = z.object({ unread: z.number().int().min(0), items: z.array(notificationSchema) })
export type NotificationPage = z.infer<typeof notificationPageSchema>

export const notificationQuerySchema = pageQuerySchema

/** POST /api/me/notifications/read: every one, or those up to (and including) `upTo` and older. */
export const markNotificationsReadSchema = z.object({ upTo: cursorSchema.optional() }).strict()
export type MarkNotificationsReadBody = z.input<typeof markNotificationsReadSchema>

/** POST /api/me/notifications/read answers how many it marked and how many are still unread. */
export const notificationsMarkedSchema = z.object({ marked: z.number().int(), unread: z.number().int() })

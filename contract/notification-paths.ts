// The notifications API's paths (contract/notifications.ts), apart from it so the bell on every signed-in page
// loads no schema code.
import { pagedPath } from './api-paths'

/** `GET`: one's own notifications, newest first, with the unread count. */
export const MY_NOTIFICATIONS_PATH = '/api/me/notifications'

/** `POST { upTo? }`: marks one's own notifications read. */
export const MARK_NOTIFICATIONS_READ_PATH = `${MY_NOTIFICATIONS_PATH}/read`

export function myNotificationsPath(page: { limit?: number; cursor?: string | null } = {}): string {
  return pagedPath(MY_NOTIFICATIONS_PATH, page)
}

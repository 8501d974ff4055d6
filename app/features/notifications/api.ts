// One's notifications (issue 37): the bell's unread count and the Notifications page read the same query. Every
// answer is kept on this device (lib/local-data/notifications-store.ts) and answers when the network fails;
// sign-out forgets it (the query with the other personal ones, the copy in personal-data.ts).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { MARK_NOTIFICATIONS_READ_PATH as MARK_READ_PATH, myNotificationsPath } from '../../../contract/notification-paths'
import type { NotificationPage } from '../../../contract/notifications'
import { apiRequest, isApiError, trusted } from '../../lib/api-client'
import { queueWrite } from '../../lib/local-data/outbox'
import { refreshAfterWrites } from '../../lib/synced-queries'
import { keepNotifications, readKeptNotifications } from '../../lib/local-data/notifications-store'

/** The newest this many are read (the server keeps 100 a person: NOTIFICATIONS_KEPT), so one page holds them all. */
export const NOTIFICATIONS_READ = 100

/** How often the bell asks again while the page is in front. */
export const NOTIFICATIONS_POLL_MS = 60_000

export const notificationKeys = {
  all: (email: string) => ['notifications', email.trim().toLowerCase()] as const,
}

/** What the bell and the page show; `fromOfflineCopy` when the network failed and this device's copy answered. */
export interface KnownNotifications extends NotificationPage {
  fromOfflineCopy: boolean
}

async function readNotifications(email: string, signal?: AbortSignal): Promise<KnownNotifications> {
  try {
    const page = await apiRequest(myNotificationsPath({ limit: NOTIFICATIONS_READ }), trusted<NotificationPage>(), { signal })
    await keepNotifications(email, page)
    return { ...page, fromOfflineCopy: false }
  } catch (error) {
    const kept = isApiError(error) && error.code === 'NETWORK_ERROR' ? await readKeptNotifications(email) : undefined
    if (!kept) throw error
    return { ...kept, fromOfflineCopy: true }
  }
}

/** GET /api/me/notifications: the newest notifications and the unread count. */
export const notificationsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: notificationKeys.all(email),
    queryFn: ({ signal }) => readNotifications(email, signal),
  })

/** Queued writes that mark this user's notifications read (one at a time: a newer one replaces an older). */
const MARK_READ_KEY = 'notifications:read'
refreshAfterWrites(MARK_READ_KEY, (email) => [notificationKeys.all(email)])

/**
 * POST /api/me/notifications/read: marks the one with the id `upTo` and every older one read. Here at once, in
 * the kept copy too; the write goes through the outbox, so one made offline is sent when the server can be reached.
 */
export function useMarkNotificationsRead(email: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (upTo: string) => {
      const known = queryClient.getQueryData<KnownNotifications>(notificationKeys.all(email))
      if (known) {
        const at = known.items.findIndex((item) => item.id === upTo)
        const items = known.items.map((item, index) => (at !== -1 && index >= at ? { ...item, read: true } : item))
        const next = { ...known, items, unread: items.filter((item) => !item.read).length }
        queryClient.setQueryData(notificationKeys.all(email), next)
        await keepNotifications(email, { unread: next.unread, items: next.items })
      }
      await queueWrite(email, {
        method: 'POST',
        path: MARK_READ_PATH,
        body: { upTo },
        key: MARK_READ_KEY,
        label: 'Mark notifications read',
      })
    },
  })
}

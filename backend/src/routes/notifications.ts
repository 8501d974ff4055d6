import Router from '@koa/router'
import { markNotificationsReadSchema, notificationQuerySchema, type NotificationPage } from '../../../contract/notifications'
import { toApiNotification } from '../http/mappers/notification'
import { setPageHeaders } from '../http/page-headers'
import { requireSession, sessionOf } from '../http/require-session'
import type { RouteDeps } from './route-deps'

/** One's own notifications (docs/rest-api.md): a page with the unread count, and marking them read. */
export function notificationRoutes(deps: RouteDeps): Router {
  const { notifications } = deps
  const router = new Router()
  const session = requireSession(deps.sessions)

  router.get('/me/notifications', session, async (ctx) => {
    const query = notificationQuerySchema.parse(ctx.query)
    const page = await notifications.page(sessionOf(ctx).email, query)
    setPageHeaders(ctx, page, (cursor) => `/api/me/notifications?${new URLSearchParams({ limit: String(query.limit), cursor })}`)
    ctx.set('Cache-Control', 'no-store')
    const body: NotificationPage = { unread: page.unread, items: page.items.map(toApiNotification) }
    ctx.body = body
  })

  router.post('/me/notifications/read', session, async (ctx) => {
    const body = markNotificationsReadSchema.parse(ctx.request.body ?? {})
    ctx.body = await notifications.markRead(sessionOf(ctx).email, body.upTo)
  })

  return router
}

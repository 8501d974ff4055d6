import Router from '@koa/router'
import { activityQuerySchema } from '../../../contract/audit'
import type { RouteDeps } from './route-deps'
import { requireAdmin, requireSession } from '../http/require-session'
import { toActivityEntry } from '../http/mappers/activity'
import { setPageHeaders } from '../http/page-headers'

/** The admin audit log for the dashboard's Activity page, newest first and paged. */
export function activityRoutes(deps: RouteDeps): Router {
  const router = new Router()
  router.get('/activity', requireSession(deps.sessions), requireAdmin(deps.accounts), async (ctx) => {
    const query = activityQuerySchema.parse(ctx.query)
    const page = await deps.audit.list(query)
    setPageHeaders(ctx, page, (cursor) => `/api/activity?${new URLSearchParams({ limit: String(query.limit), cursor })}`)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = page.items.map(toActivityEntry)
  })
  return router
}

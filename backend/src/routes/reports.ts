import Router from '@koa/router'
import { newReportSchema, reportDecisionSchema, reportQuerySchema } from '../../../contract/reports'
import { addressKey } from '../http/client-address'
import { toApiReportGroup } from '../http/mappers/report'
import { setPageHeaders } from '../http/page-headers'
import { optionalSession, requireAdmin, requireSession, sessionOf } from '../http/require-session'
import type { ReportTarget } from '../services/reports'
import type { RouteDeps } from './route-deps'

/** Reports (docs/rest-api.md): anyone reports an animation or a shared pack; admins list them and decide. */
export function reportRoutes(deps: RouteDeps): Router {
  const { reports } = deps
  const router = new Router()
  const session = requireSession(deps.sessions)
  const admin = requireAdmin(deps.accounts)

  router.post('/reports', optionalSession(deps.sessions), async (ctx) => {
    const body = newReportSchema.parse(ctx.request.body ?? {})
    const email = (ctx.state.session as { email?: string } | undefined)?.email
    const reporter = { ...(email === undefined ? {} : { email }), address: addressKey(ctx.ip || 'unknown') }
    const { record } = await reports.report(reporter, targetOf(body), body.reason, body.note)
    ctx.status = 201
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { id: record.id }
  })

  router.get('/reports', session, admin, async (ctx) => {
    const query = reportQuerySchema.parse(ctx.query)
    const page = await reports.groups(query.state, query)
    const next = (cursor: string) => `/api/reports?${new URLSearchParams({ state: query.state, limit: String(query.limit), cursor })}`
    setPageHeaders(ctx, page, next)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = page.items.map(toApiReportGroup)
  })

  router.post('/reports/decision', session, admin, async (ctx) => {
    const body = reportDecisionSchema.parse(ctx.request.body ?? {})
    const decided = await reports.decide(sessionOf(ctx).email, targetOf(body), body.decision, body.note)
    ctx.body = { decided }
  })

  return router
}

/** The one target the schema let through. */
function targetOf(body: { wumpusId?: string; packId?: string }): ReportTarget {
  return body.wumpusId !== undefined ? { kind: 'wumpus', id: body.wumpusId } : { kind: 'pack', id: body.packId! }
}

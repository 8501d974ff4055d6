import Router from '@koa/router'
import type { RouteDeps } from './route-deps'
import { requireAdmin, requireSession, requireVerifiedEmail, sessionOf } from '../http/require-session'
import { emailParam } from '../http/params'
import { logSecurityEvent } from '../security-log'

/**
 * Signing out on the server: the session ends, so its token and every renewal of it are refused from
 * now on. `/sessions` ends every session of one's account ("sign out everywhere", this one included)
 * and revokes its Firebase sign-ins; admins do the same to someone through `/admin/{email}/sessions`
 * (recorded in the audit log).
 */
export function sessionRoutes(deps: RouteDeps): Router {
  const { sessions, logger } = deps
  const router = new Router()
  const session = requireSession(sessions)

  router.delete('/session', session, async (ctx) => {
    const claims = sessionOf(ctx)
    await sessions.end(claims)
    logSecurityEvent(logger, { event: 'sign-out', email: claims.email, ip: ctx.ip })
    ctx.set('Cache-Control', 'no-store')
    ctx.status = 204
  })

  // Ending other sessions reaches beyond this device: power follows proof, as for profile changes.
  router.delete('/sessions', session, requireVerifiedEmail, async (ctx) => {
    const { email } = sessionOf(ctx)
    const count = await deps.accounts.signOutEverywhere(email)
    logSecurityEvent(logger, { event: 'sessions-ended', endedBy: 'self', count, email, ip: ctx.ip })
    ctx.set('Cache-Control', 'no-store')
    ctx.status = 204
  })

  router.delete('/admin/:email/sessions', session, requireAdmin(deps.accounts), async (ctx) => {
    const actor = sessionOf(ctx).email
    const email = emailParam(ctx)
    const count = await deps.accounts.endSessionsOf(actor, email)
    logSecurityEvent(logger, { event: 'sessions-ended', endedBy: 'admin', count, email, actor, ip: ctx.ip })
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { endedCount: count }
  })
  return router
}

import Router from '@koa/router'
import type { Context } from 'koa'
import type { RouteDeps } from './route-deps'
import { requireAdmin, requireSession, requireVerifiedEmail, sessionOf } from '../http/require-session'
import { emailParam } from '../http/params'
import { logSecurityEvent } from '../security-log'
import { DomainError, reasonOf } from '../domain/errors'

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

  /**
   * Signs an account out everywhere through `end` and logs it: our sessions ended, and whether Firebase
   * revoked the sign-ins too (a failed revocation still ended the sessions, so it is logged before it is answered).
   */
  async function endLogged(
    ctx: Context,
    who: { endedBy: 'self' | 'admin'; email: string; actor?: string },
    end: () => Promise<number>,
  ): Promise<number> {
    try {
      const count = await end()
      logSecurityEvent(logger, { event: 'sessions-ended', ...who, count, revoked: true, ip: ctx.ip })
      return count
    } catch (error) {
      if (error instanceof DomainError && reasonOf(error) === 'revocation-failed') {
        const count = (error.details as { endedCount: number }).endedCount
        logSecurityEvent(logger, { event: 'sessions-ended', ...who, count, revoked: false, reason: 'revocation-failed', ip: ctx.ip })
      }
      throw error
    }
  }

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
    await endLogged(ctx, { endedBy: 'self', email }, () => deps.accounts.signOutEverywhere(email))
    ctx.set('Cache-Control', 'no-store')
    ctx.status = 204
  })

  router.delete('/admin/:email/sessions', session, requireAdmin(deps.accounts), async (ctx) => {
    const actor = sessionOf(ctx).email
    const email = emailParam(ctx)
    const count = await endLogged(ctx, { endedBy: 'admin', email, actor }, () => deps.accounts.endSessionsOf(actor, email))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { endedCount: count }
  })
  return router
}

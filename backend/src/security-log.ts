import type { Context } from 'koa'
import type { Logger } from './logger'

/**
 * How a log line names an account: the first character of the address and its domain,
 * `j***@example.com`. Logs never hold a full address (nor tokens or passwords).
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  return at < 0 ? '***' : `${email.slice(0, Math.min(1, at))}***${email.slice(at)}`
}

/** What happened: sign-ins and their refusals, refused requests, rate-limit hits, sessions ended. */
export type SecurityEvent =
  | { event: 'sign-in'; outcome: 'success' | 'refused'; renewal: boolean; reason?: string }
  | { event: 'refused'; status: number; route: string; reason?: string }
  /** `key`: the address key, or for an account a hash that groups its hits without naming it. */
  | { event: 'rate-limited'; limit: string; by: 'address' | 'account'; key: string; route: string }
  | { event: 'sign-out' }
  /**
   * `count` of our sessions ended; `revoked`: whether Firebase revoked the sign-ins too (when not, they
   * ended all the same and `reason` is `revocation-failed`).
   */
  | { event: 'sessions-ended'; endedBy: 'self' | 'admin'; count: number; revoked: boolean; reason?: string }

/**
 * Logs a security event as one JSON line at info: `{ message: 'security event', event, … }`. Emails are
 * given raw here (`email`: whose account, `actor`: who acted on it) and masked, so no caller can forget to.
 */
export function logSecurityEvent(
  logger: Logger,
  { email, actor, ...fields }: SecurityEvent & { email?: string; actor?: string; ip?: string },
): void {
  logger.info('security event', {
    ...fields,
    ...(email === undefined ? {} : { account: maskEmail(email) }),
    ...(actor === undefined ? {} : { actor: maskEmail(actor) }),
  })
}

/** The route as the router declares it (`PUT /api/user/:email`), never the path: paths can hold other people's emails. */
export function routePattern(ctx: Context): string {
  // @koa/router's pattern of the route that answered (a string for every route of ours).
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute
  return `${ctx.method} ${typeof route === 'string' ? route : ctx.path === '/' ? '/' : '(no route)'}`
}

import type { Context, Middleware } from 'koa'
import type { SessionClaims } from '../../../contract/user'
import { HttpError } from './http-error'
import type { SessionService } from '../services/sessions'
import type { Viewer } from '../domain/viewer'
import type { AccountService } from '../services/accounts'
import { bearerToken } from '../auth/session-token'

/** Lets the request through only with a valid token of an open session; its claims land in ctx.state.session. */
export function requireSession(sessions: SessionService): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization'))
    if (!token) throw new HttpError('UNAUTHENTICATED', 'Sign in first', { reason: 'missing' })
    ctx.state.session = await sessions.check(token)
    await next()
  }
}

/** requireSession when the request carries a token, else anonymous. */
export function optionalSession(sessions: SessionService): Middleware {
  const required = requireSession(sessions)
  return (ctx, next) => (ctx.get('Authorization') ? required(ctx, next) : next())
}

export function sessionOf(ctx: Context): SessionClaims {
  const session = ctx.state.session as SessionClaims | undefined
  if (!session) throw new HttpError('UNAUTHENTICATED', 'Sign in first', { reason: 'missing' })
  return session
}

/** After requireSession or optionalSession: the caller, as a Viewer. */
export function viewerOf(ctx: Context, accounts: Pick<AccountService, 'viewerOf'>): Promise<Viewer> {
  return accounts.viewerOf(ctx.state.session as SessionClaims | undefined)
}

/** After requireSession: only admins (as the store knows them now) with a verified email get through. */
export function requireAdmin(accounts: Pick<AccountService, 'isAdmin'>, message = 'Only admins can do this'): Middleware {
  return async (ctx, next) => {
    const session = sessionOf(ctx)
    if (!(await accounts.isAdmin(session.email))) throw new HttpError('FORBIDDEN', message)
    if (!session.email_verified) throw emailNotVerified()
    await next()
  }
}

const emailNotVerified = () => new HttpError('FORBIDDEN', 'Verify your email address first', { reason: 'email-not-verified' })

/** After requireSession: contributors' writes need a verified email address. */
export const requireVerifiedEmail: Middleware = async (ctx, next) => {
  if (!sessionOf(ctx).email_verified) throw emailNotVerified()
  await next()
}

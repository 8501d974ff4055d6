import type { Context, Middleware } from 'koa'
import type { SessionClaims } from '../../../contract/user'
import { HttpError } from '../http/http-error'
import type { Store } from '../store/port'
import { bearerToken, verifySessionToken } from './session-token'

/** Lets the request through only with a valid session token; its claims land in ctx.state.session. */
export function requireSession(secret: string): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx.get('Authorization'))
    if (!token) throw new HttpError('UNAUTHENTICATED', 'Sign in first', { reason: 'missing' })
    ctx.state.session = verifySessionToken(token, secret)
    await next()
  }
}

export function sessionOf(ctx: Context): SessionClaims {
  const session = ctx.state.session as SessionClaims | undefined
  if (!session) throw new HttpError('UNAUTHENTICATED', 'Sign in first', { reason: 'missing' })
  return session
}

/** Whether the signed-in user is an admin now: read from the store, so a promotion counts at once. */
export async function isAdmin(store: Store, email: string): Promise<boolean> {
  return (await store.getUser(email))?.role === 'admin'
}

/** After requireSession: only admins (as the store knows them now) get through. */
export function requireAdmin(store: Store): Middleware {
  return async (ctx, next) => {
    if (!(await isAdmin(store, sessionOf(ctx).email))) throw new HttpError('FORBIDDEN', 'Only admins can do this')
    await next()
  }
}

/** After requireSession: contributors' writes need a verified email address. */
export const requireVerifiedEmail: Middleware = async (ctx, next) => {
  if (!sessionOf(ctx).email_verified) {
    throw new HttpError('FORBIDDEN', 'Verify your email address first', { reason: 'email-not-verified' })
  }
  await next()
}

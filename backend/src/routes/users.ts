import Router from '@koa/router'
import type { Context } from 'koa'
import { ZodError } from 'zod'
import { profileUpdateSchema, signInPayloadSchema } from '../../../contract/user'
import type { RouteDeps } from './route-deps'
import { requireAdmin, requireSession, sessionOf } from '../http/require-session'
import { bearerToken, isSessionToken } from '../auth/session-token'
import { DomainError, reasonOf } from '../domain/errors'
import { HttpError, toHttpError } from '../http/http-error'
import { emailParam } from '../http/params'
import { toApiUser, toPublicProfile } from '../http/mappers/user'
import { logSecurityEvent } from '../security-log'

export function userRoutes(deps: RouteDeps): Router {
  const { sessions, limits, verifyIdToken, accounts } = deps
  const router = new Router()
  const session = requireSession(sessions)

  /**
   * One path, two uses (docs/rest-api.md#endpoints): with a Firebase ID token it signs the user in (registering
   * them on first visit) and answers our session token; with our session token it updates the profile.
   */
  router.put('/user/:email', async (ctx) => {
    const token = bearerToken(ctx.get('Authorization'))
    if (!token) throw new HttpError('UNAUTHENTICATED', 'Sign in first', { reason: 'missing' })
    const email = emailParam(ctx)

    if (isSessionToken(token)) {
      const claims = await sessions.check(token)
      ctx.state.session = claims
      await limits.ip('profile', ctx)
      await limits.account('profile', ctx, claims.email)
      const patch = profileUpdateSchema.parse(ctx.request.body ?? {})
      const { modifiedCount, user, token: renamed } = await accounts.updateProfile(claims, email, patch)
      ctx.body = { modifiedCount, user: toApiUser(user, claims.email), token: renamed }
      return
    }

    // Every exchange, sign-in or renewal, is logged with its outcome (never the tokens).
    const renewal = typeof (ctx.request.body as { session?: unknown } | undefined)?.session === 'string'
    try {
      await exchange(ctx, token, email)
      logSecurityEvent(deps.logger, { event: 'sign-in', outcome: 'success', renewal, email, ip: ctx.ip })
    } catch (error) {
      const answer =
        error instanceof HttpError || error instanceof DomainError || error instanceof ZodError ? toHttpError(error) : undefined
      if (answer && answer.status < 500) {
        const reason = reasonOf(answer) ?? answer.code
        const refusal = { event: 'sign-in', outcome: 'refused', renewal, reason } as const
        logSecurityEvent(deps.logger, { ...refusal, email: (ctx.state as { account?: string }).account, ip: ctx.ip })
      }
      throw error
    }
  })

  /** The sign-in exchange proper: a Firebase ID token for our session token. */
  async function exchange(ctx: Context, token: string, email: string) {
    // The IP is counted before the (remote) token check, the Firebase account after it.
    await limits.ip('signIn', ctx)
    const identity = await verifyIdToken(token)
    // Proven by Firebase: the security log may name it (masked) from here on.
    ctx.state.account = identity.email
    await limits.account('signIn', ctx, identity.uid)
    if (identity.email !== email) {
      throw new HttpError('FORBIDDEN', 'This sign-in belongs to another email address', { reason: 'email-mismatch' })
    }
    const payload = signInPayloadSchema.parse(ctx.request.body ?? {})
    if (payload.email.toLowerCase() !== email) throw new HttpError('BAD_REQUEST', 'The email in the body must match the path')
    const { token: sessionToken, user } = await accounts.signIn(identity, payload)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { token: sessionToken, user: toApiUser(user, user.email) }
  }

  router.get('/profile/:email', session, async (ctx) => {
    const { user, whole } = await accounts.profileFor(sessionOf(ctx), emailParam(ctx))
    // Signed-in data: not kept by the browser or anything between (the service worker keeps its own copy).
    ctx.set('Cache-Control', 'no-store')
    ctx.body = whole ? toApiUser(user, sessionOf(ctx).email) : toPublicProfile(user)
  })

  router.get('/admin/:email', session, async (ctx) => {
    const admin = await accounts.adminStatus(sessionOf(ctx), emailParam(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { admin }
  })

  router.get('/users', session, requireAdmin(deps.accounts), async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.body = (await accounts.list()).map((user) => toApiUser(user, sessionOf(ctx).email))
  })

  router.put(
    '/user/admin/:email',
    session,
    requireAdmin(deps.accounts, 'You are not authorized to make this user an admin'),
    async (ctx) => {
      ctx.body = { modifiedCount: await accounts.makeAdmin(sessionOf(ctx).email, emailParam(ctx)) }
    },
  )

  return router
}

import Router from '@koa/router'
import type { Context } from 'koa'
import { profileUpdateSchema, signInPayloadSchema } from '../../../contract/user'
import type { RouteDeps } from '../app'
import { requireAdmin, requireSession, sessionOf } from '../auth/require-session'
import { bearerToken, isSessionToken } from '../auth/session-token'
import { HttpError, notFound } from '../http/http-error'
import { toApiUser, toPublicProfile } from '../http/mappers/user'
import { adminStatus, listUsers, makeAdmin, profileFor, signIn, updateProfile } from '../services/accounts'

/** Emails in paths are compared and stored in lower case, as Firebase does. */
function pathEmail(ctx: Context): string {
  const email = String(ctx.params.email ?? '')
    .trim()
    .toLowerCase()
  if (!email.includes('@') || email.length > 254) throw notFound('No such user')
  return email
}

export function userRoutes(deps: RouteDeps): Router {
  const { store, sessions, limits, verifyIdToken, config } = deps
  const router = new Router()
  const session = requireSession(sessions)
  const accounts = { store, sessions, audit: deps.audit, adminEmails: config.adminEmails }

  /**
   * One path, two uses (docs/product-rules.md#rest-api): with a Firebase ID token it signs the user in (registering
   * them on first visit) and answers our session token; with our session token it updates the profile.
   */
  router.put('/user/:email', async (ctx) => {
    const token = bearerToken(ctx.get('Authorization'))
    if (!token) throw new HttpError('UNAUTHENTICATED', 'Sign in first', { reason: 'missing' })
    const email = pathEmail(ctx)

    if (isSessionToken(token)) {
      const claims = await sessions.check(token)
      ctx.state.session = claims
      await limits.ip('profile', ctx)
      await limits.account('profile', claims.email)
      const patch = profileUpdateSchema.parse(ctx.request.body ?? {})
      const { modifiedCount, user, token: renamed } = await updateProfile(accounts, claims, email, patch)
      ctx.body = { modifiedCount, user: toApiUser(user), token: renamed }
      return
    }

    // The IP is counted before the (remote) token check, the Firebase account after it.
    await limits.ip('signIn', ctx)
    const identity = await verifyIdToken(token)
    await limits.account('signIn', identity.uid)
    if (identity.email !== email) throw new HttpError('FORBIDDEN', 'This sign-in belongs to another email address')
    const payload = signInPayloadSchema.parse(ctx.request.body ?? {})
    if (payload.email.toLowerCase() !== email) throw new HttpError('BAD_REQUEST', 'The email in the body must match the path')
    const { token: sessionToken, user } = await signIn(accounts, identity, payload)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { token: sessionToken, user: toApiUser(user) }
  })

  router.get('/profile/:email', session, async (ctx) => {
    const { user, whole } = await profileFor(store, sessionOf(ctx), pathEmail(ctx))
    // Signed-in data: not kept by the browser or anything between (the service worker keeps its own copy).
    ctx.set('Cache-Control', 'no-store')
    ctx.body = whole ? toApiUser(user) : toPublicProfile(user)
  })

  router.get('/admin/:email', session, async (ctx) => {
    const admin = await adminStatus(store, sessionOf(ctx), pathEmail(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { admin }
  })

  router.get('/users', session, requireAdmin(store), async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.body = (await listUsers(store)).map(toApiUser)
  })

  router.put('/user/admin/:email', session, requireAdmin(store, 'You are not authorized to make this user an admin'), async (ctx) => {
    ctx.body = { modifiedCount: await makeAdmin(accounts, sessionOf(ctx).email, pathEmail(ctx)) }
  })

  return router
}

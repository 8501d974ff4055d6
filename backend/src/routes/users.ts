import Router from '@koa/router'
import type { Context } from 'koa'
import { profileUpdateSchema, signInPayloadSchema, type User } from '../../../contract/user'
import type { VerifyIdToken } from '../auth/firebase-id-token'
import { isAdmin, requireAdmin, requireSession, requireVerifiedEmail, sessionOf } from '../auth/require-session'
import { bearerToken, isSessionToken, signSessionToken, verifySessionToken } from '../auth/session-token'
import type { Config } from '../config'
import { HttpError, notFound } from '../http/http-error'
import type { Store, UserPatch, UserRecord } from '../store/port'

export function toApiUser(user: UserRecord): User {
  const { email, user_name, role, photo, cover, url, job, description } = user
  return { email, user_name, role, photo, cover, url, job, description }
}

/** Emails in paths are compared and stored in lower case, as Firebase does. */
function pathEmail(ctx: Context): string {
  const email = String(ctx.params.email ?? '').trim().toLowerCase()
  if (!email.includes('@') || email.length > 254) throw notFound('No such user')
  return email
}

export function userRoutes(deps: { store: Store; config: Config; verifyIdToken: VerifyIdToken }): Router {
  const { store, config, verifyIdToken } = deps
  const router = new Router()
  const session = requireSession(config.jwtSecret)
  const issue = (user: UserRecord, emailVerified: boolean) =>
    signSessionToken({ email: user.email, name: user.user_name, emailVerified }, config.jwtSecret, config.jwtTtlSeconds)

  /**
   * One path, two uses (spec section 7): with a Firebase ID token it signs the user in (registering
   * them on first visit) and answers our session token; with our session token it updates the profile.
   */
  router.put('/user/:email', async (ctx) => {
    const token = bearerToken(ctx.get('Authorization'))
    if (!token) throw new HttpError('UNAUTHENTICATED', 'Sign in first', { reason: 'missing' })
    const email = pathEmail(ctx)

    if (isSessionToken(token)) {
      const claims = verifySessionToken(token, config.jwtSecret)
      if (claims.email !== email) throw new HttpError('FORBIDDEN', 'You can only change your own profile')
      const patch = profileUpdateSchema.parse(ctx.request.body ?? {})
      const before = await store.getUser(email)
      if (!before) throw notFound('No such user')
      const after = await store.upsertUser(email, patch)
      const modifiedCount = (Object.keys(patch) as (keyof typeof patch)[]).some((key) => before[key] !== after[key]) ? 1 : 0
      ctx.body = { modifiedCount, user: toApiUser(after), token: issue(after, claims.email_verified) }
      return
    }

    const identity = await verifyIdToken(token)
    if (identity.email !== email) throw new HttpError('FORBIDDEN', 'This sign-in belongs to another email address')
    const payload = signInPayloadSchema.parse(ctx.request.body ?? {})
    if (payload.email.toLowerCase() !== email) throw new HttpError('BAD_REQUEST', 'The email in the body must match the path')
    const existing = await store.getUser(email)
    // A returning user keeps the name and photo they chose here; only blanks are filled in.
    const patch: UserPatch = {}
    const name = payload.user_name || identity.name || email.split('@')[0]!
    if (!existing?.user_name) patch.user_name = name
    if (!existing?.photo && payload.photo) patch.photo = payload.photo
    if (!existing && config.adminEmails.includes(email)) patch.role = 'admin'
    const user = await store.upsertUser(email, patch)
    ctx.body = { token: issue(user, identity.emailVerified), user: toApiUser(user) }
  })

  router.get('/profile/:email', session, async (ctx) => {
    const user = await store.getUser(pathEmail(ctx))
    if (!user) throw notFound('No such user')
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = toApiUser(user)
  })

  router.get('/admin/:email', session, async (ctx) => {
    const email = pathEmail(ctx)
    const me = sessionOf(ctx).email
    if (email !== me && !(await isAdmin(store, me))) throw new HttpError('FORBIDDEN', "Only admins may ask about someone else's role")
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { admin: await isAdmin(store, email) }
  })

  router.get('/users', session, requireAdmin(store), async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.body = (await store.listUsers()).map(toApiUser)
  })

  router.put('/user/admin/:email', session, requireVerifiedEmail, async (ctx) => {
    if (!(await isAdmin(store, sessionOf(ctx).email))) {
      throw new HttpError('FORBIDDEN', 'You are not authorized to make this user an admin')
    }
    const email = pathEmail(ctx)
    if (!(await store.getUser(email))) throw notFound('No such user')
    ctx.body = { modifiedCount: await store.setRole(email, 'admin') }
  })

  return router
}

import Router from '@koa/router'
import type { RouteDeps } from '../app'
import { requireSession, sessionOf } from '../auth/require-session'

/** Signing out on the server: the session ends, so its token and every renewal of it are refused from now on. */
export function sessionRoutes(deps: Pick<RouteDeps, 'sessions'>): Router {
  const router = new Router()
  router.delete('/session', requireSession(deps.sessions), async (ctx) => {
    await deps.sessions.end(sessionOf(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.status = 204
  })
  return router
}

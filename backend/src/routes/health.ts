import Router from '@koa/router'
import type { Readiness } from '../../../contract/health'
import type { RouteDeps } from './route-deps'

/** Liveness (the process answers) and readiness (the store answers too). */
export function healthRoutes({ store }: RouteDeps): Router {
  const router = new Router()
  router.get('/health', (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { status: 'ok' }
  })
  router.get('/ready', async (ctx) => {
    let ok = true
    try {
      await store.ping()
    } catch {
      ok = false
    }
    const body: Readiness = { status: ok ? 'ready' : 'unavailable', store: { kind: store.kind, ok } }
    ctx.set('Cache-Control', 'no-store')
    ctx.status = ok ? 200 : 503
    ctx.body = body
  })
  return router
}

import Router from '@koa/router'
import type { ClientConfig } from '../../../contract/client-config'
import type { RouteDeps } from './route-deps'

/** Public settings the built app reads at run time, so one build serves every deployment. */
export function clientConfigRoutes({ config }: RouteDeps): Router {
  const router = new Router()
  const body: ClientConfig = {
    firebase: {
      apiKey: config.firebase.apiKey,
      authDomain: config.firebase.authDomain,
      projectId: config.firebase.projectId,
      ...(config.firebase.appId ? { appId: config.firebase.appId } : {}),
      ...(config.firebase.authEmulatorHost ? { authEmulatorUrl: `http://${config.firebase.authEmulatorHost}` } : {}),
    },
    // Whether it is on, never the token.
    telegram: config.telegram !== undefined,
    discord: config.discord !== undefined,
  }
  router.get('/config', (ctx) => {
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = body
  })
  return router
}

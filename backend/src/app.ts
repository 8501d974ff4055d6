import Koa from 'koa'
import compress from 'koa-compress'
import { koaBody } from 'koa-body'
import type { Config } from './config'
import type { Logger } from './logger'
import type { Store } from './store/port'
import { errorShape, requestLog, securityHeaders, serializeJson } from './http/middleware'
import { inlineScriptHashes, staticApp } from './http/static-app'
import { clientConfigRoutes } from './routes/client-config'
import { fileRoutes } from './routes/files'
import { healthRoutes } from './routes/health'
import { wumpusRoutes } from './routes/wumpuses'

export interface AppDeps {
  config: Config
  store: Store
  logger: Logger
}

/** The whole HTTP application, without listening: tests drive it in-process. */
export function createApp({ config, store, logger }: AppDeps): Koa {
  const app = new Koa({ proxy: config.trustProxy })
  app.silent = true
  const emulator = config.firebase.authEmulatorHost

  app.use(requestLog(logger))
  app.use(errorShape(logger))
  app.use(
    securityHeaders({
      authEmulatorOrigin: emulator ? `http://${emulator}` : undefined,
      inlineScriptHashes: inlineScriptHashes(config.staticDir),
    }),
  )
  app.use(compress({ threshold: 1024 }))
  app.use(serializeJson())
  app.use(koaBody({ jsonLimit: '256kb', jsonStrict: true, text: false, urlencoded: false, multipart: false }))

  const health = healthRoutes(store)
  app.use(health.routes())
  for (const router of [wumpusRoutes(store), fileRoutes(store), clientConfigRoutes(config)]) {
    router.prefix('/api')
    app.use(router.routes())
    app.use(router.allowedMethods({ throw: true }))
  }
  app.use(staticApp(config.staticDir, { exclude: ['/api'] }))
  return app
}

import Koa from 'koa'
import type Router from '@koa/router'
import compress from 'koa-compress'
import { koaBody } from 'koa-body'
import { errorShape, identityWhenNothingElse, requestLog, securityHeaders, serializeJson } from './http/middleware'
import { linkPreviewPages } from './http/link-preview-pages'
import { serverRenderedPages } from './http/server-rendered-pages'
import { inlineScriptHashes, staticApp } from './http/static-app'
import { activityRoutes } from './routes/activity'
import { animationFileRoutes } from './routes/animation-files'
import { clientConfigRoutes } from './routes/client-config'
import { favouriteRoutes } from './routes/favourites'
import { fileRoutes } from './routes/files'
import { healthRoutes } from './routes/health'
import { packRoutes, visitorPackAnswers } from './routes/packs'
import { discordRoutes } from './routes/discord'
import { remixRoutes } from './routes/remixes'
import { backupRoutes } from './routes/backups'
import type { RouteDeps } from './routes/route-deps'
import { sessionRoutes } from './routes/sessions'
import { stickerRoutes } from './routes/stickers'
import { submissionRoutes } from './routes/submissions'
import { reportRoutes } from './routes/reports'
import { notificationRoutes } from './routes/notifications'
import { tagRoutes } from './routes/tags'
import { telegramRoutes } from './routes/telegram'
import { uploadRoutes } from './routes/uploads'
import { userRoutes } from './routes/users'
import { wumpusRoutes } from './routes/wumpuses'

/** The whole HTTP application on what the composition root built (createRouteDeps), without listening: tests drive it in-process. */
export function createApp(deps: RouteDeps): Koa {
  const { config, logger } = deps
  // Behind proxies, ctx.ip is the entry trustProxyHops from the right of X-Forwarded-For (what the outermost
  // proxy saw), never one the client wrote; without them, the socket's address.
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: config.trustProxyHops })
  app.silent = true
  const emulator = config.firebase.authEmulatorHost

  app.use(requestLog(logger))
  app.use(errorShape(logger))
  app.use(
    securityHeaders({
      authEmulatorOrigin: emulator ? `http://${emulator}` : undefined,
      inlineScriptHashes: inlineScriptHashes(config.staticDir),
      hsts: config.production,
    }),
  )
  app.use(identityWhenNothingElse())
  app.use(compress({ threshold: 1024 }))
  app.use(serializeJson())
  app.use(koaBody({ jsonLimit: '256kb', jsonStrict: true, text: false, urlencoded: false, multipart: false }))

  for (const router of appRouters(deps)) {
    app.use(router.routes())
    app.use(router.allowedMethods({ throw: true }))
  }
  app.use(
    serverRenderedPages({
      store: deps.store,
      logger,
      staticDir: config.staticDir,
      ssrDir: config.ssrDir,
      limits: deps.limits,
      lists: { gallery: deps.galleryPages, tags: deps.tagLists, emoji: deps.emojiLists, packs: visitorPackAnswers(deps) },
      publicUrl: config.publicUrl,
    }),
  )
  app.use(linkPreviewPages({ store: deps.store, staticDir: config.staticDir, publicUrl: config.publicUrl }))
  app.use(staticApp(config.staticDir, { exclude: ['/api'] }))
  return app
}

/** Every router of the app, API ones under /api: the whole HTTP surface (the authorization matrix test walks it). */
export function appRouters(deps: RouteDeps): Router[] {
  const api = [
    wumpusRoutes(deps),
    tagRoutes(deps),
    stickerRoutes(deps),
    fileRoutes(deps),
    clientConfigRoutes(deps),
    userRoutes(deps),
    sessionRoutes(deps),
    uploadRoutes(deps),
    animationFileRoutes(deps),
    activityRoutes(deps),
    packRoutes(deps),
    discordRoutes(deps),
    favouriteRoutes(deps),
    remixRoutes(deps),
    submissionRoutes(deps),
    reportRoutes(deps),
    notificationRoutes(deps),
    backupRoutes(deps),
    telegramRoutes(deps),
  ]
  for (const router of api) router.prefix('/api')
  return [healthRoutes(deps), ...api]
}

import Koa from 'koa'
import type Router from '@koa/router'
import compress from 'koa-compress'
import { koaBody } from 'koa-body'
import type { Config } from './config'
import type { Logger } from './logger'
import type { Store, WumpusRecord } from './store/port'
import { unavailable } from './domain/errors'
import { errorShape, identityWhenNothingElse, requestLog, securityHeaders, serializeJson } from './http/middleware'
import { createRateLimits, type RateLimits } from './http/rate-limit'
import { linkPreviewPages } from './http/link-preview-pages'
import { serverRenderedPages } from './http/server-rendered-pages'
import { inlineScriptHashes, staticApp } from './http/static-app'
import { activityRoutes } from './routes/activity'
import { clientConfigRoutes } from './routes/client-config'
import { fileRoutes } from './routes/files'
import { healthRoutes } from './routes/health'
import { sessionRoutes } from './routes/sessions'
import { wumpusRoutes } from './routes/wumpuses'
import { userRoutes } from './routes/users'
import { uploadRoutes } from './routes/uploads'
import { animationFileRoutes } from './routes/animation-files'
import { stickerRoutes } from './routes/stickers'
import { packRoutes } from './routes/packs'
import { favouriteRoutes } from './routes/favourites'
import { remixRoutes } from './routes/remixes'
import { createFileKeys, type FileKeys } from './http/file-keys'
import { createDerivedMediaService, type DerivedMediaService } from './services/derived-media'
import { createIdTokenVerifier, googleSigningKeys, type VerifyIdToken } from './auth/firebase-id-token'
import { firebaseAdminAuth } from './auth/firebase-admin'
import { DownloadCounter } from './services/download-counts'
import { tagRoutes } from './routes/tags'
import { createAuditLog, type AuditLog } from './services/audit'
import { createSessionService, type SessionService } from './services/sessions'
import { createColourChoices } from './services/remixes'
import type { ColourChoices } from '../../contract/remix/recipe'

export interface AppDeps {
  config: Config
  store: Store
  logger: Logger
  /** Firebase ID token verification; by default against this deployment's project or emulator. */
  verifyIdToken?: VerifyIdToken
  /** Download counting; the process that owns the app closes it (flushing pending counts) at exit. */
  downloads?: DownloadCounter
  /** Card previews and platform exports; by default made in the shared render worker. */
  derivedMedia?: DerivedMediaService
  /** The sessions' clock, in ms since the epoch (tests move it). */
  now?: () => number
  /** Revokes a Firebase account's sign-ins (refresh tokens); by default through firebase-admin. */
  revokeSignIns?: (uid: string) => Promise<void>
}

/** What every router gets: the settings, the store and the services built once per app. */
export interface RouteDeps {
  config: Config
  store: Store
  logger: Logger
  verifyIdToken: VerifyIdToken
  sessions: SessionService
  limits: RateLimits
  audit: AuditLog
  downloads: DownloadCounter
  derivedMedia: DerivedMediaService
  revokeSignIns: (uid: string) => Promise<void>
  /** The colour slots and presets a remix of an animation can use (kept per Lottie file). */
  colourChoices: (record: WumpusRecord) => Promise<ColourChoices>
  /** Keys in the file URLs of private remixes. */
  fileKeys: FileKeys
}

export function createRouteDeps({
  config,
  store,
  logger,
  verifyIdToken = defaultIdTokenVerifier(config),
  downloads = new DownloadCounter(store, { logger }),
  derivedMedia = createDerivedMediaService({ store, logger }),
  now,
  revokeSignIns = defaultSignInRevoker(config),
}: AppDeps): RouteDeps {
  return {
    config,
    store,
    logger,
    verifyIdToken,
    sessions: createSessionService({
      store,
      secret: config.jwtSecret,
      ttlSeconds: config.jwtTtlSeconds,
      maxAgeSeconds: config.sessionMaxAgeSeconds,
      idleSeconds: config.sessionIdleSeconds,
      now,
    }),
    limits: createRateLimits(store, { factor: config.rateLimitFactor, logger, secret: config.jwtSecret }),
    audit: createAuditLog(store, logger),
    downloads,
    derivedMedia,
    revokeSignIns,
    colourChoices: createColourChoices(store),
    fileKeys: createFileKeys(config.jwtSecret),
  }
}

/** The whole HTTP application, without listening: tests drive it in-process. */
export function createApp(input: AppDeps): Koa {
  const deps = createRouteDeps(input)
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
  app.use(serverRenderedPages({ store: deps.store, logger, staticDir: config.staticDir, ssrDir: config.ssrDir, limits: deps.limits }))
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
    favouriteRoutes(deps),
    remixRoutes(deps),
  ]
  for (const router of api) router.prefix('/api')
  return [healthRoutes(deps), ...api]
}

/** Firebase refuses the account's refresh tokens from now on, and our sign-in exchange its older ID tokens ('revoked'). */
function defaultSignInRevoker(config: Config): (uid: string) => Promise<void> {
  return async (uid) => {
    try {
      await firebaseAdminAuth(config).revokeRefreshTokens(uid)
    } catch (error) {
      if ((error as { code?: string }).code === 'auth/user-not-found') return
      throw unavailable('Sign-ins cannot be revoked right now, try again shortly')
    }
  }
}

function defaultIdTokenVerifier(config: Config): VerifyIdToken {
  const auth = firebaseAdminAuth(config)
  return createIdTokenVerifier({
    projectId: config.firebase.projectId,
    emulator: Boolean(config.firebase.authEmulatorHost),
    signingKeys: googleSigningKeys(),
    lookupAccount: async (uid) => {
      try {
        const user = await auth.getUser(uid)
        return {
          disabled: user.disabled,
          tokensValidAfterTime: user.tokensValidAfterTime,
          email: user.email,
          emailVerified: user.emailVerified,
        }
      } catch (error) {
        if ((error as { code?: string }).code === 'auth/user-not-found') return undefined
        throw unavailable('Sign-in cannot be checked right now, try again shortly')
      }
    },
  })
}

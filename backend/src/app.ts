import Koa from 'koa'
import type Router from '@koa/router'
import compress from 'koa-compress'
import { koaBody } from 'koa-body'
import type { Config } from './config'
import type { Logger } from './logger'
import type { Store } from './store/port'
import { HttpError } from './http/http-error'
import { errorShape, requestLog, securityHeaders, serializeJson } from './http/middleware'
import { inlineScriptHashes, staticApp } from './http/static-app'
import { clientConfigRoutes } from './routes/client-config'
import { fileRoutes } from './routes/files'
import { healthRoutes } from './routes/health'
import { wumpusRoutes } from './routes/wumpuses'
import { userRoutes } from './routes/users'
import { uploadRoutes } from './routes/uploads'
import { animationFileRoutes } from './routes/animation-files'
import { stickerRoutes } from './routes/stickers'
import { createDerivedMediaService, type DerivedMediaService } from './services/derived-media'
import { createIdTokenVerifier, googleSigningKeys, type VerifyIdToken } from './auth/firebase-id-token'
import { firebaseAdminAuth } from './auth/firebase-admin'

export interface AppDeps {
  config: Config
  store: Store
  logger: Logger
  /** Firebase ID token verification; by default against this deployment's project or emulator. */
  verifyIdToken?: VerifyIdToken
  /** Card previews and platform exports; by default made in the shared render worker. */
  derivedMedia?: DerivedMediaService
}

/** The whole HTTP application, without listening: tests drive it in-process. */
export function createApp({
  config,
  store,
  logger,
  verifyIdToken = defaultIdTokenVerifier(config),
  derivedMedia = createDerivedMediaService({ store, logger }),
}: AppDeps): Koa {
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

  for (const router of appRouters({ config, store, verifyIdToken, derivedMedia })) {
    app.use(router.routes())
    app.use(router.allowedMethods({ throw: true }))
  }
  app.use(staticApp(config.staticDir, { exclude: ['/api'] }))
  return app
}

/** Every router of the app, API ones under /api: the whole HTTP surface (the authorization matrix test walks it). */
export function appRouters({ config, store, verifyIdToken, derivedMedia }: Required<Omit<AppDeps, 'logger'>>): Router[] {
  const api = [
    wumpusRoutes(store, config, derivedMedia),
    stickerRoutes({ store }),
    fileRoutes(store),
    clientConfigRoutes(config),
    userRoutes({ store, config, verifyIdToken }),
    uploadRoutes({ store, config }),
    animationFileRoutes({ store, config }),
  ]
  for (const router of api) router.prefix('/api')
  return [healthRoutes(store), ...api]
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
        return { disabled: user.disabled, tokensValidAfterTime: user.tokensValidAfterTime }
      } catch (error) {
        if ((error as { code?: string }).code === 'auth/user-not-found') return undefined
        throw new HttpError('STORE_UNAVAILABLE', 'Sign-in cannot be checked right now, try again shortly')
      }
    },
  })
}

// The composition root: every service, and what the HTTP edge keeps per app (rate limits, file keys), built
// once, in one place, from the settings and the store. Routes get them as RouteDeps (routes/route-deps.ts).
import { unavailable } from './domain/errors'
import { createIdTokenVerifier, googleSigningKeys, type VerifyIdToken } from './auth/firebase-id-token'
import { firebaseAdminAuth } from './auth/firebase-admin'
import type { Config } from './config'
import { CountedLists } from './http/counted-lists'
import { createFileKeys } from './http/file-keys'
import { GalleryPages } from './http/gallery-pages'
import { createRateLimits } from './http/rate-limit'
import type { Logger } from './logger'
import type { RouteDeps } from './routes/route-deps'
import { createAccountService } from './services/accounts'
import { checkedAnimationFile, createAnimationFileService } from './services/animation-files'
import { createAuditLog } from './services/audit'
import { createColourSlotService } from './services/colour-slots'
import { createDerivedMediaService, type DerivedMediaService } from './services/derived-media'
import { createDownloadCounter, type DownloadCounter } from './services/download-counts'
import { createFavouriteService } from './services/favourites'
import { createGalleryService } from './services/gallery'
import { createFileService } from './services/files'
import { createMakerService } from './services/makers'
import { createPackService } from './services/packs'
import { createSubmissionService } from './services/submissions'
import { createReportService } from './services/reports'
import { createNotificationService } from './services/notifications'
import { createProfileImageService } from './services/profile-images'
import { createBackups } from './services/backups'
import { createStillPictureService } from './services/still-pictures'
import { createRemixService } from './services/remixes'
import { createSessionService } from './services/sessions'
import { createWumpusService } from './services/wumpuses'
import { createBotApi } from './services/telegram-bot-api'
import { createTelegramSetService, type TelegramSetServiceDeps } from './services/telegram-sets'
import { createTelegramLinkService, type TelegramLinkServiceDeps } from './services/telegram-links'
import { createDiscordService, type DiscordTimes } from './services/discord-composition'
import type { Store } from './store/port'

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
  /** How often the default derived media service looks in the store for work left by others (default: never). */
  renderPollMs?: number
  /** The sessions' clock, in ms since the epoch (tests move it). */
  now?: () => number
  /** Revokes a Firebase account's sign-ins (refresh tokens); by default through firebase-admin. */
  revokeSignIns?: (uid: string) => Promise<void>
  /** The Telegram set runs' lease, look and retry times (tests shorten them); the sets are on with config.telegram only. */
  telegramTimes?: Pick<TelegramSetServiceDeps, 'leaseMs' | 'pollMs' | 'retryMs'>
  /** The Telegram link poller's getUpdates wait and retry time (issue 36; tests shorten them). */
  telegramLinkTimes?: Pick<TelegramLinkServiceDeps, 'pollSeconds' | 'retryMs'>
  /** The Discord upload jobs' lease, look and retry times (tests shorten them); on with config.discord only. */
  discordTimes?: DiscordTimes
}

/** Every service and edge object of one app; the optional inputs replace the defaults (tests, benches). */
export function createRouteDeps({
  config,
  store,
  logger,
  verifyIdToken = defaultIdTokenVerifier(config),
  downloads = createDownloadCounter(store, { logger }),
  renderPollMs,
  derivedMedia = createDerivedMediaService({
    store,
    logger,
    pollMs: renderPollMs,
    checkLottie: (bytes) => void checkedAnimationFile(config, 'lottie', bytes),
  }),
  now,
  revokeSignIns = defaultSignInRevoker(config),
  telegramTimes,
  telegramLinkTimes,
  discordTimes,
}: AppDeps): RouteDeps {
  const sessions = createSessionService({
    store,
    secret: config.jwtSecret,
    ttlSeconds: config.jwtTtlSeconds,
    maxAgeSeconds: config.sessionMaxAgeSeconds,
    idleSeconds: config.sessionIdleSeconds,
    now,
  })
  const audit = createAuditLog(store, logger)
  const notifications = createNotificationService({ store, logger })
  const gallery = createGalleryService(store)
  const colourSlots = createColourSlotService({ store, logger })
  const remixes = createRemixService({ store, config, logger, derivedMedia, colourSlots })
  const makers = createMakerService(store)
  const bot = config.telegram && createBotApi({ token: config.telegram.botToken, baseUrl: config.telegram.apiUrl })
  const telegram = config.telegram
    ? createTelegramSetService({ store, logger, bot: bot!, ownerId: config.telegram.setOwnerId, ...telegramTimes })
    : undefined
  // Issue 36: one's own packs' sets, through a linked Telegram account.
  const telegramLinks = telegram && createTelegramLinkService({ store, logger, bot: bot!, sets: telegram, ...telegramLinkTimes })
  const packs = createPackService({ store, audit, logger, onPublicChange: telegram?.packChanged })
  const wumpuses = createWumpusService({
    store,
    config,
    logger,
    derivedMedia,
    colourSlots,
    audit,
    remixes,
    onChange: telegram?.animationChanged,
  })
  return {
    config,
    logger,
    store,
    sessions,
    accounts: createAccountService({ store, sessions, audit, adminEmails: config.adminEmails, revokeSignIns }),
    wumpuses,
    submissions: createSubmissionService({ store, config, audit, wumpuses, notifications }),
    reports: createReportService({ store, config, audit, logger, notifications, wumpuses, onChange: telegram?.animationChanged }),
    notifications,
    animationFiles: createAnimationFileService({ store, config, logger }),
    remixes,
    derivedMedia,
    colourSlots,
    files: createFileService(store),
    stills: createStillPictureService(store),
    profileImages: createProfileImageService(store),
    favourites: createFavouriteService(store),
    packs,
    telegram,
    telegramLinks,
    discord: createDiscordService({ config, store, logger, packs, times: discordTimes }),
    makers,
    audit,
    downloads,
    backups: createBackups({
      store,
      dir: config.backup.dir,
      keep: config.backup.keep,
      intervalMs: config.backup.intervalHours * 3600_000,
      logger,
    }),
    verifyIdToken,
    limits: createRateLimits(store, { factor: config.rateLimitFactor, logger, secret: config.jwtSecret }),
    fileKeys: createFileKeys(config.jwtSecret),
    galleryPages: new GalleryPages(store),
    tagLists: new CountedLists(store, (options) => gallery.tags(options)),
    emojiLists: new CountedLists(store, (options) => gallery.emoji(options)),
  }
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

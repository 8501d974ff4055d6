import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { z } from 'zod'
import { DISCORD_ENV, discordConfig, discordProblems, type DiscordConfig } from './discord-config'
import { MAX_APNG_BYTES, MAX_GIF_BYTES, MAX_IMAGE_BYTES, MAX_LOTTIE_BYTES } from '../../contract/limits'

/** Settings parsed once at start from the environment. Every variable is listed in .env.example. */
export interface Config {
  port: number
  host: string
  dataDir: string
  staticDir: string
  /** The server-rendering build of the app (entry-server.js); public pages fall back to the shell without it. */
  ssrDir: string
  mongodbUri?: string
  jwtSecret: string
  /** Lifetime of one session token; renewing it (with a fresh Firebase sign-in token) gives another. */
  jwtTtlSeconds: number
  /** Absolute lifetime of a session, counted from the Firebase sign-in: after it, sign in again. */
  sessionMaxAgeSeconds: number
  /** A session not used for this long ends (ASVS idle timeout). */
  sessionIdleSeconds: number
  /** Multiplies every rate limit (2 doubles them); for load tests and trusted networks. */
  rateLimitFactor: number
  /** How often to look in the store for derived media left to make (another instance's publish or job); 0: only at start and after edits. */
  renderPollSeconds: number
  /** Remix renders one account may ask for per day (deleting a remix gives none back). */
  remixRendersPerDay: number
  /** The most of the render worker's time remixes may take over the last 10 minutes (0.5: half). */
  remixRenderShare: number
  /** Submissions one account may have waiting for review at once (not multiplied by RATE_LIMIT_FACTOR: a cap, not a rate). */
  submissionsWaitingMax: number
  /** Submissions one account may send per day (a fixed 24-hour window in the store; withdrawing gives none back). */
  submissionsPerDay: number
  /** Reports one address, and one account, may send per hour (multiplied by RATE_LIMIT_FACTOR). */
  reportsPerHour: number
  /** Backups of the embedded store: the folder (unset: none), hours between scheduled ones (0: on request only), how many the folder keeps. */
  backup: { dir?: string; intervalHours: number; keep: number }
  /** A costly public answer (still picture, pack, pack ZIP) whose client takes none of it for this long is cut off. */
  sendTimeoutSeconds: number
  adminEmails: string[]
  firebase: {
    projectId: string
    apiKey: string
    authDomain: string
    appId?: string
    /** host:port of the Auth emulator; absent with a real Firebase project. */
    authEmulatorHost?: string
  }
  limits: { gif: number; apng: number; lottie: number; image: number }
  seedDemo: boolean
  logLevel: 'silent' | 'error' | 'info' | 'debug'
  /** Read the X-Forwarded-* headers of proxies in front (true exactly when trustProxyHops > 0). */
  trustProxy: boolean
  /**
   * How many proxies in front append to X-Forwarded-For: the client's address is that many entries from
   * its right end (Koa's maxIpsCount), so entries a client writes itself change nothing. 0: no proxy.
   */
  trustProxyHops: number
  /**
   * The site's public origin (`https://stickers.example.com`), for absolute URLs in link previews. Unset:
   * each request's own origin (behind a proxy, with TRUST_PROXY, the forwarded one).
   */
  publicUrl?: string
  /**
   * Telegram sticker sets of public packs made by the gallery's bot (services/telegram-sets.ts); absent (all
   * off) without TELEGRAM_BOT_TOKEN. The token is a secret: never logged, never sent to the page.
   */
  telegram?: { botToken: string; setOwnerId: number; apiUrl: string; webhookSecret?: string }
  /** Discord: "Add to my Discord server" (services/discord-uploads.ts); absent (all off) without the three DISCORD_ secrets. */
  discord?: DiscordConfig
  production: boolean
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Session signing secrets are at least this long. */
const JWT_SECRET_MIN = 32

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes')
const bytes = (fallback: number) =>
  z.coerce
    .number({ message: 'must be a number of bytes' })
    .int()
    .positive()
    .max(1024 * 1024 * 1024)
    .default(fallback)
const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  STATIC_DIR: z.string().min(1).default('./dist'),
  SSR_DIR: z.string().min(1).default('./dist-ssr'),
  MONGODB_URI: optionalText.pipe(
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
      .optional(),
  ),
  JWT_SECRET: optionalText.pipe(z.string().min(JWT_SECRET_MIN, `must be at least ${JWT_SECRET_MIN} characters`).optional()),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(24 * 3600)
    .default(3600),
  SESSION_MAX_AGE_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int()
    .min(300)
    .max(365 * 24 * 3600)
    .default(14 * 24 * 3600),
  SESSION_IDLE_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int()
    .min(300)
    .max(365 * 24 * 3600)
    .default(3 * 24 * 3600),
  RATE_LIMIT_FACTOR: z.coerce.number({ message: 'must be a number' }).positive().max(100_000).default(1),
  RENDER_POLL_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int()
    .min(0)
    .max(24 * 3600)
    .default(30),
  REMIX_RENDERS_PER_DAY: z.coerce.number({ message: 'must be a number' }).int().min(1).max(100_000).default(30),
  REMIX_RENDER_SHARE: z.coerce.number({ message: 'must be a number between 0.05 and 1' }).min(0.05).max(1).default(0.5),
  SUBMISSIONS_WAITING_MAX: z.coerce.number({ message: 'must be a whole number' }).int().min(1).max(10_000).default(5),
  SUBMISSIONS_PER_DAY: z.coerce.number({ message: 'must be a whole number' }).int().min(1).max(100_000).default(10),
  REPORTS_PER_HOUR: z.coerce.number({ message: 'must be a whole number' }).int().min(1).max(100_000).default(10),
  BACKUP_DIR: optionalText,
  BACKUP_INTERVAL_HOURS: z.coerce
    .number({ message: 'must be a number of hours' })
    .min(0)
    .max(24 * 365)
    .default(24),
  BACKUP_KEEP: z.coerce.number({ message: 'must be a whole number of backups' }).int().min(1).max(1000).default(7),
  SEND_TIMEOUT_SECONDS: z.coerce.number({ message: 'must be a number of seconds' }).int().min(1).max(3600).default(30),
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().email('must be a comma-separated list of emails'))),
  FIREBASE_PROJECT_ID: z.string().min(1).default('demo-wumpus'),
  FIREBASE_API_KEY: optionalText,
  FIREBASE_AUTH_DOMAIN: optionalText,
  FIREBASE_APP_ID: optionalText,
  FIREBASE_AUTH_EMULATOR_HOST: optionalText.pipe(
    z
      .string()
      .regex(/^[\w.-]+:\d+$/, 'must be host:port')
      .optional(),
  ),
  MAX_GIF_BYTES: bytes(MAX_GIF_BYTES),
  MAX_APNG_BYTES: bytes(MAX_APNG_BYTES),
  MAX_LOTTIE_BYTES: bytes(MAX_LOTTIE_BYTES),
  MAX_IMAGE_BYTES: bytes(MAX_IMAGE_BYTES),
  SEED_DEMO: bool.default(true),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  TRUST_PROXY: bool.optional(),
  TRUST_PROXY_HOPS: optionalText.pipe(
    z.coerce
      .number<string | undefined>({ message: 'must be a whole number of proxies' })
      .int('must be a whole number of proxies')
      .min(0)
      .max(20)
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(
    z
      .string()
      .refine((value) => {
        try {
          const url = new URL(value)
          const web = url.protocol === 'https:' || url.protocol === 'http:'
          return web && url.pathname === '/' && !url.search && !url.hash && !url.username
        } catch {
          return false
        }
      }, 'must be an http(s) origin without a path, like https://stickers.example.com')
      .transform((value) => new URL(value).origin)
      .optional(),
  ),
  TELEGRAM_BOT_TOKEN: optionalText.pipe(
    z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must be the token BotFather gave (digits, a colon, then letters, digits, _ and -)')
      .optional(),
  ),
  TELEGRAM_SET_OWNER_ID: optionalText.pipe(
    z.coerce
      .number<string | undefined>({ message: 'must be a Telegram user id (a whole number)' })
      .int('must be a Telegram user id (a whole number)')
      .positive('must be a Telegram user id (a whole number)')
      .optional(),
  ),
  TELEGRAM_API_URL: z
    .string()
    .trim()
    .default('https://api.telegram.org')
    .refine((value) => {
      try {
        const url = new URL(value)
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash && !url.username
      } catch {
        return false
      }
    }, 'must be an http(s) URL like https://api.telegram.org'),
  // Issue 36: the bot hears `/start <code>` at POST /api/telegram/webhook (Telegram's secret_token) instead of polling.
  TELEGRAM_WEBHOOK_SECRET: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,256}$/, 'must be 16-256 letters, digits, _ and - (Telegram’s secret_token)')
      .optional(),
  ),
  ...DISCORD_ENV,
})

/** Builds the config from an environment, or throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`))
  }
  const e = parsed.data
  const production = e.NODE_ENV === 'production'
  const problems: string[] = []
  const demoProject = e.FIREBASE_PROJECT_ID.startsWith('demo-')
  if (production && !e.JWT_SECRET) problems.push('JWT_SECRET: required when NODE_ENV=production')
  // The emulator signs nothing: in production it would let anyone sign in as anyone.
  if (production && demoProject) {
    problems.push(
      `FIREBASE_PROJECT_ID: set your Firebase project id; "${e.FIREBASE_PROJECT_ID}" is a demo-* project, served by the Auth emulator, which NODE_ENV=production refuses`,
    )
  }
  if (production && e.FIREBASE_AUTH_EMULATOR_HOST) {
    problems.push('FIREBASE_AUTH_EMULATOR_HOST: must not be set when NODE_ENV=production (it trusts unsigned sign-in tokens); remove it')
  }
  if (!demoProject && !e.FIREBASE_API_KEY) problems.push('FIREBASE_API_KEY: required with a real Firebase project')
  // TRUST_PROXY=true alone means one balancer; TRUST_PROXY_HOPS alone says how many (0: none).
  const trustProxyHops = e.TRUST_PROXY_HOPS ?? (e.TRUST_PROXY ? 1 : 0)
  if (e.TRUST_PROXY === true && trustProxyHops === 0) {
    problems.push('TRUST_PROXY_HOPS: must be at least 1 with TRUST_PROXY=true (with no proxy in front, set TRUST_PROXY=false)')
  }
  if (e.TRUST_PROXY === false && trustProxyHops > 0) {
    problems.push('TRUST_PROXY_HOPS: proxies in front need TRUST_PROXY=true (or leave TRUST_PROXY unset)')
  }
  if (e.BACKUP_DIR && e.MONGODB_URI) {
    problems.push('BACKUP_DIR: backs up the embedded store; with MONGODB_URI back MongoDB up with mongodump or your provider’s backups')
  }
  if (e.TELEGRAM_BOT_TOKEN && e.TELEGRAM_SET_OWNER_ID === undefined) {
    problems.push('TELEGRAM_SET_OWNER_ID: required with TELEGRAM_BOT_TOKEN (the Telegram user id who owns the sets)')
  }
  if (!e.TELEGRAM_BOT_TOKEN && e.TELEGRAM_SET_OWNER_ID !== undefined) {
    problems.push('TELEGRAM_BOT_TOKEN: required with TELEGRAM_SET_OWNER_ID (the bot that makes the sets)')
  }
  if (e.TELEGRAM_WEBHOOK_SECRET && !e.TELEGRAM_BOT_TOKEN) {
    problems.push('TELEGRAM_BOT_TOKEN: required with TELEGRAM_WEBHOOK_SECRET (the bot whose updates come to the webhook)')
  }
  problems.push(...discordProblems(e))
  if (problems.length > 0) throw new ConfigError(problems)

  const dataDir = path.resolve(e.DATA_DIR)
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    staticDir: path.resolve(e.STATIC_DIR),
    ssrDir: path.resolve(e.SSR_DIR),
    mongodbUri: e.MONGODB_URI,
    jwtSecret: e.JWT_SECRET ?? localJwtSecret(dataDir),
    jwtTtlSeconds: e.JWT_TTL_SECONDS,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE_SECONDS,
    sessionIdleSeconds: e.SESSION_IDLE_SECONDS,
    rateLimitFactor: e.RATE_LIMIT_FACTOR,
    renderPollSeconds: e.RENDER_POLL_SECONDS,
    remixRendersPerDay: e.REMIX_RENDERS_PER_DAY,
    remixRenderShare: e.REMIX_RENDER_SHARE,
    submissionsWaitingMax: e.SUBMISSIONS_WAITING_MAX,
    submissionsPerDay: e.SUBMISSIONS_PER_DAY,
    reportsPerHour: e.REPORTS_PER_HOUR,
    sendTimeoutSeconds: e.SEND_TIMEOUT_SECONDS,
    backup: { dir: e.BACKUP_DIR && path.resolve(e.BACKUP_DIR), intervalHours: e.BACKUP_INTERVAL_HOURS, keep: e.BACKUP_KEEP },
    adminEmails: e.ADMIN_EMAILS,
    firebase: {
      projectId: e.FIREBASE_PROJECT_ID,
      apiKey: e.FIREBASE_API_KEY ?? 'demo-api-key',
      authDomain: e.FIREBASE_AUTH_DOMAIN ?? `${e.FIREBASE_PROJECT_ID}.firebaseapp.com`,
      appId: e.FIREBASE_APP_ID,
      authEmulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST ?? (demoProject ? '127.0.0.1:9099' : undefined),
    },
    limits: { gif: e.MAX_GIF_BYTES, apng: e.MAX_APNG_BYTES, lottie: e.MAX_LOTTIE_BYTES, image: e.MAX_IMAGE_BYTES },
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    trustProxy: trustProxyHops > 0,
    trustProxyHops,
    publicUrl: e.PUBLIC_URL,
    ...(e.TELEGRAM_BOT_TOKEN && e.TELEGRAM_SET_OWNER_ID !== undefined
      ? {
          telegram: {
            botToken: e.TELEGRAM_BOT_TOKEN,
            setOwnerId: e.TELEGRAM_SET_OWNER_ID,
            apiUrl: e.TELEGRAM_API_URL.replace(/\/+$/, ''),
            ...(e.TELEGRAM_WEBHOOK_SECRET ? { webhookSecret: e.TELEGRAM_WEBHOOK_SECRET } : {}),
          },
        }
      : {}),
    ...discordConfig(e),
    production,
  }
}

/**
 * Zero-config runs keep a random signing secret under DATA_DIR so sessions survive restarts. A kept one
 * shorter than JWT_SECRET's minimum (emptied, or written by hand) is replaced: sessions it signed end.
 */
function localJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret')
  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : ''
  if (kept.length >= JWT_SECRET_MIN) return kept
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

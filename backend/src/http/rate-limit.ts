import { createHmac } from 'node:crypto'
import type { Context, Middleware } from 'koa'
import type { Logger } from '../logger'
import { logSecurityEvent, routePattern } from '../security-log'
import type { RateCounter, Store } from '../store/port'
import { addressKey } from './client-address'
import { HttpError } from './http-error'

/** Hits allowed per window, for each caller's address (an IPv6 one by its /64) and for each account. */
interface Limit {
  perIp: number
  perAccount: number
  windowSeconds: number
  /** What is limited, as the 429 message says it. */
  what: string
}

/**
 * The limits (before RATE_LIMIT_FACTOR). Generous for people, tight for scripts: an admin publishing
 * a pack of stickers uploads a few dozen files in ten minutes, a person edits a profile a few times.
 */
export const RATE_LIMITS = {
  signIn: { perIp: 60, perAccount: 20, windowSeconds: 600, what: 'sign-ins' },
  profile: { perIp: 120, perAccount: 30, windowSeconds: 60, what: 'profile updates' },
  image: { perIp: 60, perAccount: 20, windowSeconds: 600, what: 'image uploads' },
  upload: { perIp: 300, perAccount: 150, windowSeconds: 600, what: 'animation uploads' },
  render: { perIp: 40, perAccount: 20, windowSeconds: 600, what: 'renders' },
  lottieLink: { perIp: 60, perAccount: 30, windowSeconds: 600, what: 'Lottie links' },
  // Gallery requests with a search query `q` (the API's and the server-rendered home's), not plain paging.
  search: { perIp: 120, perAccount: 120, windowSeconds: 60, what: 'searches' },
  // Adding and removing favourites: a person taps hearts, a device replays the changes it queued offline.
  favourite: { perIp: 600, perAccount: 300, windowSeconds: 600, what: 'favourite changes' },
  // Making, editing and deleting packs: a person arranging a pack, a device replaying its queued edits.
  pack: { perIp: 300, perAccount: 150, windowSeconds: 600, what: 'pack changes' },
  // Editing, sharing and deleting remixes: like a pack's changes (making one is a render).
  remixChange: { perIp: 300, perAccount: 150, windowSeconds: 600, what: 'remix changes' },
} satisfies Record<string, Limit>

export type LimitName = keyof typeof RATE_LIMITS

/** How many callers' refusals are remembered so as to be logged once per window. */
const MAX_LOGGED_CALLERS = 10_000

export interface RateLimits {
  /** Counts one hit for the caller's address; throws 429 (with Retry-After) when over the limit. */
  ip(name: LimitName, ctx: Context): Promise<void>
  /** Counts one hit for an account (an email or a Firebase uid); throws 429 when over. */
  account(name: LimitName, ctx: Context, account: string): Promise<void>
  /** Both, as middleware after requireSession (or optionalSession): the account is the signed-in email. */
  guard(name: LimitName): Middleware
  /** What guard counts, where a route knows only later whether a write is limited (a remix's, not an original's). */
  spend(name: LimitName, ctx: Context): Promise<void>
}

export interface RateLimitOptions {
  /** Multiplies every limit (RATE_LIMIT_FACTOR). */
  factor?: number
  /** Refused hits are logged to it as security events. */
  logger: Logger
  /** Keys the hash that names an account in those logs (the session secret: the same on every instance). */
  secret: string
}

/**
 * One set of counters for the whole app, kept by the store (memory, or MongoDB for every instance). The
 * caller's address is Koa's `ctx.ip`: behind TRUST_PROXY_HOPS proxies, the one the outermost of them saw.
 */
export function createRateLimits(store: Store, { factor = 1, logger, secret }: RateLimitOptions): RateLimits {
  const counters = new Map<LimitName, { ip: RateCounter; account: RateCounter }>()
  for (const [name, limit] of Object.entries(RATE_LIMITS) as [LimitName, Limit][]) {
    const points = (n: number) => Math.max(1, Math.round(n * factor))
    counters.set(name, {
      ip: store.rateCounter({ name: `${name}:ip`, points: points(limit.perIp), durationSeconds: limit.windowSeconds }),
      account: store.rateCounter({ name: `${name}:account`, points: points(limit.perAccount), durationSeconds: limit.windowSeconds }),
    })
  }

  const refuse = (name: LimitName, waitMs: number) => {
    if (waitMs <= 0) return
    const retryAfterSeconds = Math.ceil(waitMs / 1000)
    throw new HttpError(
      'RATE_LIMITED',
      `Too many ${RATE_LIMITS[name].what}; try again in ${retryAfterSeconds} s`,
      { limit: name, retryAfterSeconds },
      retryAfterSeconds,
    )
  }
  // A flood of refused requests is one log line per caller and window (per instance), not one per request.
  const loggedUntil = new Map<string, number>()
  const firstRefusal = (id: string, waitMs: number): boolean => {
    const now = Date.now()
    if ((loggedUntil.get(id) ?? 0) > now) return false
    if (loggedUntil.size >= MAX_LOGGED_CALLERS) {
      for (const [other, until] of loggedUntil) if (until <= now) loggedUntil.delete(other)
      if (loggedUntil.size >= MAX_LOGGED_CALLERS) loggedUntil.clear()
    }
    loggedUntil.set(id, now + waitMs)
    return true
  }
  const hit = async (name: LimitName, ctx: Context, by: 'address' | 'account', key: string) => {
    const waitMs = await counters.get(name)![by === 'address' ? 'ip' : 'account'].hit(key)
    if (waitMs > 0 && firstRefusal(`${name}\0${by}\0${key}`, waitMs)) {
      // Accounts are emails (other people's, on a sign-in) or uids: logged as a keyed hash that still groups
      // hits, and that a list of candidate emails cannot be matched against without the secret.
      const logged = by === 'address' ? key : createHmac('sha256', secret).update(key).digest('hex').slice(0, 16)
      logSecurityEvent(logger, { event: 'rate-limited', limit: name, by, key: logged, route: routePattern(ctx), ip: ctx.ip })
    }
    return waitMs
  }
  const hitIp = (name: LimitName, ctx: Context) => hit(name, ctx, 'address', addressKey(ctx.ip || 'unknown'))
  const hitAccount = (name: LimitName, ctx: Context, account: string) => hit(name, ctx, 'account', account.toLowerCase())

  const spend = async (name: LimitName, ctx: Context) => {
    const email = (ctx.state.session as { email?: string } | undefined)?.email
    const waits = await Promise.all([hitIp(name, ctx), email === undefined ? 0 : hitAccount(name, ctx, email)])
    refuse(name, Math.max(...waits))
  }

  return {
    ip: async (name, ctx) => refuse(name, await hitIp(name, ctx)),
    account: async (name, ctx, account) => refuse(name, await hitAccount(name, ctx, account)),
    guard: (name) => async (ctx, next) => {
      await spend(name, ctx)
      await next()
    },
    spend,
  }
}

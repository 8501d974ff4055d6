// How much rendering remixes may ask for: per account, REMIX_RENDERS_PER_DAY renders in a fixed day
// window counted in the store (a restart or a delete gives none back: made renders count, not live
// remixes); site-wide, remixes take at most REMIX_RENDER_SHARE of the render worker's time over the last
// 10 minutes, and none start while REMIX_BACKLOG_MAX remixes wait for their previews and chat app files
// (an admin's publish goes before those: services/render-queue.ts). RATE_LIMIT_FACTOR multiplies all
// three, as it does every limit (tests and benches lift them).
import type { Store } from '../store/port'
import { busy, rateLimited } from '../domain/errors'
import type { DerivedMediaService } from './derived-media'

/** The window the site-wide share is measured over. */
export const REMIX_SHARE_WINDOW_MS = 10 * 60_000
/** Remixes waiting for their previews and chat app files (on this instance) past which no new one is made. */
export const REMIX_BACKLOG_MAX = 20
/** Until the backlog has likely moved (a render of previews and exports or two). */
const BACKLOG_SECONDS = 60

export interface RemixBudget {
  /** Throws when a new remix may not be rendered now (busy, rate-limited); else counts one render for the account. */
  admit(account: string): Promise<void>
  /** Render time spent on a remix's own files (its GIF and APNG, made before the answer). */
  spent(ms: number): void
}

export interface RemixBudgetDeps {
  store: Store
  derivedMedia: Pick<DerivedMediaService, 'waiting' | 'remixRenderMs'>
  perDay: number
  share: number
  /** RATE_LIMIT_FACTOR: multiplies the day's renders, the share's time and the backlog (default 1). */
  factor?: number
  now?: () => number
}

export function createRemixBudget({ store, derivedMedia, perDay, share, factor = 1, now = Date.now }: RemixBudgetDeps): RemixBudget {
  const rendersPerDay = Math.max(1, Math.round(perDay * factor))
  const backlogMax = Math.max(1, Math.round(REMIX_BACKLOG_MAX * factor))
  const perAccount = store.rateCounter({ name: 'remix-renders:account', points: rendersPerDay, durationSeconds: 24 * 3600 })
  /** This instance's renders of remixes' own files, oldest first. */
  const renders: Array<{ at: number; ms: number }> = []
  const allowedMs = share * REMIX_SHARE_WINDOW_MS * factor

  function recentMs(): number {
    const since = now() - REMIX_SHARE_WINDOW_MS
    while (renders.length > 0 && renders[0]!.at < since) renders.shift()
    return renders.reduce((sum, render) => sum + render.ms, 0) + derivedMedia.remixRenderMs(REMIX_SHARE_WINDOW_MS)
  }

  return {
    async admit(account) {
      if (derivedMedia.waiting('remix') >= backlogMax) {
        throw busy(`Many remixes are waiting for their files; try again in ${BACKLOG_SECONDS} s`, BACKLOG_SECONDS, {
          reason: 'remix-backlog',
          retryAfterSeconds: BACKLOG_SECONDS,
        })
      }
      const over = recentMs() - allowedMs
      if (over >= 0) {
        // The excess has to age out of the window; at least the time one render takes.
        const retryAfterSeconds = Math.min(600, Math.max(10, Math.ceil(over / 1000)))
        throw busy(`Remixes have had their share of the server for now; try again in ${retryAfterSeconds} s`, retryAfterSeconds, {
          reason: 'remix-share',
          retryAfterSeconds,
        })
      }
      const waitMs = await perAccount.hit(account.toLowerCase())
      if (waitMs > 0) {
        const retryAfterSeconds = Math.ceil(waitMs / 1000)
        throw rateLimited(
          `You have made ${rendersPerDay} remixes today, the most for one day; try again in ${Math.ceil(retryAfterSeconds / 3600)} h`,
          retryAfterSeconds,
          { limit: 'remix-renders', max: rendersPerDay, retryAfterSeconds },
        )
      }
    },

    spent(ms) {
      renders.push({ at: now(), ms })
    },
  }
}

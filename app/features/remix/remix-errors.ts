import type { RemixRefusal } from '../../../contract/remix/remix-api'
import { REMIXES_MAX } from '../../../contract/limits'
import { errorMessage } from '../../lib/error-message'
import { isApiError } from '../../lib/api-client'

const REFUSALS: Record<Exclude<RemixRefusal, 'caption-characters'>, string> = {
  'remix-of-remix': 'This is already someone’s version. Open the original and make yours from it.',
  'remixes-full': `You have ${REMIXES_MAX} remixes, the most one account keeps. Delete one under My animation to make another.`,
  'unknown-colour-slot': 'This sticker’s colours changed since you opened it. Press Reset and choose your colours again.',
}

/** Why a remix could not be made, in words a person can act on; the server's own words otherwise. */
export function remixErrorMessage(error: unknown): string {
  if (!isApiError(error)) return errorMessage(error)
  const details = (error.details ?? {}) as { reason?: unknown; retryAfterSeconds?: unknown }
  // The server says which script or characters the caption font lacks (contract/remix/caption-font.ts).
  if (details.reason === 'caption-characters') return error.message
  const refusal = typeof details.reason === 'string' ? REFUSALS[details.reason as keyof typeof REFUSALS] : undefined
  if (refusal) return refusal
  if (error.code === 'SERVER_BUSY' || error.code === 'RATE_LIMITED') {
    const wait = Number(details.retryAfterSeconds)
    const when = Number.isFinite(wait) && wait > 0 ? `in ${duration(wait)}` : 'in a moment'
    if (error.code === 'SERVER_BUSY') return `The server is busy making other stickers. Try again ${when}.`
    const limit = error.details as { limit?: unknown; max?: unknown } | undefined
    // The day's remix renders (deleting a remix gives none back).
    if (limit?.limit === 'remix-renders' && typeof limit.max === 'number') {
      return `You have made ${limit.max} remixes today, the most for one day. Try again ${when}.`
    }
    return `You made many stickers just now. Try again ${when}.`
  }
  return error.message
}

/** A wait in words: seconds, minutes or hours, whichever reads best. */
function duration(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  if (seconds < 90) return unit(Math.ceil(seconds), 'second')
  if (seconds < 90 * 60) return unit(Math.ceil(seconds / 60), 'minute')
  return unit(Math.ceil(seconds / 3600), 'hour')
}

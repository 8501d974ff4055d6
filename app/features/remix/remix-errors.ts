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
    const when = Number.isFinite(wait) && wait > 0 ? `in ${Math.ceil(wait)} ${Math.ceil(wait) === 1 ? 'second' : 'seconds'}` : 'in a moment'
    return error.code === 'SERVER_BUSY'
      ? `The server is busy making other stickers. Try again ${when}.`
      : `You made many stickers just now. Try again ${when}.`
  }
  return error.message
}

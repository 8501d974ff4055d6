import type { MediaFormat } from '../../../../contract/limits'
import type { InspectedFormat, MediaInfo } from '../../../../contract/media'
import { inspectGif } from './inspect-gif'
import { inspectLottie } from './inspect-lottie'
import { hasPngSignature, inspectApng, pngHasAnimationControl } from './inspect-png'
import { MediaError } from './media-error'

/**
 * What the bytes claim to be, from their first bytes only (no validation). PNG is 'apng' when an
 * acTL chunk comes before the image data. Anything whose first non-blank byte is '{' is 'lottie'.
 */
export function sniffFormat(bytes: Uint8Array): InspectedFormat | undefined {
  if (hasPngSignature(bytes)) return pngHasAnimationControl(bytes) ? 'apng' : 'png'
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return 'gif'
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return 'webp'
  let i = 0
  while (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09) i++
  if (bytes[i] === 0x7b) return 'lottie'
  return undefined
}

/**
 * Inspects an uploaded animation that must be `expected`. Throws MediaError: WRONG_FORMAT when the
 * bytes are another known format (details.actual says which), NOT_ANIMATED for a still PNG given as
 * APNG, TOO_LARGE beyond MAX_MEDIA_DIMENSION / MAX_MEDIA_FRAMES, and the inspectors' other codes.
 * Byte-size limits are the HTTP layer's job.
 */
export function inspectMedia(bytes: Uint8Array, expected: MediaFormat): MediaInfo {
  if (bytes.length === 0) throw new MediaError('EMPTY')
  const actual = sniffFormat(bytes)
  // A still PNG is the right file type for 'apng'; inspectApng then says NOT_ANIMATED.
  const family = actual === 'png' ? 'apng' : actual
  if (family !== undefined && family !== expected) {
    throw new MediaError('WRONG_FORMAT', { expected, actual })
  }
  switch (expected) {
    case 'gif':
      return inspectGif(bytes)
    case 'apng':
      return inspectApng(bytes)
    case 'lottie':
      return inspectLottie(bytes)
  }
}

function startsWith(bytes: Uint8Array, text: string, at = 0): boolean {
  if (bytes.length < at + text.length) return false
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false
  return true
}

import { z } from 'zod'
import { CONTENT_TYPE } from './limits'

/** Why an uploaded file was refused after inspecting its bytes. */
export const mediaErrorCodes = [
  'EMPTY',
  'TRUNCATED',
  'BAD_SIGNATURE',
  'WRONG_FORMAT',
  'POLYGLOT',
  'BAD_CRC',
  'NOT_ANIMATED',
  'BAD_STRUCTURE',
  'TOO_LARGE',
  'INVALID_JSON',
  'NOT_LOTTIE',
  'TOO_COMPLEX',
] as const
export type MediaErrorCode = (typeof mediaErrorCodes)[number]
export const mediaErrorCodeSchema = z.enum(mediaErrorCodes)

export const mediaErrorMessages: Record<MediaErrorCode, string> = {
  EMPTY: 'The file is empty.',
  TRUNCATED: 'The file is incomplete: it ends before the image does. Try uploading it again.',
  BAD_SIGNATURE: 'The file is not an image in a supported format.',
  WRONG_FORMAT: 'The file is in a different format than expected (for example a PNG named .gif).',
  POLYGLOT: 'The file carries extra data besides the image (bytes after its end, or hidden markup).',
  BAD_CRC: 'The file is corrupted: a checksum does not match.',
  NOT_ANIMATED: 'The image is not animated: an animated PNG (APNG) is required.',
  BAD_STRUCTURE: 'The file is damaged or malformed.',
  TOO_LARGE: 'The image is too large: too many pixels or too many frames.',
  INVALID_JSON: 'The file is not valid UTF-8 JSON.',
  NOT_LOTTIE: 'The JSON is not a Lottie animation.',
  TOO_COMPLEX:
    'The animation is too complex: too many layers, effects, shapes (repeated copies included), images, nested compositions or gradient colour stops.',
}

/** Every format the inspectors recognise; gif, apng and lottie are the animation formats. */
export const inspectedFormats = ['gif', 'apng', 'lottie', 'png', 'jpeg', 'webp'] as const
export type InspectedFormat = (typeof inspectedFormats)[number]

export const INSPECTED_CONTENT_TYPE: Record<InspectedFormat, string> = {
  ...CONTENT_TYPE,
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
}

/** What the server learnt about a file from its bytes. */
export const mediaInfoSchema = z.object({
  format: z.enum(inspectedFormats),
  contentType: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** 1 for still images. A one-frame GIF is accepted and reported as frames: 1. */
  frames: z.number().int().positive(),
  /** Sum of the frame delays as written in the file (0 for stills). */
  durationMs: z.number().int().nonnegative(),
  /**
   * How many times a browser plays the animation; 0 = forever. 1 for stills.
   * GIF: no NETSCAPE2.0 block = 1, else its loop count + 1 (browsers repeat that many extra times).
   * APNG: acTL num_plays. WebP: ANIM loop count. Lottie: 0 (players loop; the file does not say).
   */
  loop: z.number().int().nonnegative(),
  /** File size in bytes. */
  bytes: z.number().int().nonnegative(),
})
export type MediaInfo = z.infer<typeof mediaInfoSchema>

/** Numbers and names shared by the app and the server. No zod here: the home page imports this file. */
export const PAGE_SIZE_DEFAULT = 24
export const PAGE_SIZE_MAX = 100

/** Upload limits in bytes; the server's config may lower them. */
export const MAX_GIF_BYTES = 8 * 1024 * 1024
export const MAX_APNG_BYTES = 8 * 1024 * 1024
export const MAX_LOTTIE_BYTES = 2 * 1024 * 1024
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024

/** Pixel and time bounds an animation file must stay within. */
export const MAX_MEDIA_DIMENSION = 4096
export const MAX_MEDIA_FRAMES = 2000

/** Every animation exists in these three formats. */
export const MEDIA_FORMATS = ['gif', 'apng', 'lottie'] as const
export type MediaFormat = (typeof MEDIA_FORMATS)[number]

export const CONTENT_TYPE: Record<MediaFormat, string> = {
  gif: 'image/gif',
  apng: 'image/apng',
  lottie: 'application/json',
}

/** Ids are 24 lowercase hex characters (ObjectId-like) on every store. */
export const ID_PATTERN = /^[0-9a-f]{24}$/

/** Response headers of the paged lists. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count'
export const LINK_HEADER = 'Link'

/** How many of the most used tags the home page offers as chips (GET /api/tags?limit=). */
export const HOME_TAG_CHIPS = 12

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

/**
 * Profile photos and covers: at most this many frames, and this many pixels in all frames together
 * (what a browser must decode to show it), whatever the file size.
 */
export const MAX_PROFILE_IMAGE_FRAMES = 100
export const MAX_PROFILE_IMAGE_PIXELS = 32 * 1024 * 1024
/** Uploaded profile images not yet used as a photo or cover, per user; older ones make room for new ones. */
export const MAX_PENDING_IMAGES = 5
/** All the text fields of one multipart upload together (names, descriptions, a link). */
export const MAX_MULTIPART_FIELDS_BYTES = 8 * 1024

/** How complex a Lottie may be: the renderer's work grows with each of these. */
export const MAX_LOTTIE_LAYERS = 1000
/** Shape items, each counted once per copy its repeaters make (nested repeaters multiply). */
export const MAX_LOTTIE_SHAPES = 20_000
/** Layer effects (blurs, shadows...), counted in precompositions each time they are used. */
export const MAX_LOTTIE_EFFECTS = 100
/** Precomposition layers inside precompositions, this deep at most (and never in a cycle). */
export const MAX_LOTTIE_PRECOMP_DEPTH = 10
export const MAX_LOTTIE_IMAGES = 20
/**
 * Colour stops of one gradient (its `g.p`); real files use 2 to a dozen. Each stop is 4 numbers of `g.k`
 * (position, r, g, b), and an opacity stop 2 more, so a value has at most 6 per stop.
 */
export const MAX_LOTTIE_GRADIENT_STOPS = 32

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

/** The gallery bot's one-time start link (a 409's details when the owner's Telegram is not linked). */
export const TELEGRAM_START_URL_PATTERN = /^https:\/\/t\.me\/[A-Za-z0-9_]{5,32}\?start=[A-Za-z0-9_-]{1,64}$/

/** Response headers of the paged lists. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count'
export const LINK_HEADER = 'Link'

/**
 * Emoji on a sticker: chat apps read the first EMOJI_PRIMARY (WhatsApp takes 1 to 3; Signal and Discord
 * the first), Telegram up to EMOJI_MAX. More than EMOJI_MAX may be sent when repeats are among them.
 */
export const EMOJI_PRIMARY = 3
export const EMOJI_MAX = 20
export const EMOJI_INPUT_MAX = 50
/** Search keywords on a sticker, within Telegram's rule: at most 20, 64 characters in all. */
export const KEYWORDS_MAX = 20
export const KEYWORDS_TOTAL_MAX = 64
/** The emoji a sticker without any gets in pack files (chat apps require one). */
export const FALLBACK_EMOJI = '🙂'

/** How many of the most used tags the home page offers as chips (GET /api/tags?limit=). */
export const HOME_TAG_CHIPS = 12
/** How many of the most used emoji the home page offers as chips (GET /api/emoji?limit=). */
export const HOME_EMOJI_CHIPS = 8

/** Sticker packs: how many stickers one holds, and its texts. */
export const PACK_ITEMS_MIN = 1
export const PACK_ITEMS_MAX = 200
export const PACK_NAME_MIN = 3
export const PACK_NAME_MAX = 60
export const PACK_DESCRIPTION_MAX = 500

/** Favourites one account keeps at most. */
export const FAVOURITES_MAX = 2000
/** Personal packs one account keeps at most. */
export const PERSONAL_PACKS_MAX = 100
/** Remixes (own versions of stickers, contract/remix/remix-api.ts) one account keeps at most. */
export const REMIXES_MAX = 50

/** WhatsApp takes packs of 3 to 30 stickers, all animated or all still, with a 96x96 PNG tray icon of at most 50 KB. */
export const WHATSAPP_PACK_MIN = 3
export const WHATSAPP_PACK_MAX = 30
export const WHATSAPP_TRAY_SIZE = 96
export const WHATSAPP_TRAY_MAX_BYTES = 50_000
/** LINE sells animated sticker sets of these sizes, with a main image and a chat tab image (PNG, at most 1 MB). */
export const LINE_SET_SIZES = [8, 16, 24] as const
/** LINE Creators Market: a submission ZIP of all a set's images is at most 20 MB (creator.line.me/en/guideline/animationsticker/). */
export const LINE_ZIP_MAX_BYTES = 20_000_000
export const LINE_MAIN_SIZE = { width: 240, height: 240 }
export const LINE_TAB_SIZE = { width: 96, height: 74 }
export const PACK_IMAGE_MAX_BYTES = 1_000_000
/** Telegram sets hold at most this many animated stickers, or custom emoji; Signal packs at most 200 stickers. */
export const TELEGRAM_SET_MAX = 120
export const TELEGRAM_EMOJI_SET_MAX = 200
export const SIGNAL_PACK_MAX = 200

import { z } from 'zod'
import { EMOJI_MAX, EMOJI_PRIMARY, FALLBACK_EMOJI } from './limits'
import { pickMediaFacts, type MediaFacts } from './media-facts'
import { PLATFORM_LABELS, PLATFORMS, type Platform } from './platforms'

export { PLATFORMS, type Platform }

export interface PlatformRules {
  label: string
  /** The file kind, as people call it. */
  kind: 'APNG' | 'GIF' | 'animated WebP' | 'TGS'
  contentType: string
  /** Added to the animation's name: `waving-wumpus.discord.png`, `waving-wumpus.discord-emoji.gif`. */
  extension: string
  maxBytes: number
  /** The cap as the platform states it. */
  maxBytesLabel: string
  maxDurationMs: number
  /** Canvas limits: exact size, or the box a sticker must fit. */
  canvas: { exact?: number; maxWidth?: number; maxHeight?: number; square?: boolean; minLongSide?: number }
  minFrames?: number
  maxFrames?: number
  /** Allowed play counts; 0 means forever. */
  plays?: { min: number; max: number } | 'forever'
  /** Frames shorter than this are refused. */
  minFrameMs?: number
  fps?: number
  /** 'truecolour': an APNG must not be indexed (PNG colour type 3), for clients that cannot play one. */
  colour?: 'truecolour'
  /** 'whole': the first frame is what the app shows where animation is off, so it must show the whole sticker (FIRST_FRAME_MIN_COVER). */
  firstFrame?: 'whole'
  /**
   * How many of a sticker's emoji the app takes with it (its first ones): 0 for none. Telegram suggests a
   * sticker for each; WhatsApp searches by them; Signal and Discord stickers have one.
   */
  emoji: number
}

/**
 * The platforms' published rules for animated stickers and custom emoji (as of 2026). Sizes in decimal bytes where a
 * platform says KB, binary where it says KiB, so every file is within the stricter reading.
 */
export const PLATFORM_RULES: Record<Platform, PlatformRules> = {
  // Discord's Create Guild Sticker (discord.com/developers/docs/resources/sticker#create-guild-sticker): PNG, APNG,
  // GIF or Lottie, at most 512 KB, 320x320, an animated sticker at most 5 s; names and tags in DISCORD_STICKER_NAME/TAGS.
  discord: {
    label: PLATFORM_LABELS.discord,
    emoji: 1,
    kind: 'APNG',
    contentType: 'image/apng',
    extension: 'discord.png',
    maxBytes: 512_000,
    maxBytesLabel: '512 KB',
    maxDurationMs: 5000,
    canvas: { exact: 320 },
  },
  // Custom emoji: Discord also takes WebP and PNG; a GIF plays everywhere Discord runs.
  'discord-emoji': {
    label: PLATFORM_LABELS['discord-emoji'],
    emoji: 0,
    kind: 'GIF',
    contentType: 'image/gif',
    extension: 'discord-emoji.gif',
    maxBytes: 256 * 1024,
    maxBytesLabel: '256 KiB',
    maxDurationMs: Infinity,
    canvas: { exact: 128 },
  },
  telegram: {
    label: PLATFORM_LABELS.telegram,
    emoji: EMOJI_MAX,
    kind: 'TGS',
    contentType: 'application/x-tgsticker',
    extension: 'telegram.tgs',
    maxBytes: 64_000,
    maxBytesLabel: '64 KB',
    maxDurationMs: 3000,
    canvas: { exact: 512 },
    fps: 60,
  },
  // Custom emoji: the sticker's rules (and feature limits) on a 100x100 canvas.
  'telegram-emoji': {
    label: PLATFORM_LABELS['telegram-emoji'],
    emoji: EMOJI_MAX,
    kind: 'TGS',
    contentType: 'application/x-tgsticker',
    extension: 'telegram-emoji.tgs',
    maxBytes: 64_000,
    maxBytesLabel: '64 KB',
    maxDurationMs: 3000,
    canvas: { exact: 100 },
    fps: 60,
  },
  // WhatsApp/stickers README (Android, "Sticker art and app requirements"): animated WebP, 512x512, at most 500 KB,
  // at most 10 s, frames at least 8 ms. It shows the first frame where animation is off: see FIRST_FRAME_MIN_COVER.
  whatsapp: {
    label: PLATFORM_LABELS.whatsapp,
    emoji: EMOJI_PRIMARY,
    kind: 'animated WebP',
    contentType: 'image/webp',
    extension: 'whatsapp.webp',
    maxBytes: 500_000,
    maxBytesLabel: '500 KB',
    maxDurationMs: 10_000,
    canvas: { exact: 512 },
    minFrameMs: 8,
    firstFrame: 'whole',
  },
  // Signal's support page "Sticker packs" (animated: APNG, at most 300 KiB, at most 3 s, 512x512, one
  // emoji each), as quoted in signalstickers/stickers-scripts#3 (2025). Signal on iPhone shows an indexed
  // APNG as a still (signalapp/Signal-iOS#4611, #4782, #5320: wontfix), so the file is truecolour with alpha.
  signal: {
    label: PLATFORM_LABELS.signal,
    emoji: 1,
    kind: 'APNG',
    contentType: 'image/apng',
    extension: 'signal.png',
    maxBytes: 300 * 1024,
    maxBytesLabel: '300 KiB',
    maxDurationMs: 3000,
    canvas: { maxWidth: 512, maxHeight: 512, square: true },
    plays: 'forever',
    colour: 'truecolour',
  },
  // LINE Creators Market, "Animated Sticker Creation Guidelines" (creator.line.me/en/guideline/animationsticker/,
  // checked 2026-12): APNG within 320x270 with one side at least 270; 5 to 20 frames; 1 to 4 loops whose
  // combined length is at most 4 s; at most 300 KB per image; sets of 8, 16 or 24 (LINE_SET_SIZES), in one
  // ZIP of at most 20 MB (LINE_ZIP_MAX_BYTES). The first frame is the still LINE shows in its store.
  line: {
    label: PLATFORM_LABELS.line,
    emoji: 0,
    kind: 'APNG',
    contentType: 'image/apng',
    extension: 'line.png',
    maxBytes: 300_000,
    maxBytesLabel: '300 KB',
    maxDurationMs: 4000,
    canvas: { maxWidth: 320, maxHeight: 270, minLongSide: 270 },
    minFrames: 5,
    maxFrames: 20,
    plays: { min: 1, max: 4 },
  },
  slack: {
    label: PLATFORM_LABELS.slack,
    emoji: 0,
    kind: 'GIF',
    contentType: 'image/gif',
    extension: 'slack.gif',
    maxBytes: 128_000,
    maxBytesLabel: '128 KB',
    maxDurationMs: Infinity,
    canvas: { exact: 128 },
    maxFrames: 50,
  },
}

/**
 * A Discord sticker's name: 2 to 30 characters (Create Guild Sticker's `name`,
 * discord.com/developers/docs/resources/sticker#create-guild-sticker).
 */
export const DISCORD_STICKER_NAME = { min: 2, max: 30 } as const
/**
 * A Discord sticker's tags: for a guild sticker, "the Discord name of a unicode emoji representing the sticker's
 * expression", 2 to 200 characters (the same page's `tags`; the Sticker object calls them autocomplete/suggestion tags).
 */
export const DISCORD_STICKER_TAGS = { min: 2, max: 200 } as const

/**
 * Where an app shows only the first frame (WhatsApp with animation off, WhatsApp/stickers README; LINE's store),
 * that frame must show the whole sticker: its opaque pixels at least this share of the most any frame has.
 * A fade-in or a sticker that grows from nothing starts nearly empty; its file starts at its first frame that
 * covers this much instead (the loop is the same, begun later), and its notes say so.
 */
export const FIRST_FRAME_MIN_COVER = 0.8

/** The note a Discord sticker file carries when its animation's name is not one Discord takes; undefined when it is. */
export function discordNameNote(name: string): string | undefined {
  const sticker = discordStickerName(name)
  if (!sticker.cut) return undefined
  return `Name it “${sticker.name}” in Discord, which takes sticker names of ${DISCORD_STICKER_NAME.min} to ${DISCORD_STICKER_NAME.max} characters`
}

/**
 * A Discord sticker name for an animation's name: cut at a word boundary to at most 30 characters (whole
 * characters, never half an emoji), or `fallback` when fewer than 2 are left. `cut` says whether it changed.
 */
export function discordStickerName(name: string, fallback = 'Wumpus'): { name: string; cut: boolean } {
  const chars = [...name.trim().replace(/\s+/g, ' ')]
  if (chars.length < DISCORD_STICKER_NAME.min) return { name: fallback, cut: true }
  if (chars.length <= DISCORD_STICKER_NAME.max) return { name: chars.join(''), cut: false }
  const head = chars.slice(0, DISCORD_STICKER_NAME.max).join('')
  const space = head.lastIndexOf(' ')
  const cut = (space >= DISCORD_STICKER_NAME.min ? head.slice(0, space) : head).replace(/[\s,.;:–-]+$/u, '')
  return { name: [...cut].length >= DISCORD_STICKER_NAME.min ? cut : head, cut: true }
}

export const platformSchema = z.enum(PLATFORMS)

/**
 * The emoji a platform's file goes with: the sticker's first ones, as many as the platform takes, or
 * FALLBACK_EMOJI for a sticker without any (the apps require one); none where the platform takes none.
 */
export function platformEmoji(platform: Platform, emoji: readonly string[]): string[] {
  const count = PLATFORM_RULES[platform].emoji
  if (count === 0) return []
  return emoji.length > 0 ? emoji.slice(0, count) : [FALLBACK_EMOJI]
}

/**
 * One platform's file for an animation, as GET /api/wumpus/{id}/stickers lists it. `status` is
 * 'ready' with the file's facts, 'absent' when it cannot be made (notes say why), or 'pending' while
 * the server is still making it. Notes also say what a ready file gave up to fit (colours, frame rate).
 */
export const stickerExportSchema = z.object({
  platform: platformSchema,
  label: z.string(),
  status: z.enum(['ready', 'absent', 'pending']),
  url: z.string().nullable(),
  fileName: z.string().nullable(),
  contentType: z.string().nullable(),
  bytes: z.number().int().nonnegative().nullable(),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  frames: z.number().int().positive().nullable(),
  durationMs: z.number().int().nonnegative().nullable(),
  /** The emoji the file goes with in this app (platformEmoji); [] where the app takes none. */
  emoji: z.array(z.string()),
  notes: z.array(z.string()),
})
export type StickerExport = z.infer<typeof stickerExportSchema>

export const stickerExportListSchema = z.array(stickerExportSchema)

/** What the server made for one platform: the file, with its URL, name and facts, or the notes saying why there is none. */
export interface MadeSticker {
  platform: Platform
  file?: MediaFacts & { url: string; fileName: string }
  notes: string[]
}

/** What the list says of a platform's file while the server is still making it. */
export const STICKER_PENDING_NOTE = 'Being made: the server renders it from the Lottie, usually within a minute.'

/**
 * An animation's chat app files as GET /api/wumpus/{id}/stickers lists them, from what the server made for
 * it (undefined: nothing yet, from its current Lottie): one entry per platform, 'ready' with the file's facts,
 * 'absent' with why, or 'pending' while it is being made. `emoji` are the animation's, in order.
 */
export function stickerExports(made: readonly MadeSticker[] | undefined, emoji: readonly string[]): StickerExport[] {
  return PLATFORMS.map((platform) => {
    const base = {
      platform,
      label: PLATFORM_RULES[platform].label,
      url: null,
      fileName: null,
      contentType: null,
      bytes: null,
      width: null,
      height: null,
      frames: null,
      durationMs: null,
      emoji: platformEmoji(platform, emoji),
    }
    const one = made?.find((e) => e.platform === platform)
    if (!one) return { ...base, status: 'pending' as const, notes: [STICKER_PENDING_NOTE] }
    const file = one.file
    if (!file) return { ...base, status: 'absent' as const, notes: one.notes }
    return { ...base, status: 'ready' as const, ...pickMediaFacts(file), url: file.url, fileName: file.fileName, notes: one.notes }
  })
}

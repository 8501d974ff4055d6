// Discord's rules for what a bot uploads to a server (Discord API: Create Guild Sticker, Create Guild Emoji, guild
// premium tiers), as pure functions: the names, the sticker's tags, the slots a server has and how a pack's
// stickers and emoji are split into what fits and what does not.
import joypixelsShortcodes from 'emojibase-data/en/shortcodes/joypixels.json'
import { DISCORD_STICKER_NAME, DISCORD_STICKER_TAGS, discordStickerName } from '../../../contract/stickers'
import type { WumpusRecord } from '../store/port'

/** Sticker names: 2-30 characters. */
export const STICKER_NAME_MAX = DISCORD_STICKER_NAME.max
/** Emoji names: 2-32 of A-Z, a-z, 0-9 and _. */
export const EMOJI_NAME_MIN = 2
export const EMOJI_NAME_MAX = 32
/** Sticker files: PNG, APNG or GIF, at most 512 KiB; emoji images at most 256 KiB. */
export const STICKER_MAX_BYTES = 512 * 1024
export const EMOJI_MAX_BYTES = 256 * 1024
/** Sticker slots by premium (boost) tier 0-3. */
export const STICKER_SLOTS = [5, 15, 30, 60] as const
/** Emoji slots by tier, for each kind (static and animated are counted apart). */
export const EMOJI_SLOTS = [50, 100, 150, 250] as const
/** The expressions permissions the bot asks for: CREATE_GUILD_EXPRESSIONS (1 << 43) and MANAGE_GUILD_EXPRESSIONS (1 << 30). */
export const EXPRESSIONS_PERMISSIONS = ((1n << 43n) | (1n << 30n)).toString()

const tierOf = (tier: number) => Math.min(3, Math.max(0, Math.trunc(tier) || 0))
export const stickerSlots = (tier: number): number => STICKER_SLOTS[tierOf(tier)] ?? STICKER_SLOTS[0]
export const emojiSlots = (tier: number): number => EMOJI_SLOTS[tierOf(tier)] ?? EMOJI_SLOTS[0]

/** Cuts to at most `max` characters (code points, never half an emoji) and trims what the cut left at the end. */
const cut = (text: string, max: number) => [...text].slice(0, max).join('').trim()

/** A sticker's name: the animation's cut at a word to 2-30 characters, as its Discord file's note names it. */
export const stickerName = (name: string) => discordStickerName(name).name

/** An emoji's name: the animation's in A-Za-z0-9_ (other runs become one _), 2-32 characters. */
export function emojiName(name: string): string {
  const clean = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, EMOJI_NAME_MAX)
    .replace(/_+$/, '')
  if (clean.length >= EMOJI_NAME_MIN) return clean
  return clean ? `${clean}_emoji` : 'emoji'
}

/**
 * Names unique within a list, compared without case as Discord does: a repeat gets " 2", " 3" (stickers) or
 * "_2", "_3" (emoji), the name cut so that the whole stays within `max`.
 */
export function uniqueNames(names: string[], kind: 'sticker' | 'emoji', taken: Iterable<string> = []): string[] {
  const seen = new Set([...taken].map((n) => n.toLowerCase()))
  const max = kind === 'sticker' ? STICKER_NAME_MAX : EMOJI_NAME_MAX
  const join = kind === 'sticker' ? ' ' : '_'
  return names.map((name) => {
    let candidate = name
    for (let n = 2; seen.has(candidate.toLowerCase()); n++) {
      const suffix = `${join}${n}`
      candidate = `${cut(name, max - suffix.length)}${suffix}`
    }
    seen.add(candidate.toLowerCase())
    return candidate
  })
}

/** 🙂's name in Discord, the tag of a sticker without emoji (FALLBACK_EMOJI). */
const FALLBACK_TAG = 'slight_smile'

const SHORTCODES = joypixelsShortcodes as Record<string, string | string[] | undefined>

/**
 * The name Discord knows a unicode emoji by ("wave" for 👋, "slight_smile" for 🙂, "thumbsup" for 👍): Discord
 * does not publish its list; its names are EmojiOne's, whose successor JoyPixels lists them first (emojibase's
 * joypixels short names; the later aliases, such as "waving_hand", Discord does not take).
 * Undefined for a character that is not a known emoji.
 */
export function discordEmojiTag(char: string): string | undefined {
  const hex = (text: string) => [...text].map((c) => c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')).join('-')
  const codes = SHORTCODES[hex(char)] ?? SHORTCODES[hex(char.replace(/\uFE0F/g, ''))]
  return Array.isArray(codes) ? codes[0] : codes
}

/** Whether Discord knows an emoji by this name (the first names above). */
export function isDiscordEmojiName(name: string): boolean {
  knownNames ??= new Set(Object.values(SHORTCODES).map((codes) => (Array.isArray(codes) ? codes[0] : codes)))
  return knownNames.has(name)
}
let knownNames: Set<string | undefined> | undefined

/**
 * A sticker's tags: "the Discord name of a unicode emoji representing the sticker's expression" (Create Guild
 * Sticker), here the name of its first emoji Discord knows ("wave" for 👋, not the Unicode name "waving_hand",
 * which Discord refuses), or 🙂's.
 */
export function stickerTags(record: Pick<WumpusRecord, 'emoji'>): string {
  for (const { char } of record.emoji) {
    const tag = discordEmojiTag(char)
    if (tag && tag.length >= DISCORD_STICKER_TAGS.min && tag.length <= DISCORD_STICKER_TAGS.max) return tag
  }
  return FALLBACK_TAG
}

/** Splits what is wanted into what fits in `free` slots (in order) and the rest. */
export function splitBySlots<T>(wanted: T[], free: number): { fit: T[]; rest: T[] } {
  const room = Math.max(0, free)
  return { fit: wanted.slice(0, room), rest: wanted.slice(room) }
}

/** What the person reads for an item that found no slot. */
export function noSlotReason(kind: 'sticker' | 'emoji', used: number, slots: number, tier: number): string {
  const what = kind === 'sticker' ? 'sticker' : 'animated emoji'
  return `No ${what} slot left: the server holds ${used} of ${slots} (boost level ${tierOf(tier)})`
}

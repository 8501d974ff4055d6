// Telegram's rules for a sticker set a bot makes (Bot API: createNewStickerSet, addStickerToSet, InputSticker),
// as pure functions: the set's name and title, each sticker's emoji and keywords, and how a pack's stickers
// are split into the one create call and the adds after it.
import { FALLBACK_EMOJI } from '../../../contract/limits'
import { platformEmoji } from '../../../contract/stickers'
import type { PackRecord, WumpusRecord } from '../store/port'

/** Set names and titles: 1-64 characters. */
export const SET_NAME_MAX = 64
export const SET_TITLE_MAX = 64
/** Stickers one createNewStickerSet call takes. */
export const CREATE_MAX = 50
/** Stickers a regular sticker set holds. */
export const SET_MAX = 120
/** Custom emoji a custom emoji set holds. */
export const EMOJI_SET_MAX = 200

/** A pack's two sets: its sticker set, and its custom emoji set (`sticker_type: 'custom_emoji'`, 100x100 files). */
export type SetKind = 'stickers' | 'emoji'
/** Per sticker: 1-20 emoji, 0-20 keywords of at most 64 characters together. */
export const STICKER_EMOJI_MAX = 20
export const STICKER_KEYWORDS_MAX = 20
export const STICKER_KEYWORD_CHARS_MAX = 64

/** English letters, digits and single underscores, starting with a letter, ending in `_by_<bot>`, 1-64 characters. */
export function isSetName(name: string, botUsername: string): boolean {
  return (
    name.length <= SET_NAME_MAX &&
    /^[A-Za-z][A-Za-z0-9_]*$/.test(name) &&
    !name.includes('__') &&
    name.toLowerCase().endsWith(`_by_${botUsername.toLowerCase()}`)
  )
}

/**
 * The set's name: the pack's name in letters and digits (words joined by single underscores, cut to what fits),
 * the pack's id (so two packs of one name never share a set), `_e` for its custom emoji set, and the bot's suffix; `pack` when the name has
 * no English letter to start with. Throws when even `p<id>_by_<bot>` does not fit (a bot name past Telegram's 32).
 */
export function setName(pack: Pick<PackRecord, 'id' | 'name'>, botUsername: string, kind: SetKind = 'stickers'): string {
  // The emoji set's name differs from the sticker set's by `_e` before the bot's suffix (short, so a 32-character bot name still fits).
  const suffix = `_${pack.id}${kind === 'emoji' ? '_e' : ''}_by_${botUsername}`
  const words = pack.name
    .normalize('NFKD')
    // Accents come off their letters (é: e).
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
  let stem = words.join('_').replace(/^[^A-Za-z]+/, '')
  const room = SET_NAME_MAX - suffix.length
  if (room < 1) throw new Error(`The bot's username ${botUsername} is too long for a sticker set's name`)
  stem = stem.slice(0, room).replace(/_+$/, '')
  if (stem === '') stem = 'pack'.slice(0, room)
  return `${stem}${suffix}`
}

/** The set's title: the pack's name, cut to 64 characters (never inside a surrogate pair). */
export function setTitle(pack: Pick<PackRecord, 'name'>): string {
  const chars = [...pack.name.trim()]
  return (chars.length > SET_TITLE_MAX ? chars.slice(0, SET_TITLE_MAX - 1).join('') + '…' : chars.join('')) || 'Stickers'
}

/** The address that opens a set in Telegram: addstickers for a sticker set, addemoji for a custom emoji set. */
export const setUrl = (name: string, kind: SetKind = 'stickers') => `https://t.me/${kind === 'emoji' ? 'addemoji' : 'addstickers'}/${name}`

/** A sticker's emoji: its own (at most 20), or the fallback. */
export function stickerEmoji(record: Pick<WumpusRecord, 'emoji'>): string[] {
  const emoji = platformEmoji(
    'telegram',
    record.emoji.map((e) => e.char),
  ).slice(0, STICKER_EMOJI_MAX)
  return emoji.length > 0 ? emoji : [FALLBACK_EMOJI]
}

/** A sticker's keywords: its own in order, as many as fit in 20 and 64 characters together. */
export function stickerKeywords(record: Pick<WumpusRecord, 'keywords'>): string[] {
  const kept: string[] = []
  let chars = 0
  for (const keyword of record.keywords) {
    const length = [...keyword].length
    if (kept.length === STICKER_KEYWORDS_MAX) break
    if (length === 0 || chars + length > STICKER_KEYWORD_CHARS_MAX) continue
    kept.push(keyword)
    chars += length
  }
  return kept
}

/**
 * The stickers of a new set: the first 50 go with createNewStickerSet, the rest (up to 120 in all, 200 for a custom
 * emoji set) one addStickerToSet each.
 */
export function splitForCreate<T>(stickers: readonly T[], kind: SetKind = 'stickers'): { create: T[]; add: T[]; left: T[] } {
  const max = kind === 'emoji' ? EMOJI_SET_MAX : SET_MAX
  const kept = stickers.slice(0, max)
  return { create: kept.slice(0, CREATE_MAX), add: kept.slice(CREATE_MAX), left: stickers.slice(max) }
}

// How a chat app takes a pack: the stickers that have the app's file, cut into the packs (or sets) the app
// allows. WhatsApp: 3 to 30 per pack, still and animated never together; Telegram 120 (custom emoji 200);
// Signal 200; LINE sets of exactly 8, 16 or 24. Parts are balanced (31 -> 16 + 15, not 30 + 1) and keep
// the pack's order; what no part can hold is left out. Discord and Slack have no packs: one ZIP.
import {
  LINE_SET_SIZES,
  SIGNAL_PACK_MAX,
  TELEGRAM_EMOJI_SET_MAX,
  TELEGRAM_SET_MAX,
  WHATSAPP_PACK_MAX,
  WHATSAPP_PACK_MIN,
} from '../../../contract/limits'
import { listInWords, PACK_NOUN } from '../../../contract/pack-parts'
import type { Platform } from '../../../contract/stickers'

/** One part: stickers in pack order; `still` when they are all stills (WhatsApp's still packs). */
export interface SplitPart<T> {
  items: T[]
  still: boolean
}

export interface PackSplit<T> {
  parts: SplitPart<T>[]
  /** Stickers no part can hold (a WhatsApp group of fewer than 3, what is past LINE's last set), in pack order. */
  leftOut: T[]
}

/** The platforms that take packs only up to a size, and of what. */
const PACK_MAX: Partial<Record<Platform, { max: number; what: string }>> = {
  whatsapp: { max: WHATSAPP_PACK_MAX, what: 'stickers' },
  telegram: { max: TELEGRAM_SET_MAX, what: 'animated stickers' },
  'telegram-emoji': { max: TELEGRAM_EMOJI_SET_MAX, what: 'custom emoji' },
  signal: { max: SIGNAL_PACK_MAX, what: 'stickers' },
}

/** LINE's set sizes are 1, 2 and 3 times the smallest: sets are counted in units of it. */
const LINE_UNIT = LINE_SET_SIZES[0]
const LINE_UNITS_MAX = LINE_SET_SIZES[LINE_SET_SIZES.length - 1]! / LINE_UNIT

/** `total` cut into `count` sizes as even as possible, larger first: (31, 2) -> [16, 15]. */
export function balanced(total: number, count: number): number[] {
  const base = Math.floor(total / count)
  return Array.from({ length: count }, (_, i) => base + (i < total % count ? 1 : 0))
}

function cut<T>(items: T[], sizes: number[], still: boolean): SplitPart<T>[] {
  let start = 0
  return sizes.map((size) => ({ items: items.slice(start, (start += size)), still }))
}

/** The platform's parts of the stickers that have its file; `isStill` tells a still (fewer than 2 frames). */
export function splitPack<T>(platform: Platform, items: readonly T[], isStill: (item: T) => boolean): PackSplit<T> {
  const all = [...items]
  if (all.length === 0) return { parts: [], leftOut: [] }
  if (platform === 'whatsapp') {
    const parts: SplitPart<T>[] = []
    const leftOut = new Set<T>()
    for (const still of [false, true]) {
      const group = all.filter((item) => isStill(item) === still)
      if (group.length === 0) continue
      if (group.length < WHATSAPP_PACK_MIN) group.forEach((item) => leftOut.add(item))
      else parts.push(...cut(group, balanced(group.length, Math.ceil(group.length / WHATSAPP_PACK_MAX)), still))
    }
    return { parts, leftOut: all.filter((item) => leftOut.has(item)) }
  }
  const stillOnly = (part: T[]) => part.every(isStill)
  if (platform === 'line') {
    const units = Math.floor(all.length / LINE_UNIT)
    if (units === 0) return { parts: [], leftOut: all }
    const sizes = balanced(units, Math.ceil(units / LINE_UNITS_MAX)).map((n) => n * LINE_UNIT)
    const parts = cut(all, sizes, false).map((part) => ({ ...part, still: stillOnly(part.items) }))
    return { parts, leftOut: all.slice(units * LINE_UNIT) }
  }
  const max = PACK_MAX[platform]?.max ?? all.length
  const parts = cut(all, balanced(all.length, Math.ceil(all.length / max)), false)
  return { parts: parts.map((part) => ({ ...part, still: stillOnly(part.items) })), leftOut: [] }
}

const quoted = (names: string[]) => listInWords(names.map((name) => `“${name}”`))

/** What a pack page and each README say of a split: how the parts are cut, and what none holds (named). */
export function splitNotes<T>(platform: Platform, split: PackSplit<T>, nameOf: (item: T) => string, label: string): string[] {
  const { parts, leftOut } = split
  const notes: string[] = []
  const sizes = parts.map((part) => part.items.length)
  if (platform === 'whatsapp') {
    const mixed = parts.some((part) => part.still) && parts.some((part) => !part.still)
    const kind = (part: SplitPart<T>) => `${part.items.length} ${part.still ? 'still' : 'animated'}`
    if (mixed) {
      notes.push(
        `WhatsApp keeps still and animated stickers in separate packs of at most ${WHATSAPP_PACK_MAX}: this pack comes as ${parts.length} packs of ${listInWords(parts.map(kind))} stickers.`,
      )
    } else if (parts.length > 1) {
      notes.push(
        `WhatsApp takes at most ${WHATSAPP_PACK_MAX} stickers per pack: this pack comes as ${parts.length} packs of ${listInWords(sizes)}${parts[0]!.still ? ' still stickers' : ''}.`,
      )
    }
    if (leftOut.length > 0 && parts.length > 0) {
      const still = parts[0]!.still ? 'animated' : 'still'
      notes.push(
        `${leftOut.length === 1 ? `1 ${still} sticker is` : `${leftOut.length} ${still} stickers are`} left out, as WhatsApp packs need at least ${WHATSAPP_PACK_MIN} and never mix still and animated: ${quoted(leftOut.map(nameOf))}.`,
      )
    }
    return notes
  }
  if (platform === 'line') {
    const sets = listInWords(LINE_SET_SIZES, 'or')
    if (parts.length > 1) notes.push(`LINE sets have ${sets} stickers: this pack comes as ${parts.length} sets of ${listInWords(sizes)}.`)
    else if (parts.length === 1 && leftOut.length > 0) notes.push(`LINE sets have ${sets} stickers: this ZIP is a set of ${sizes[0]}.`)
    if (leftOut.length > 0 && parts.length > 0) {
      notes.push(
        `${leftOut.length === 1 ? '1 sticker is' : `${leftOut.length} stickers are`} left out, past the last set: ${quoted(leftOut.map(nameOf))}.`,
      )
    }
    return notes
  }
  const rule = PACK_MAX[platform]
  const noun = PACK_NOUN[platform]
  if (rule && parts.length > 1) {
    notes.push(
      `${label} ${noun}s hold at most ${rule.max} ${rule.what}: this pack comes as ${parts.length} ${noun}s of ${listInWords(sizes)}.`,
    )
  }
  return notes
}

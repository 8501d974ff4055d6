/**
 * The emoji a sticker may carry, from emojibase's Unicode data (CLDR names, GitHub shortcodes): the
 * write schemas and the picker use it. It is large (99 KB gzip, a chunk of its own): the gallery, the
 * home page and the service worker never import this file; they read the names stored with each animation.
 */
import emojiData from 'emojibase-data/en/compact.json'
import githubShortcodes from 'emojibase-data/en/shortcodes/github.json'
import { z } from 'zod'
import { EMOJI_INPUT_MAX, EMOJI_MAX } from './limits'
import { emojiKey } from './search'
import type { StickerEmoji } from './wumpus'

/** An emoji the picker offers: its character, CLDR name, group and the words it is found by. */
export interface CatalogEmoji extends StickerEmoji {
  group: number
  /** Lower-case words of the name, CLDR keywords and shortcodes, for searching the picker. */
  words: string[]
}

/** Skin tone and hair components are not emoji on their own; regional indicators have no group. */
const COMPONENT_GROUP = 2

function shortcodeOf(hexcode: string): string | undefined {
  const codes = (githubShortcodes as Record<string, string | string[] | undefined>)[hexcode]
  return Array.isArray(codes) ? codes[0] : codes
}

/** emojibase adds U+FE0F to every single emoji; one shown as emoji by default (✨) is fully qualified without it. */
function fullyQualified(unicode: string): string {
  return /^\p{Emoji_Presentation}\uFE0F$/u.test(unicode) ? unicode.replace('\uFE0F', '') : unicode
}

let catalog: CatalogEmoji[] | undefined
let byKey: Map<string, StickerEmoji> | undefined

/** Every emoji with its own group, in Unicode's order (the picker's order). */
export function emojiCatalog(): CatalogEmoji[] {
  catalog ??= emojiData
    .filter((entry) => entry.group !== undefined && entry.group !== COMPONENT_GROUP)
    .map((entry) => {
      const shortcode = shortcodeOf(entry.hexcode)
      const words = [
        ...new Set(
          [entry.label, ...(entry.tags ?? []), ...(shortcode ? [shortcode] : [])].flatMap((text) =>
            text.toLowerCase().split(/[^\p{L}\p{N}]+/u),
          ),
        ),
      ]
      return {
        char: fullyQualified(entry.unicode),
        name: entry.label,
        ...(shortcode ? { shortcode } : {}),
        group: entry.group!,
        words: words.filter(Boolean),
      }
    })
  return catalog
}

/**
 * The emoji as stored, found by its character with or without variation selectors: the fully qualified
 * character with its name. Skin tones count as their own emoji. Undefined when it is not an emoji.
 */
export function findEmoji(char: string): StickerEmoji | undefined {
  if (!byKey) {
    byKey = new Map()
    for (const entry of emojiData) {
      if (entry.group === undefined || entry.group === COMPONENT_GROUP) continue
      const shortcode = shortcodeOf(entry.hexcode)
      for (const variant of [entry, ...(entry.skins ?? [])]) {
        byKey.set(variant.unicode.replace(/\uFE0F/g, ''), {
          char: fullyQualified(variant.unicode),
          name: variant.label,
          ...(shortcode ? { shortcode } : {}),
        })
      }
    }
  }
  return byKey.get(char.trim().replace(/\uFE0F/g, ''))
}

/** Searching the picker: the emoji each of whose query words starts one of the emoji's words. */
export function searchEmojiCatalog(query: string): CatalogEmoji[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
  const all = emojiCatalog()
  if (words.length === 0) return all
  return all.filter((entry) => words.every((word) => entry.words.some((candidate) => candidate.startsWith(word))))
}

/** One emoji as sent: a real emoji (emojibase's data), stored with its name. */
export const stickerEmojiInputSchema = z
  .string()
  .max(64)
  .transform((char, ctx) => {
    const found = findEmoji(char)
    if (!found) {
      ctx.addIssue({ code: 'custom', message: `Not an emoji: ${char.slice(0, 16)}` })
      return z.NEVER
    }
    return found
  })

/** A sticker's emoji as sent, in order (the first ones are what WhatsApp, Signal and Discord get): repeats dropped, at most EMOJI_MAX. */
export const stickerEmojiListSchema = z
  .array(stickerEmojiInputSchema)
  .max(EMOJI_INPUT_MAX)
  .transform((list) => list.filter((entry, index) => list.findIndex((other) => emojiKey(other.char) === emojiKey(entry.char)) === index))
  .pipe(z.array(z.custom<StickerEmoji>()).max(EMOJI_MAX, `At most ${EMOJI_MAX} emoji`))

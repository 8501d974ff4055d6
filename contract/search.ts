/**
 * Word search and ordering rules shared by both stores and the offline copy in the service worker, so
 * every place answers a search alike. No zod here: the home page and the service worker import this file.
 */

/** Tags: lower-case words (digits and inner hyphens allowed), a few per animation. */
export const TAGS_MAX = 8
export const TAG_MIN_LENGTH = 2
export const TAG_MAX_LENGTH = 24
export const TAG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A search query: at most this many characters and words are looked at. */
export const SEARCH_MAX_LENGTH = 100
export const SEARCH_MAX_WORDS = 8
/**
 * A query word this long or longer also matches the words it starts; a shorter one ("e") only itself,
 * as a whole word: a one-letter prefix would match nearly every animation and rank them all.
 */
export const PREFIX_MIN_LENGTH = 2

/**
 * Whether a (normalized) query word also matches the words it starts: it has PREFIX_MIN_LENGTH characters
 * or more and is not an emoji (an emoji matches itself only).
 */
export function matchesAsPrefix(word: string): boolean {
  return word.length >= PREFIX_MIN_LENGTH && [...word].length >= PREFIX_MIN_LENGTH && !isEmojiWord(word)
}

/**
 * An emoji in a text: a flag (two regional indicators), a keycap, or a pictograph with its variation
 * selectors, skin tone, tag sequence and zero-width-joined parts.
 */
const EMOJI_PATTERN =
  /\p{RI}\p{RI}|[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}(?:\uFE0F|\p{EMod}|[\u{E0020}-\u{E007F}])*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{EMod})*)*/gu

/** The emoji of a text, in order, as written. */
export function emojiIn(text: string): string[] {
  return Array.from(text.matchAll(EMOJI_PATTERN), ([match]) => match)
}

/** An emoji as a search word: without variation selectors and skin tones, so 👋🏽 finds 👋. */
export function emojiKey(emoji: string): string {
  return emoji.replace(/\uFE0F|\p{EMod}/gu, '')
}

/** Whether a search word is an emoji (emojiKey) rather than letters and digits. */
export function isEmojiWord(word: string): boolean {
  return /\p{Extended_Pictographic}|\p{RI}|\u20E3/u.test(word)
}

/** Orders of a list: newest first, most downloaded first, or best match first (the default with a query). */
export const LIST_SORTS = ['new', 'popular'] as const
export type ListSort = (typeof LIST_SORTS)[number]
export type ListOrder = ListSort | 'relevance'

/** Case and accents do not matter: NFD, marks stripped, lower case ("Café" and "cafe" are one word). */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
}

/** The words of a text after normalizing: runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

/** The distinct words of a query, its emoji (emojiKey) first, at most SEARCH_MAX_WORDS of them. */
export function queryWords(query: string | undefined): string[] {
  if (!query) return []
  const text = query.slice(0, SEARCH_MAX_LENGTH)
  const emoji = emojiIn(text).map(emojiKey)
  return [...new Set([...emoji, ...wordsOf(text.replace(EMOJI_PATTERN, ' '))])].slice(0, SEARCH_MAX_WORDS)
}

/** What a tag as typed becomes: trimmed, lower case, accents stripped, inner spaces as hyphens. */
export function normalizeTag(tag: string): string {
  return normalizeText(tag.trim()).replace(/\s+/g, '-')
}

/** Why a (normalized) tag is refused, or undefined when it is fine. */
export function tagProblem(tag: string): string | undefined {
  if (tag.length < TAG_MIN_LENGTH) return `A tag has at least ${TAG_MIN_LENGTH} characters`
  if (tag.length > TAG_MAX_LENGTH) return `A tag has at most ${TAG_MAX_LENGTH} characters`
  if (!TAG_PATTERN.test(tag)) return 'Tags are lower-case words: letters a-z, digits and hyphens'
  return undefined
}

/** An emoji as an animation carries it: the character and its CLDR name (and GitHub shortcode, "wave"). */
export interface NamedEmoji {
  char: string
  name: string
  shortcode?: string
}

/** The fields a search looks at. Records stored before tags, keywords or emoji existed have none. */
export interface Searchable {
  name: string
  description: string
  tags?: readonly string[]
  keywords?: readonly string[]
  emoji?: readonly NamedEmoji[]
}

/** Search fields with their weights (a word in the name counts most) and the bit each has in a field mask. */
export const SEARCH_FIELDS = ['name', 'tags', 'description'] as const
export type SearchField = (typeof SEARCH_FIELDS)[number]
export const FIELD_WEIGHT: Record<SearchField, number> = { name: 3, tags: 2, description: 1 }
export const FIELD_BIT: Record<SearchField, number> = { name: 1, tags: 2, description: 4 }

/** The words of each search field of an item. Keywords and emoji (each itself, its name and shortcode) count as tags. */
export function fieldWords(item: Searchable): Record<SearchField, string[]> {
  const emoji = (item.emoji ?? []).flatMap(({ char, name, shortcode }) => [emojiKey(char), ...wordsOf(`${name} ${shortcode ?? ''}`)])
  return {
    name: wordsOf(item.name),
    tags: [...(item.tags ?? []).flatMap(wordsOf), ...(item.keywords ?? []).flatMap(wordsOf), ...emoji],
    description: wordsOf(item.description),
  }
}

/**
 * Score of one query word from the fields it matches (masks of FIELD_BIT): a field gives twice its
 * weight when one of its words is the query word, its weight when one only starts with it (prefix
 * matching, as the user types; query words of PREFIX_MIN_LENGTH or more). 0 means the word matches nowhere.
 */
export function wordScore(exactFields: number, prefixFields: number): number {
  let score = 0
  for (const field of SEARCH_FIELDS) {
    if (exactFields & FIELD_BIT[field]) score += 2 * FIELD_WEIGHT[field]
    else if (prefixFields & FIELD_BIT[field]) score += FIELD_WEIGHT[field]
  }
  return score
}

/**
 * How well fields match the query words: the sum of each word's score, or 0 when some word matches
 * nowhere (every word must match).
 */
export function fieldsScore(words: readonly string[], fields: Record<SearchField, string[]>): number {
  let total = 0
  for (const word of words) {
    let exact = 0
    let prefix = 0
    const prefixes = matchesAsPrefix(word)
    for (const field of SEARCH_FIELDS) {
      if (fields[field].includes(word)) exact |= FIELD_BIT[field]
      else if (prefixes && fields[field].some((candidate) => candidate.startsWith(word))) prefix |= FIELD_BIT[field]
    }
    const score = wordScore(exact, prefix)
    if (score === 0) return 0
    total += score
  }
  return total
}

/** How well an item matches the query words (see fieldsScore); 0 when it does not. */
export function matchScore(words: readonly string[], item: Searchable): number {
  return fieldsScore(words, fieldWords(item))
}

/**
 * The position of an item in a list order. `rank` is the score (relevance), the download count
 * (popular) or 0 (new); then newer first, then the larger id first, so no two items tie.
 */
export interface ListKey {
  rank: number
  time: number
  id: string
}

/** Negative when `a` comes before `b`. */
export function compareListKeys(a: ListKey, b: ListKey): number {
  return compareKeyParts(a.rank, a.time, a.id, b)
}

/** compareListKeys with the first key in parts, for hot loops that should not allocate. */
export function compareKeyParts(rank: number, time: number, id: string, b: ListKey): number {
  if (rank !== b.rank) return b.rank - rank
  if (time !== b.time) return b.time - time
  return id < b.id ? 1 : id > b.id ? -1 : 0
}

/** The order a list query asks for: its sort, else best match when it has words, else newest. */
export function listOrder(sort: ListSort | undefined, words: readonly string[]): ListOrder {
  return sort ?? (words.length > 0 ? 'relevance' : 'new')
}

/** An item as the offline copy knows it (the API's list item; fields from before tags may be missing). */
export interface ListedItem extends Searchable {
  _id: string
  createdAt?: string
  downloads?: number
  /** Platforms with a ready export (contract/stickers.ts Platform). */
  fits?: readonly string[]
}

/**
 * Filters and orders items as the server would (for the offline copy): every query word must match,
 * the tag must be one of the item's, the platform one it fits, then the list order. A cheap scan: the
 * offline copy holds few items.
 */
export function searchItems<T extends ListedItem>(
  items: readonly T[],
  query: { q?: string; tag?: string; fits?: string; sort?: ListSort },
): T[] {
  const words = queryWords(query.q)
  const order = listOrder(query.sort, words)
  const keyed: Array<{ item: T; key: ListKey }> = []
  for (const item of items) {
    if (query.tag && !(item.tags ?? []).includes(query.tag)) continue
    if (query.fits && !(item.fits ?? []).includes(query.fits)) continue
    const score = words.length > 0 ? matchScore(words, item) : 0
    if (words.length > 0 && score === 0) continue
    const rank = order === 'relevance' ? score : order === 'popular' ? (item.downloads ?? 0) : 0
    keyed.push({ item, key: { rank, time: item.createdAt ? Date.parse(item.createdAt) || 0 : 0, id: item._id } })
  }
  return keyed.sort((a, b) => compareListKeys(a.key, b.key)).map(({ item }) => item)
}

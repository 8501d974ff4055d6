// The gallery's search (q, tag, fits, sort) is read by one set of rules wherever it arrives: in the page URL
// (/?q=moon&tag=night&fits=discord&sort=popular) by the app's router and by the server, which renders that page;
// in the API's list query (GET /api/wumpuses?…) by the server and by the service worker, which answers a search
// offline from the animations kept on the device. All of them read it here.
import type { GalleryListFilter } from './api-paths'
import { isPlatform } from './platforms'
import { LIST_SORTS, normalizeTag, SEARCH_MAX_LENGTH, tagProblem, type ListSort } from './search'

/** The keys of a gallery search, in a page URL or an API query. */
export const GALLERY_SEARCH_KEYS: readonly string[] = ['q', 'tag', 'fits', 'sort'] satisfies Array<keyof GalleryListFilter>

export interface GalleryFilterReading {
  /** What the rules keep (a tag normalized). */
  filter: GalleryListFilter
  /** The keys whose values they refuse: the API answers 400 (contract/wumpus.ts says why); pages leave them out. */
  refused: Array<keyof GalleryListFilter>
}

/**
 * The rules, one per key: the value kept, or undefined for one they refuse. A search is one text of at most
 * SEARCH_MAX_LENGTH characters (a number is taken as text: the router parses ?q=42 as JSON); a tag is
 * normalized, then must be a valid tag; a platform and an order are one of theirs.
 */
const GALLERY_RULES: { [Key in keyof GalleryListFilter]-?: (value: unknown) => GalleryListFilter[Key] } = {
  q: (q) => ((typeof q === 'string' || typeof q === 'number') && String(q).length <= SEARCH_MAX_LENGTH ? String(q) : undefined),
  tag: (tag) => (typeof tag === 'string' && !tagProblem(normalizeTag(tag)) ? normalizeTag(tag) : undefined),
  fits: (fits) => (isPlatform(fits) ? fits : undefined),
  sort: (sort) => ((LIST_SORTS as readonly unknown[]).includes(sort) ? (sort as ListSort) : undefined),
}

/** The gallery search in `raw` as the rules read it: what they keep, and the keys present whose values they refuse. */
export function readGalleryFilter(raw: Record<string, unknown>): GalleryFilterReading {
  const filter: Record<string, unknown> = {}
  const refused: GalleryFilterReading['refused'] = []
  for (const key of GALLERY_SEARCH_KEYS as Array<keyof GalleryListFilter>) {
    if (raw[key] === undefined) continue
    const value = GALLERY_RULES[key](raw[key])
    if (value === undefined) refused.push(key)
    else filter[key] = value
  }
  return { filter, refused }
}

/**
 * The page URL's reading (the home route's validateSearch): the search is tidied (trimmed, cut to length), and
 * what the rules refuse is left out, so a bookmarked or shared link always makes a valid request. Every key is
 * set, to undefined when absent (the router lays the result over the raw values: a bad one must be overwritten).
 */
export function galleryFilterFrom(raw: Record<string, unknown>): GalleryListFilter {
  const q = typeof raw.q === 'string' || typeof raw.q === 'number' ? cutToLength(String(raw.q).trim(), SEARCH_MAX_LENGTH) : ''
  return {
    q: GALLERY_RULES.q(q || undefined),
    tag: GALLERY_RULES.tag(raw.tag),
    fits: GALLERY_RULES.fits(raw.fits),
    sort: GALLERY_RULES.sort(raw.sort),
  }
}

/**
 * The text cut to at most `max` UTF-16 units (the unit String.length and an input's maxlength count) without
 * splitting a character made of two: half an emoji is no character, and the server's page (which writes it as
 * U+FFFD) would not match the browser's (React error #418).
 */
export function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text
  const high = text.charCodeAt(max - 1)
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 1 : max)
}

/** A page URL's query string read as the app's router reads it: the server renders the list the app will ask for. */
export function galleryFilterFromPageQuery(querystring: string): GalleryListFilter {
  return galleryFilterFrom(parseSearchLikeTheRouter(querystring))
}

/**
 * An API list query (GET /api/wumpuses?…) read as the server reads it (a repeated key is refused), for the
 * service worker's offline answer; what the server would refuse is left out.
 */
export function galleryFilterFromApiQuery(params: URLSearchParams): GalleryListFilter {
  const raw: Record<string, unknown> = {}
  for (const [key, value] of params) {
    if (GALLERY_SEARCH_KEYS.includes(key)) raw[key] = raw[key] === undefined ? value : [raw[key], value].flat()
  }
  return readGalleryFilter(raw).filter
}

/**
 * The page URL's query string as the app's router reads it (TanStack Router's default parseSearch: numbers and
 * booleans typed, a repeated key made a list, other values parsed as JSON when they are). For the server,
 * which does not load the router.
 */
export function parseSearchLikeTheRouter(querystring: string): Record<string, unknown> {
  const values = Object.create(null) as Record<string, unknown>
  for (const [key, text] of new URLSearchParams(querystring)) {
    const value =
      text === 'true' || text === 'false' ? text === 'true' : text !== '' && Number.isFinite(+text) && String(+text) === text ? +text : text
    const before = values[key]
    values[key] = before === undefined ? value : Array.isArray(before) ? [...(before as unknown[]), value] : [before, value]
  }
  for (const [key, value] of Object.entries(values)) {
    if (typeof value !== 'string' || !/^(?:\s|["[{\d-]|fa|nu|tr)/.test(value)) continue
    try {
      values[key] = JSON.parse(value) as unknown
    } catch {
      // Not JSON: kept as text.
    }
  }
  return values
}

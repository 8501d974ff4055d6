// The home gallery's search as it lives in the page URL (/?q=moon&tag=night&fits=discord&sort=popular). The app's
// router and the server, which renders that page, read it alike, so both ask the API for the same list.
import type { GalleryListFilter } from './api-paths'
import { isPlatform } from './platforms'
import { LIST_SORTS, normalizeTag, SEARCH_MAX_LENGTH, tagProblem, type ListSort } from './search'

/** The keys of a gallery search in the page URL. */
export const GALLERY_SEARCH_KEYS: readonly string[] = ['q', 'tag', 'fits', 'sort'] satisfies Array<keyof GalleryListFilter>

/**
 * Keeps what is valid and sets the rest to undefined (the router lays the result over the raw values, so a
 * bad one must be overwritten, not left out). Never throws on a bad link.
 */
export function galleryFilterFrom(raw: Record<string, unknown>): GalleryListFilter {
  // The router parses values as JSON first: ?q=42 arrives as a number.
  const q = typeof raw.q === 'string' || typeof raw.q === 'number' ? String(raw.q).trim().slice(0, SEARCH_MAX_LENGTH) : ''
  const tag = typeof raw.tag === 'string' ? normalizeTag(raw.tag) : ''
  return {
    q: q || undefined,
    tag: tag && !tagProblem(tag) ? tag : undefined,
    fits: isPlatform(raw.fits) ? raw.fits : undefined,
    sort: (LIST_SORTS as readonly unknown[]).includes(raw.sort) ? (raw.sort as ListSort) : undefined,
  }
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

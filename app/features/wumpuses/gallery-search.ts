// The home gallery's search as it lives in the URL (/?q=moon&tag=night&fits=discord&sort=popular): typed, checked
// and cleaned by the route's validateSearch, so a bookmarked or shared link always makes a valid request.
import type { GalleryListFilter } from '../../../contract/api-paths'
import { isPlatform } from '../../../contract/platforms'
import { LIST_SORTS, normalizeTag, queryWords, SEARCH_MAX_LENGTH, tagProblem, type ListSort } from '../../../contract/search'

/**
 * Words as typed (trimmed); one tag, normalized; a platform the animations fit; sort absent: best match
 * first with words, else newest first.
 */
export type GallerySearch = GalleryListFilter

/**
 * validateSearch of the home route: keeps what is valid and sets the rest to undefined (the router lays
 * the result over the raw values, so a bad one must be overwritten, not left out). Never throws on a bad link.
 */
export function validateGallerySearch(raw: Record<string, unknown>): GallerySearch {
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

/** Whether the search narrows the gallery (words, a tag or a platform), as opposed to only ordering it. */
export function isFiltered(search: GallerySearch): boolean {
  return queryWords(search.q).length > 0 || search.tag !== undefined || search.fits !== undefined
}

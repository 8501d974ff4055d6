// The home gallery's search as it lives in the URL (/?q=moon&tag=night&fits=discord&sort=popular): typed, checked
// and cleaned by the route's validateSearch, so a bookmarked or shared link always makes a valid request.
import type { GalleryListFilter } from '../../../contract/api-paths'
import { galleryFilterFrom } from '../../../contract/gallery-search'
import { queryWords } from '../../../contract/search'

/**
 * Words as typed (trimmed); one tag, normalized; a platform the animations fit; sort absent: best match
 * first with words, else newest first.
 */
export type GallerySearch = GalleryListFilter

/** validateSearch of the home route (the server reads the URL of the page it renders the same way). */
export const validateGallerySearch: (raw: Record<string, unknown>) => GallerySearch = galleryFilterFrom

/** Whether the search narrows the gallery (words, a tag or a platform), as opposed to only ordering it. */
export function isFiltered(search: GallerySearch): boolean {
  return queryWords(search.q).length > 0 || search.tag !== undefined || search.fits !== undefined
}

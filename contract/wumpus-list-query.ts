// The API's list query, apart from contract/wumpus.ts: the app never reads it (it builds the query with
// contract/api-paths.ts), so its page bundles do not carry it.
import { z } from 'zod'
import type { GalleryListFilter } from './api-paths'
import { readGalleryFilter } from './gallery-search'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './limits'
import { cursorSchema } from './paging'
import { PLATFORMS } from './platforms'
import { LIST_SORTS, normalizeTag, SEARCH_MAX_LENGTH, tagProblem } from './search'

/** Why the gallery search's rules refuse the value of `key`: the API's 400 message. */
function galleryFilterProblem(key: keyof GalleryListFilter, value: unknown): string {
  switch (key) {
    case 'q':
      return typeof value === 'string' ? `A search has at most ${SEARCH_MAX_LENGTH} characters` : 'A search is one text'
    case 'tag':
      return (typeof value === 'string' && tagProblem(normalizeTag(value))) || 'A tag is one text'
    case 'fits':
      return `fits is one of ${PLATFORMS.join(', ')}`
    case 'sort':
      return `sort is one of ${LIST_SORTS.join(', ')}`
  }
}

/**
 * Query of GET /api/wumpuses and GET /api/wumpus?u_email=. Unknown keys are refused. `q` searches name,
 * description and tags (see contract/search.ts); `tag` keeps one tag's animations; `fits` those with a
 * ready export for a platform (contract/stickers.ts); `sort` orders them
 * (default: best match with a query, else newest). A new filter is one more key here and in
 * contract/gallery-search.ts.
 */
export const wumpusListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
    cursor: cursorSchema.optional(),
    u_email: z.string().email().max(254).optional(),
    // The gallery's search: read by its one set of rules (contract/gallery-search.ts), as pages and the service worker read it.
    q: z.unknown().optional(),
    tag: z.unknown().optional(),
    fits: z.unknown().optional(),
    sort: z.unknown().optional(),
  })
  .strict()
  .transform(({ q, tag, fits, sort, ...paging }, ctx) => {
    const raw = { q, tag, fits, sort }
    const { filter, refused } = readGalleryFilter(raw)
    for (const key of refused) ctx.addIssue({ code: 'custom', path: [key], message: galleryFilterProblem(key, raw[key]) })
    return { ...paging, ...filter }
  })
export type WumpusListQuery = z.infer<typeof wumpusListQuerySchema>

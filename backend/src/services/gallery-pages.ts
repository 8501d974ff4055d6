import { LINK_HEADER, TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { wumpusListQuerySchema } from '../../../contract/wumpus'
import { type CachedPage, PageCache } from '../routes/page-cache'
import { toApiWumpus } from '../routes/wumpus-view'
import type { Store } from '../store/port'

/**
 * The gallery's list pages as the API sends them (JSON body, X-Total-Count, Link), serialized once and
 * cached until the store changes. One cache per store, shared by the list routes and server rendering.
 */
export class GalleryPages {
  private readonly cache: PageCache

  constructor(private readonly store: Store) {
    this.cache = new PageCache(store, { maxEntries: 500, maxAgeMs: store.kind === 'embedded' ? Infinity : 2000 })
  }

  /** The page for a list path's query string (`basePath` is what the Link header points at). */
  async page(basePath: string, querystring: string, query: Record<string, unknown>): Promise<CachedPage> {
    const key = `${basePath}?${querystring}`
    const cached = this.cache.get(key)
    if (cached) return cached
    const parsed = wumpusListQuerySchema.parse(query)
    const revision = this.store.wumpusRevision()
    const result = await this.store.listWumpuses(parsed)
    const headers: Record<string, string> = { [TOTAL_COUNT_HEADER]: String(result.total) }
    if (result.nextCursor) {
      const next = new URLSearchParams({ limit: String(parsed.limit), cursor: result.nextCursor })
      if (parsed.u_email) next.set('u_email', parsed.u_email)
      headers[LINK_HEADER] = `<${basePath}?${next}>; rel="next"`
    }
    return this.cache.set(key, revision, Buffer.from(JSON.stringify(result.items.map(toApiWumpus))), headers)
  }
}

const byStore = new WeakMap<Store, GalleryPages>()

export function galleryPages(store: Store): GalleryPages {
  let pages = byStore.get(store)
  if (!pages) byStore.set(store, (pages = new GalleryPages(store)))
  return pages
}

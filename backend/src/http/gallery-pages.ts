import type { Context } from 'koa'
import { LINK_HEADER, TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { wumpusListQuerySchema, type WumpusListQuery } from '../../../contract/wumpus-list-query'
import { type CachedPage, PageCache, sortsByDownloads } from './page-cache'
import { ApiWumpusJson } from './mappers/wumpus'
import type { Store } from '../store/port'

/** Before the cache key of a page with the sensitive animations (no path starts with it). */
const SENSITIVE_KEY = 'sensitive:'

/** The query keys a next-page link carries over, besides limit and cursor. */
const LIST_FILTER_KEYS = ['u_email', 'q', 'tag', 'fits', 'sort'] as const satisfies ReadonlyArray<keyof WumpusListQuery>

/**
 * The gallery's list pages as the API sends them (JSON text, X-Total-Count, Link), made once and cached
 * until the store changes (the most downloaded first order also when counts are added). One per app (the
 * composition root makes it), shared by the list routes and server rendering.
 */
export class GalleryPages {
  private readonly cache: PageCache
  private readonly itemsJson = new ApiWumpusJson()

  constructor(private readonly store: Store) {
    this.cache = new PageCache(store, { maxEntries: 500, sharedMaxAgeMs: 2000, dependsOnDownloads: sortsByDownloads })
  }

  /**
   * Answers a list request; `basePath` is what the next-page link points at. `withSensitive` (the signed-in
   * viewer's choice, never a visitor's) lists the sensitive animations too: a page kept apart, and an
   * answer no shared cache keeps, as every list answer varies by who asks.
   */
  async send(ctx: Context, basePath: string, options: { withSensitive?: boolean } = {}): Promise<void> {
    const withSensitive = options.withSensitive === true
    const key = `${withSensitive ? SENSITIVE_KEY : ''}${basePath}?${ctx.querystring}`
    await this.cache.send(ctx, key, () => this.compute(basePath, ctx.query, withSensitive))
    ctx.vary('Authorization')
    if (withSensitive) ctx.set('Cache-Control', 'private, no-cache')
  }

  /** A page as the list request `basePath?querystring` would get it. */
  page(basePath: string, querystring: string): Promise<CachedPage> {
    const query = Object.fromEntries(new URLSearchParams(querystring))
    return this.cache.getOrCompute(`${basePath}?${querystring}`, () => this.compute(basePath, query))
  }

  private async compute(basePath: string, rawQuery: Record<string, unknown>, withSensitive = false) {
    const query = wumpusListQuerySchema.parse(rawQuery)
    const result = await this.store.wumpuses.list(withSensitive ? { ...query, withSensitive } : query)
    const headers: Record<string, string> = { [TOTAL_COUNT_HEADER]: String(result.total) }
    if (result.nextCursor) {
      const next = new URLSearchParams({ limit: String(query.limit), cursor: result.nextCursor })
      for (const key of LIST_FILTER_KEYS) if (query[key] !== undefined) next.set(key, query[key])
      headers[LINK_HEADER] = `<${basePath}?${next}>; rel="next"`
    }
    return { json: this.itemsJson.list(result.items), headers }
  }
}

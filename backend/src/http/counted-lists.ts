import type { Context } from 'koa'
import { TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { tagListQuerySchema, type EmojiCount, type TagCount } from '../../../contract/wumpus'
import { type CachedPage, PageCache } from './page-cache'
import type { CountOptions, Store } from '../store/port'

/**
 * Things in use with how many animations carry each, most used first, as `GET /api/tags` and
 * `GET /api/emoji` send them (`?limit=`, the full count in X-Total-Count); cached until the store changes.
 * One of each per app (the composition root makes them), shared by the routes and server rendering.
 */
export class CountedLists {
  private readonly cache: PageCache

  constructor(
    store: Store,
    private readonly listAll: (options: CountOptions) => Promise<Array<TagCount | EmojiCount>>,
  ) {
    this.cache = new PageCache(store, { maxEntries: 50, sharedMaxAgeMs: 2000 })
  }

  /**
   * `withSensitive` (a signed-in person who turned sensitive animations on) counts theirs too: kept apart,
   * and an answer no shared cache keeps, as every answer varies by who asks (like the gallery's lists).
   */
  async send(ctx: Context, options: CountOptions = {}): Promise<void> {
    const withSensitive = options.withSensitive === true
    await this.cache.send(ctx, `${withSensitive ? SENSITIVE_KEY : ''}${ctx.querystring}`, () => this.compute(ctx.query, withSensitive))
    ctx.vary('Authorization')
    if (withSensitive) ctx.set('Cache-Control', 'private, no-cache')
  }

  /** The list as `GET ...?querystring` would get it for a visitor. */
  page(querystring: string): Promise<CachedPage> {
    return this.cache.getOrCompute(querystring, () => this.compute(Object.fromEntries(new URLSearchParams(querystring)), false))
  }

  private async compute(rawQuery: Record<string, unknown>, withSensitive: boolean) {
    const { limit } = tagListQuerySchema.parse(rawQuery)
    const all = await this.listAll(withSensitive ? { withSensitive } : {})
    return { json: JSON.stringify(all.slice(0, limit)), headers: { [TOTAL_COUNT_HEADER]: String(all.length) } }
  }
}

/** Before the cache key of a list with the sensitive animations' counts (no query string starts with it). */
const SENSITIVE_KEY = 'sensitive:'

import type { Context } from 'koa'
import { TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { tagListQuerySchema, type EmojiCount, type TagCount } from '../../../contract/wumpus'
import { type CachedPage, PageCache } from './page-cache'
import type { Store } from '../store/port'

/**
 * Things in use with how many animations carry each, most used first, as `GET /api/tags` and
 * `GET /api/emoji` send them (`?limit=`, the full count in X-Total-Count); cached until the store changes.
 * One of each per app (the composition root makes them), shared by the routes and server rendering.
 */
export class CountedLists {
  private readonly cache: PageCache

  constructor(
    store: Store,
    private readonly listAll: () => Promise<Array<TagCount | EmojiCount>>,
  ) {
    this.cache = new PageCache(store, { maxEntries: 50, sharedMaxAgeMs: 2000 })
  }

  send(ctx: Context): Promise<void> {
    return this.cache.send(ctx, ctx.querystring, () => this.compute(ctx.query))
  }

  /** The list as `GET ...?querystring` would get it. */
  page(querystring: string): Promise<CachedPage> {
    return this.cache.getOrCompute(querystring, () => this.compute(Object.fromEntries(new URLSearchParams(querystring))))
  }

  private async compute(rawQuery: Record<string, unknown>) {
    const { limit } = tagListQuerySchema.parse(rawQuery)
    const all = await this.listAll()
    return { json: JSON.stringify(all.slice(0, limit)), headers: { [TOTAL_COUNT_HEADER]: String(all.length) } }
  }
}

import type { Context } from 'koa'
import { TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { tagListQuerySchema } from '../../../contract/wumpus'
import { type CachedPage, PageCache } from '../http/page-cache'
import type { Store } from '../store/port'

/** The tags in use with their counts, most used first, as `GET /api/tags` sends them; cached until the store changes. */
export class TagLists {
  private readonly cache: PageCache

  constructor(private readonly store: Store) {
    this.cache = new PageCache(store, { maxEntries: 50, sharedMaxAgeMs: 2000 })
  }

  send(ctx: Context): Promise<void> {
    return this.cache.send(ctx, ctx.querystring, () => this.compute(ctx.query))
  }

  /** The list as `GET /api/tags?querystring` would get it. */
  page(querystring: string): Promise<CachedPage> {
    return this.cache.getOrCompute(querystring, () => this.compute(Object.fromEntries(new URLSearchParams(querystring))))
  }

  private async compute(rawQuery: Record<string, unknown>) {
    const { limit } = tagListQuerySchema.parse(rawQuery)
    const tags = await this.store.wumpuses.listTags()
    return { json: JSON.stringify(tags.slice(0, limit)), headers: { [TOTAL_COUNT_HEADER]: String(tags.length) } }
  }
}

const byStore = new WeakMap<Store, TagLists>()

export function tagLists(store: Store): TagLists {
  let lists = byStore.get(store)
  if (!lists) byStore.set(store, (lists = new TagLists(store)))
  return lists
}

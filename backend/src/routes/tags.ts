import Router from '@koa/router'
import { TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { tagListQuerySchema } from '../../../contract/wumpus'
import type { Store } from '../store/port'
import { PageCache } from './page-cache'

/** GET /tags: the tags in use with how many animations carry each, most used first (anyone). */
export function tagRoutes(deps: { store: Store }): Router {
  const { store } = deps
  const router = new Router()
  const lists = new PageCache(store, { maxEntries: 50, maxAgeMs: store.kind === 'embedded' ? Infinity : 2000 })

  router.get('/tags', (ctx) =>
    lists.send(ctx, ctx.querystring, async () => {
      const { limit } = tagListQuerySchema.parse(ctx.query)
      const tags = await store.listTags()
      return { json: JSON.stringify(tags.slice(0, limit)), headers: { [TOTAL_COUNT_HEADER]: String(tags.length) } }
    }),
  )

  return router
}

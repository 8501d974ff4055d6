import Router from '@koa/router'
import { tagLists } from '../services/tag-lists'
import type { Store } from '../store/port'

/** GET /tags: the tags in use with how many animations carry each, most used first (anyone). */
export function tagRoutes(deps: { store: Store }): Router {
  const lists = tagLists(deps.store)
  const router = new Router()
  router.get('/tags', (ctx) => lists.send(ctx))
  return router
}

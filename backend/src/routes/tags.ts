import Router from '@koa/router'
import { tagLists } from '../services/tag-lists'
import type { RouteDeps } from '../app'

/** GET /tags: the tags in use with how many animations carry each, most used first (anyone). */
export function tagRoutes(deps: Pick<RouteDeps, 'store'>): Router {
  const lists = tagLists(deps.store)
  const router = new Router()
  router.get('/tags', (ctx) => lists.send(ctx))
  return router
}

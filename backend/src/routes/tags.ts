import Router from '@koa/router'
import { emojiLists, tagLists } from '../http/counted-lists'
import type { RouteDeps } from './route-deps'

/** GET /tags and GET /emoji: the tags and emoji in use with how many animations carry each, most used first (anyone). */
export function tagRoutes(deps: RouteDeps): Router {
  const tags = tagLists(deps.store)
  const emoji = emojiLists(deps.store)
  const router = new Router()
  router.get('/tags', (ctx) => tags.send(ctx))
  router.get('/emoji', (ctx) => emoji.send(ctx))
  return router
}

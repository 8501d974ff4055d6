import Router from '@koa/router'
import type { RouteDeps } from './route-deps'

/** GET /tags and GET /emoji: the tags and emoji in use with how many animations carry each, most used first (anyone). */
export function tagRoutes(deps: RouteDeps): Router {
  const { tagLists: tags, emojiLists: emoji } = deps
  const router = new Router()
  router.get('/tags', (ctx) => tags.send(ctx))
  router.get('/emoji', (ctx) => emoji.send(ctx))
  return router
}

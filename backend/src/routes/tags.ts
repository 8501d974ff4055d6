import Router from '@koa/router'
import type { Context } from 'koa'
import type { SessionClaims } from '../../../contract/user'
import type { CountedLists } from '../http/counted-lists'
import { optionalSession } from '../http/require-session'
import type { RouteDeps } from './route-deps'

/**
 * GET /tags and GET /emoji: the tags and emoji in use with how many animations carry each, most used first
 * (anyone); the sensitive animations' are counted only for a signed-in person who turned them on.
 */
export function tagRoutes(deps: RouteDeps): Router {
  const router = new Router()
  const send = async (ctx: Context, lists: CountedLists) =>
    lists.send(ctx, { withSensitive: await deps.accounts.showsSensitive(ctx.state.session as SessionClaims | undefined) })
  router.get('/tags', optionalSession(deps.sessions), (ctx) => send(ctx, deps.tagLists))
  router.get('/emoji', optionalSession(deps.sessions), (ctx) => send(ctx, deps.emojiLists))
  return router
}

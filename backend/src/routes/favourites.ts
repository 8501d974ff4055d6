import Router from '@koa/router'
import { favouriteListPath } from '../../../contract/api-paths'
import { favouriteListQuerySchema } from '../../../contract/favourites'
import type { RouteDeps } from './route-deps'
import { requireSession, sessionOf, viewerOf } from '../http/require-session'
import { toApiFavourite } from '../http/mappers/favourite'
import { setPageHeaders } from '../http/page-headers'
import { idParam } from '../http/params'

/**
 * One's own favourites (services/favourites.ts has the rules): any signed-in user, with a verified email
 * or not. Private to the account: never kept by caches.
 */
export function favouriteRoutes(deps: RouteDeps): Router {
  const { favourites } = deps
  const router = new Router()
  const session = requireSession(deps.sessions)
  const write = deps.limits.guard('favourite')

  router.get('/me/favourites', session, async (ctx) => {
    const query = favouriteListQuerySchema.parse(ctx.query)
    const viewer = (await viewerOf(ctx, deps.accounts))!
    const page = await favourites.list(viewer, query)
    const makerEmailShown = await deps.makers.emailShown(
      viewer,
      page.items.map((favourite) => favourite.record),
    )
    setPageHeaders(ctx, page, (cursor) => favouriteListPath({ limit: query.limit, cursor }))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = page.items.map((favourite) => toApiFavourite(favourite, deps.fileKeys, makerEmailShown))
  })

  router.get('/me/favourite-ids', session, async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await favourites.ids(sessionOf(ctx).email)
  })

  router.put('/me/favourites/:id', session, write, async (ctx) => {
    await favourites.add((await viewerOf(ctx, deps.accounts))!, idParam(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.status = 204
  })

  router.delete('/me/favourites/:id', session, write, async (ctx) => {
    await favourites.remove((await viewerOf(ctx, deps.accounts))!, idParam(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.status = 204
  })

  return router
}

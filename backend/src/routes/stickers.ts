import Router from '@koa/router'
import type { RouteDeps } from '../app'
import { toApiStickers } from '../http/mappers/stickers'
import { idParam } from '../http/params'
import { findWumpus } from '../services/wumpuses'

/** GET /wumpus/{id}/stickers: one file per chat platform, from the facts stored with the animation. */
export function stickerRoutes(deps: Pick<RouteDeps, 'store'>): Router {
  const { store } = deps
  const router = new Router()

  router.get('/wumpus/:id/stickers', async (ctx) => {
    const record = await findWumpus(store, idParam(ctx))
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = toApiStickers(record)
  })

  return router
}

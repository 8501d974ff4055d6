import Router from '@koa/router'
import { toApiStickers } from '../http/mappers/stickers'
import { idParam } from '../http/params'
import { findWumpus } from '../services/wumpuses'
import type { Store } from '../store/port'

/** GET /wumpus/{id}/stickers: one file per chat platform, from the facts stored with the animation. */
export function stickerRoutes(deps: { store: Store }): Router {
  const { store } = deps
  const router = new Router()

  router.get('/wumpus/:id/stickers', async (ctx) => {
    const record = await findWumpus(store, idParam(ctx))
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = toApiStickers(record)
  })

  return router
}

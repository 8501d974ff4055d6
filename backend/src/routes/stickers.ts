import Router from '@koa/router'
import { idSchema } from '../../../contract/wumpus'
import { notFound } from '../http/http-error'
import type { Store } from '../store/port'
import { toApiStickers } from './wumpus-view'

/** GET /wumpus/{id}/stickers: one file per chat platform, from the facts stored with the animation. */
export function stickerRoutes(deps: { store: Store }): Router {
  const { store } = deps
  const router = new Router()

  router.get('/wumpus/:id/stickers', async (ctx) => {
    const id = idSchema.safeParse(ctx.params.id)
    const record = id.success ? await store.getWumpus(id.data) : undefined
    if (!record) throw notFound('No animation with this id')
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = toApiStickers(record)
  })

  return router
}

import Router from '@koa/router'
import type { Context } from 'koa'
import { idSchema, LINK_HEADER, TOTAL_COUNT_HEADER, wumpusListQuerySchema } from '../../../contract/wumpus'
import { badRequest, notFound } from '../http/http-error'
import type { Store } from '../store/port'
import { toApiWumpus } from './wumpus-view'

/** Read side of the animations: the paged gallery, one uploader's list, one animation. */
export function wumpusRoutes(store: Store): Router {
  const router = new Router()

  const sendPage = async (ctx: Context, basePath: string) => {
    const query = wumpusListQuerySchema.parse(ctx.query)
    const page = await store.listWumpuses(query)
    ctx.set(TOTAL_COUNT_HEADER, String(page.total))
    if (page.nextCursor) {
      const next = new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor })
      if (query.u_email) next.set('u_email', query.u_email)
      ctx.set(LINK_HEADER, `<${basePath}?${next}>; rel="next"`)
    }
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = page.items.map(toApiWumpus)
  }

  router.get('/wumpuses', (ctx) => sendPage(ctx, '/api/wumpuses'))

  router.get('/wumpus', async (ctx) => {
    if (typeof ctx.query.u_email !== 'string') throw badRequest('u_email is required')
    await sendPage(ctx, '/api/wumpus')
  })

  router.get('/wumpus/:id', async (ctx) => {
    const id = idSchema.safeParse(ctx.params.id)
    const record = id.success ? await store.getWumpus(id.data) : undefined
    if (!record) throw notFound('No animation with this id')
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = toApiWumpus(record)
  })

  return router
}

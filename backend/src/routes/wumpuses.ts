import Router from '@koa/router'
import type { Context } from 'koa'
import { idSchema, LINK_HEADER, TOTAL_COUNT_HEADER, wumpusListQuerySchema } from '../../../contract/wumpus'
import { matchesEtag } from '../http/etag'
import { badRequest, notFound } from '../http/http-error'
import type { Store } from '../store/port'
import { requireSession } from '../auth/require-session'
import type { Config } from '../config'
import { PageCache } from './page-cache'
import { toApiWumpus } from './wumpus-view'

/** Read side of the animations: the paged gallery, one uploader's list, one animation. */
export function wumpusRoutes(store: Store, config: Config): Router {
  const router = new Router()
  const pages = new PageCache(store, { maxEntries: 500, maxAgeMs: store.kind === 'embedded' ? Infinity : 2000 })

  const sendPage = async (ctx: Context, basePath: string) => {
    const key = `${basePath}?${ctx.querystring}`
    let page = pages.get(key)
    if (!page) {
      const query = wumpusListQuerySchema.parse(ctx.query)
      const revision = store.wumpusRevision()
      const result = await store.listWumpuses(query)
      const headers: Record<string, string> = { [TOTAL_COUNT_HEADER]: String(result.total) }
      if (result.nextCursor) {
        const next = new URLSearchParams({ limit: String(query.limit), cursor: result.nextCursor })
        if (query.u_email) next.set('u_email', query.u_email)
        headers[LINK_HEADER] = `<${basePath}?${next}>; rel="next"`
      }
      page = pages.set(key, revision, Buffer.from(JSON.stringify(result.items.map(toApiWumpus))), headers)
    }
    ctx.set(page.headers)
    ctx.set('Cache-Control', 'no-cache')
    ctx.etag = page.etag
    if (matchesEtag(ctx.get('If-None-Match'), page.etag)) {
      ctx.status = 304
      return
    }
    ctx.type = 'application/json; charset=utf-8'
    ctx.body = page.body
  }

  router.get('/wumpuses', (ctx) => sendPage(ctx, '/api/wumpuses'))

  router.get('/wumpus', requireSession(config.jwtSecret), async (ctx) => {
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

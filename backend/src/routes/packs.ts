import Router from '@koa/router'
import { packListPath } from '../../../contract/api-paths'
import { createPackSchema, packDownloadQuerySchema, packListQuerySchema, updatePackSchema } from '../../../contract/pack'
import { PLATFORMS, platformSchema } from '../../../contract/stickers'
import type { RouteDeps } from '../app'
import { requireAdmin, requireSession, sessionOf } from '../auth/require-session'
import { notFound } from '../http/http-error'
import { setPageHeaders } from '../http/page-headers'
import { sendTimeout } from '../http/node-server'
import { createPackService } from '../services/packs'
import { contentDisposition } from '../http/content-disposition'

/**
 * Sticker packs: anyone lists and opens them and downloads a platform's ZIP; verified admins make,
 * edit and delete them (services/packs.ts has the rules).
 */
export function packRoutes(deps: Pick<RouteDeps, 'store' | 'sessions' | 'audit' | 'logger' | 'downloads' | 'config'>): Router {
  const { store, downloads, config } = deps
  const packs = createPackService(deps)
  const router = new Router()
  const admin = [requireSession(deps.sessions), requireAdmin(store)]
  const costly = sendTimeout(config.sendTimeoutSeconds)

  router.get('/packs', async (ctx) => {
    const query = packListQuerySchema.parse(ctx.query)
    const page = await packs.list(query)
    setPageHeaders(ctx, page, (cursor) => packListPath({ limit: query.limit, cursor }))
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = page.items
  })

  router.get('/packs/:id', costly, async (ctx) => {
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = await packs.detail(ctx.params.id!)
  })

  router.get('/packs/:id/download/:platform', costly, async (ctx) => {
    const platform = platformSchema.safeParse(ctx.params.platform)
    if (!platform.success) throw notFound(`No such platform: use ${PLATFORMS.join(', ')}`)
    const { part } = packDownloadQuerySchema.parse(ctx.query)
    const zip = await packs.zip(ctx.params.id!, platform.data, part)
    for (const id of zip.wumpusIds) downloads.count(id, ctx.ip)
    ctx.set('Content-Disposition', contentDisposition('attachment', zip.fileName))
    ctx.set('Cache-Control', 'no-store')
    ctx.type = 'application/zip'
    ctx.body = zip.stream
    ctx.length = zip.bytes
  })

  router.post('/packs', ...admin, async (ctx) => {
    const body = createPackSchema.parse(ctx.request.body ?? {})
    ctx.status = 201
    ctx.body = await packs.create(sessionOf(ctx).email, body)
  })

  router.put('/packs/:id', ...admin, async (ctx) => {
    const patch = updatePackSchema.parse(ctx.request.body ?? {})
    ctx.body = await packs.update(sessionOf(ctx).email, ctx.params.id!, patch)
  })

  router.delete('/packs/:id', ...admin, async (ctx) => {
    ctx.body = { deletedCount: await packs.remove(sessionOf(ctx).email, ctx.params.id!) }
  })

  return router
}

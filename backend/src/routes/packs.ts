import Router from '@koa/router'
import type { Context } from 'koa'
import { myPackListPath, packListPath } from '../../../contract/api-paths'
import {
  createPackSchema,
  createPersonalPackSchema,
  packDownloadQuerySchema,
  packListQuerySchema,
  updatePackSchema,
  WASTICKERS,
  type PackVisibility,
} from '../../../contract/pack'
import { PLATFORMS, platformSchema } from '../../../contract/stickers'
import type { RouteDeps } from './route-deps'
import { optionalSession, requireAdmin, requireSession, requireVerifiedEmail, sessionOf, viewerOf } from '../http/require-session'
import type { Actor } from '../domain/viewer'
import { addressKey } from '../http/client-address'
import { HttpError } from '../http/http-error'
import { makerEmailAlwaysShown } from '../http/mappers/wumpus'
import { toApiPack, toApiPackDetail, toApiUpdatedPack } from '../http/mappers/pack'
import { setPageHeaders } from '../http/page-headers'
import { sendTimeout } from '../http/node-server'
import { contentDisposition } from '../http/content-disposition'

/**
 * Sticker packs (services/packs.ts has the rules): anyone lists the public ones; anyone opens a public or
 * shared (link) pack and downloads a platform's ZIP, a private one its owner and admins only; verified
 * admins make public packs, any verified user personal ones, listed at /me/packs. Personal packs are
 * never kept by shared caches.
 */
export function packRoutes(deps: RouteDeps): Router {
  const { downloads, config, fileKeys, packs } = deps
  const router = new Router()
  const session = requireSession(deps.sessions)
  const maybeSession = optionalSession(deps.sessions)
  const write = [session, requireVerifiedEmail, deps.limits.guard('pack')]
  const costly = sendTimeout(config.sendTimeoutSeconds)

  /** The signed-in caller, an admin only with admin power (a verified email). */
  const actorOf = async (ctx: Context): Promise<Actor> => {
    sessionOf(ctx)
    return (await viewerOf(ctx, deps.accounts))!
  }
  /** Public packs are revalidated by any cache; personal ones (what a link opens, what an owner sees) are stored by none. */
  const cacheFor = (ctx: Context, visibility: PackVisibility, publicValue: string) =>
    ctx.set('Cache-Control', visibility === 'public' ? publicValue : 'private, no-store')

  router.get('/packs', async (ctx) => {
    const query = packListQuerySchema.parse(ctx.query)
    const page = await packs.list(query)
    setPageHeaders(ctx, page, (cursor) => packListPath({ limit: query.limit, cursor }))
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = page.items.map((view) => toApiPack(view, fileKeys))
  })

  router.get('/me/packs', session, async (ctx) => {
    const query = packListQuerySchema.parse(ctx.query)
    const page = await packs.listPersonal(sessionOf(ctx).email, query)
    setPageHeaders(ctx, page, (cursor) => myPackListPath({ limit: query.limit, cursor }))
    ctx.set('Cache-Control', 'no-store')
    // The owner's own packs: their remixes, or originals.
    ctx.body = page.items.map((view) => toApiPack(view, fileKeys, makerEmailAlwaysShown))
  })

  router.post('/me/packs', ...write, async (ctx) => {
    const body = createPersonalPackSchema.parse(ctx.request.body ?? {})
    ctx.status = 201
    ctx.set('Cache-Control', 'no-store')
    ctx.body = toApiPack(await packs.createPersonal(sessionOf(ctx).email, body), fileKeys, makerEmailAlwaysShown)
  })

  router.get('/packs/:id', maybeSession, costly, async (ctx) => {
    const viewer = await viewerOf(ctx, deps.accounts)
    const view = await packs.detail(ctx.params.id!, viewer)
    cacheFor(ctx, view.pack.visibility, 'no-cache')
    ctx.body = toApiPackDetail(view, fileKeys, await deps.makers.emailShown(viewer, [view.cover, ...view.items]))
  })

  router.get('/packs/:id/download/:platform', maybeSession, costly, async (ctx) => {
    // `wastickers`: WhatsApp's archive under the name sticker maker apps open.
    const wastickers = ctx.params.platform === WASTICKERS
    const platform = platformSchema.safeParse(wastickers ? 'whatsapp' : ctx.params.platform)
    if (!platform.success) throw new HttpError('NOT_FOUND', `No such platform: use ${[...PLATFORMS, WASTICKERS].join(', ')}`)
    const { part, key } = packDownloadQuerySchema.parse(ctx.query)
    const asMaker = key !== undefined && fileKeys.validPack(ctx.params.id!, key)
    const archive = wastickers ? 'wastickers' : 'zip'
    const zip = await packs.zip(ctx.params.id!, platform.data, await viewerOf(ctx, deps.accounts), { part, asMaker, archive })
    const visitor = addressKey(ctx.ip)
    for (const id of zip.wumpusIds) downloads.count(id, visitor)
    ctx.set('Content-Disposition', contentDisposition('attachment', zip.fileName))
    cacheFor(ctx, zip.visibility, 'no-store')
    // A .wastickers file goes as plain bytes: typed as a ZIP, phones would hand it to an archive app by its type.
    ctx.type = wastickers ? 'application/octet-stream' : 'application/zip'
    ctx.body = zip.stream
    ctx.length = zip.bytes
  })

  router.post('/packs', session, requireAdmin(deps.accounts), deps.limits.guard('pack'), async (ctx) => {
    const body = createPackSchema.parse(ctx.request.body ?? {})
    ctx.status = 201
    ctx.body = toApiPack(await packs.create(sessionOf(ctx).email, body), fileKeys)
  })

  router.put('/packs/:id', ...write, async (ctx) => {
    const { editedAt, ...patch } = updatePackSchema.parse(ctx.request.body ?? {})
    const updated = await packs.update(await actorOf(ctx), ctx.params.id!, patch, { editedAt: editedAt ? new Date(editedAt) : undefined })
    cacheFor(ctx, updated.pack.visibility, 'no-store')
    // Its editor is its owner or an admin.
    ctx.body = toApiUpdatedPack(updated, fileKeys, makerEmailAlwaysShown)
  })

  router.delete('/packs/:id', ...write, async (ctx) => {
    ctx.body = { deletedCount: await packs.remove(await actorOf(ctx), ctx.params.id!) }
    ctx.set('Cache-Control', 'no-store')
  })

  return router
}

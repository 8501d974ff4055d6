import Router from '@koa/router'
import type { z } from 'zod'
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
import { IMPORT_FORMATS, importFormatSchema, PLEROMA_FILES, pleromaFileSchema, type ImportFormat } from '../../../contract/pack-imports'
import type { ApiAnswer } from '../../../contract/ssr'
import type { RouteDeps } from './route-deps'
import { optionalSession, requireAdmin, requireSession, requireVerifiedEmail, sessionOf, viewerOf } from '../http/require-session'
import type { Actor, Viewer } from '../domain/viewer'
import { addressKey } from '../http/client-address'
import { HttpError } from '../http/http-error'
import { makerEmailAlwaysShown } from '../http/mappers/wumpus'
import { toApiPack, toApiPackDetail, toApiUpdatedPack } from '../http/mappers/pack'
import { pageHeaders, setPageHeaders } from '../http/page-headers'
import { sendTimeout } from '../http/node-server'
import { contentDisposition } from '../http/content-disposition'
import { DomainError } from '../domain/errors'
import type { PackAnswers } from '../http/server-rendered-pages'

/** A JSON answer before it is serialized: its headers (besides Content-Type) and body. */
interface JsonAnswer {
  headers: Record<string, string>
  body: unknown
}

type PackDeps = Pick<RouteDeps, 'packs' | 'fileKeys' | 'makers' | 'telegram'>

/** GET /api/packs: a page of the public packs. */
async function packListAnswer({ packs, fileKeys }: PackDeps, query: z.infer<typeof packListQuerySchema>): Promise<JsonAnswer> {
  const page = await packs.list(query)
  return {
    headers: { ...pageHeaders(page, (cursor) => packListPath({ limit: query.limit, cursor })), 'Cache-Control': 'no-cache' },
    body: page.items.map((view) => toApiPack(view, fileKeys)),
  }
}

/**
 * GET /api/packs/{id}: public packs are revalidated by any cache; personal ones (what a link opens, what an
 * owner sees) are stored by none.
 */
async function packDetailAnswer({ packs, fileKeys, makers, telegram }: PackDeps, id: string, viewer: Viewer): Promise<JsonAnswer> {
  const view = await packs.detail(id, viewer)
  // A public pack's set, or (issue 36) a personal pack's for its owner only.
  const shown = view.pack.visibility === 'public' || (viewer !== undefined && viewer.email === view.pack.createdBy)
  const set = telegram && shown ? await telegram.view(view.pack.id) : undefined
  return {
    headers: { 'Cache-Control': view.pack.visibility === 'public' ? 'no-cache' : 'private, no-store' },
    body: {
      ...toApiPackDetail(view, fileKeys, await makers.emailShown(viewer, [view.cover, ...view.items])),
      ...(set ? { telegram: set } : {}),
    },
  }
}

const asApiAnswer = ({ headers, body }: JsonAnswer): ApiAnswer => ({
  status: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
})

/**
 * The pack pages' API reads as a signed-out visitor makes them, for the server-rendered /packs and
 * /packs/{id}: the same answers as the routes below give. A pack a visitor cannot open is undefined.
 */
export function visitorPackAnswers(deps: PackDeps): PackAnswers {
  return {
    list: async () => asApiAnswer(await packListAnswer(deps, packListQuerySchema.parse({}))),
    detail: async (id) => {
      try {
        return asApiAnswer(await packDetailAnswer(deps, id, undefined))
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not-found') return undefined
        throw error
      }
    },
  }
}

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
  /** Public packs are revalidated by any cache; personal ones are stored by none. */
  const cacheFor = (ctx: Context, visibility: PackVisibility, publicValue: string) =>
    ctx.set('Cache-Control', visibility === 'public' ? publicValue : 'private, no-store')

  router.get('/packs', async (ctx) => {
    const { headers, body } = await packListAnswer(deps, packListQuerySchema.parse(ctx.query))
    ctx.set(headers)
    ctx.body = body
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
    const { headers, body } = await packDetailAnswer(deps, ctx.params.id!, await viewerOf(ctx, deps.accounts))
    ctx.set(headers)
    ctx.body = body
  })

  /** Links inside import archives and Pleroma's files point at the site's public origin. */
  const originOf = (ctx: Context) => config.publicUrl ?? `${ctx.protocol}://${ctx.host}`

  /** A community server's emoji archive (Misskey, Mastodon, Pleroma / Akkoma): served as the chat apps' ZIPs are. */
  const importDownload = async (ctx: Context, format: ImportFormat) => {
    const { part, key } = packDownloadQuerySchema.parse(ctx.query)
    // An import archive is one file: its server takes the whole pack.
    if (part !== undefined && part > 1) throw new HttpError('NOT_FOUND', `The ${format} archive comes whole: there is no part ${part}.`)
    const asMaker = key !== undefined && fileKeys.validPack(ctx.params.id, key)
    const archive = await packs.importArchive(ctx.params.id, format, await viewerOf(ctx, deps.accounts), {
      asMaker,
      context: { origin: originOf(ctx) },
    })
    const visitor = addressKey(ctx.ip)
    for (const id of archive.wumpusIds) downloads.count(id, visitor)
    ctx.set('Content-Disposition', contentDisposition('attachment', archive.fileName))
    cacheFor(ctx, archive.visibility, 'no-store')
    ctx.type = archive.contentType
    ctx.body = archive.stream
    if (archive.bytes !== undefined) ctx.length = archive.bytes
  }

  // A pack's Pleroma / Akkoma files, read by another server with no session: public and shared packs only.
  router.get('/packs/:id/pleroma/:file', costly, async (ctx) => {
    const file = pleromaFileSchema.safeParse(ctx.params.file)
    if (!file.success) throw new HttpError('NOT_FOUND', `No such file: use ${PLEROMA_FILES.join(', ')}`)
    const { body, visibility } = await packs.pleromaFile(ctx.params.id!, file.data, { origin: originOf(ctx) })
    cacheFor(ctx, visibility, 'no-cache')
    ctx.body = body
  })

  router.get('/packs/:id/download/:platform', maybeSession, costly, async (ctx) => {
    const format = importFormatSchema.safeParse(ctx.params.platform)
    if (format.success) return importDownload(ctx, format.data)
    // `wastickers`: WhatsApp's archive under the name sticker maker apps open.
    const wastickers = ctx.params.platform === WASTICKERS
    const platform = platformSchema.safeParse(wastickers ? 'whatsapp' : ctx.params.platform)
    if (!platform.success)
      throw new HttpError('NOT_FOUND', `No such platform: use ${[...PLATFORMS, WASTICKERS, ...IMPORT_FORMATS].join(', ')}`)
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

  // "Make or update the Telegram set now" (README: Telegram sets): an admin's for a public pack, its owner's for a
  // personal one (issue 36: 409 with the bot's start link until their Telegram is linked); 202, the work goes on in the background.
  router.post('/packs/:id/telegram', ...write, async (ctx) => {
    if (!deps.telegramLinks) throw new HttpError('NOT_FOUND', 'Telegram sets are off on this server: TELEGRAM_BOT_TOKEN is not set')
    const { email } = sessionOf(ctx)
    const asker = { email, isAdmin: await deps.accounts.isAdmin(email) }
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await deps.telegramLinks.requestSet(asker, ctx.params.id!)
    ctx.status = 202
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

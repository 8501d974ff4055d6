import Router from '@koa/router'
import type { Context, Middleware } from 'koa'
import { MEDIA_FORMATS, type MediaFormat } from '../../../contract/limits'
import { updateRemixSchema } from '../../../contract/remix/remix-api'
import { createWumpusFieldsSchema, createWumpusSchema, updateWumpusSchema, type CreateWumpus } from '../../../contract/wumpus-write'
import { HttpError } from '../http/http-error'
import { optionalSession, requireAdmin, requireSession, requireVerifiedEmail, sessionOf, viewerOf } from '../http/require-session'
import type { RouteDeps } from './route-deps'
import { makerEmailAlwaysShown, toApiWumpus } from '../http/mappers/wumpus'
import { multipart, readUploadedFile, uploadedFiles } from '../http/multipart'
import { idParam } from '../http/params'
import { cacheControlOf } from '../http/cache-control'
import type { PublishedFiles, SpendLimit } from '../services/wumpuses'
import type { SessionClaims } from '../../../contract/user'

/**
 * The animations: the paged gallery, one uploader's list, one animation, and publishing, editing and
 * deleting (which start, replace and remove their previews and platform exports).
 */
export function wumpusRoutes(deps: RouteDeps): Router {
  const { config, limits, wumpuses } = deps
  const router = new Router()
  const session = requireSession(deps.sessions)
  // The largest of the three limits per file; each file is checked against its own limit after.
  const parseMultipart = multipart({
    maxFileBytes: Math.max(config.limits.gif, config.limits.apng, config.limits.lottie),
    maxFiles: 3,
    config,
  })
  const multipartIfSent: Middleware = (ctx, next) => (ctx.is('multipart/form-data') ? parseMultipart(ctx, next) : next())
  const pages = deps.galleryPages
  // Sensitive animations are listed only to signed-in people who turned them on (their profile).
  const sendPage = async (ctx: Context, basePath: string) =>
    pages.send(ctx, basePath, { withSensitive: await deps.accounts.showsSensitive(ctx.state.session as SessionClaims | undefined) })
  // A search reads far more than a page of the gallery: searches are limited, paging is not.
  const searchGuard = limits.guard('search')
  const searchLimit: Middleware = (ctx, next) => (isSearch(ctx.query.q) ? searchGuard(ctx, next) : next())

  // One uploader's list needs a signed-in caller, on this path as on /api/wumpus?u_email= (docs/rest-api.md#endpoints).
  router.get('/wumpuses', optionalSession(deps.sessions), searchLimit, async (ctx) => {
    if (ctx.query.u_email !== undefined) sessionOf(ctx)
    await sendPage(ctx, '/api/wumpuses')
  })

  router.get('/wumpus', session, searchLimit, async (ctx) => {
    if (typeof ctx.query.u_email !== 'string') throw new HttpError('BAD_REQUEST', 'u_email is required')
    await sendPage(ctx, '/api/wumpus')
  })

  router.get('/wumpus/:id', optionalSession(deps.sessions), async (ctx) => {
    const viewer = await viewerOf(ctx, deps.accounts)
    const record = await wumpuses.findVisible(idParam(ctx), viewer)
    ctx.set('Cache-Control', cacheControlOf(record, 'no-cache'))
    ctx.body = record.remix
      ? toApiWumpus(record, deps.fileKeys, await deps.makers.emailShown(viewer, [record]))
      : { ...toApiWumpus(record), remixes: await wumpuses.countRemixes(record._id) }
  })

  router.post('/wumpuses', session, requireAdmin(deps.accounts), limits.guard('upload'), multipartIfSent, async (ctx) => {
    const { email, name } = sessionOf(ctx)
    const spend: SpendLimit = async (limit) => {
      await limits.ip(limit, ctx)
      await limits.account(limit, ctx, email)
    }
    let fields: Omit<CreateWumpus, 'files'>
    let files: PublishedFiles
    if (ctx.is('multipart/form-data')) {
      ;({ fields, files } = await sentFiles(ctx))
    } else {
      const body = createWumpusSchema.parse(ctx.request.body ?? {})
      fields = body
      files = { ids: body.files }
    }
    const record = await wumpuses.publish({ email, name }, fields, files, spend)
    ctx.status = 201
    ctx.body = toApiWumpus(record)
  })

  router.put('/wumpuses/:id', session, requireVerifiedEmail, async (ctx) => {
    const me = sessionOf(ctx).email
    // Who may edit is answered before what they sent is read.
    const record = await wumpuses.editable(me, idParam(ctx))
    // A remix's changes are limited like a pack's (an admin's edits of the gallery are not).
    if (record.remix) await limits.spend('remixChange', ctx)
    // A remix is named by the remix rules (any script, a title's punctuation: "Waving Wumpus, your version").
    const patch = (record.remix ? updateRemixSchema : updateWumpusSchema).parse(ctx.request.body ?? {})
    // Its editor is its owner or an admin.
    ctx.body = toApiWumpus(await wumpuses.edit(me, record, patch), deps.fileKeys, makerEmailAlwaysShown)
  })

  // Admins delete any animation; a remix's owner their remix.
  router.delete('/wumpus/:id', session, requireVerifiedEmail, async (ctx) => {
    const me = sessionOf(ctx).email
    const record = await wumpuses.mayDelete(me, idParam(ctx))
    if (record?.remix) await limits.spend('remixChange', ctx)
    ctx.body = { deletedCount: await wumpuses.delete(me, idParam(ctx)) }
  })

  return router
}

/** A list request with a query to search for (a blank one lists the gallery; a repeated one is refused after). */
function isSearch(q: string | string[] | undefined): boolean {
  return Array.isArray(q) || (q !== undefined && q.trim() !== '')
}

/** A multipart publish: the text fields and the sent files, read (at most one in each of gif, apng and lottie). */
async function sentFiles(ctx: Context) {
  const sent = uploadedFiles(ctx)
  const unknown = sent.find((f) => !(MEDIA_FORMATS as readonly string[]).includes(f.field))
  if (unknown || new Set(sent.map((f) => f.field)).size !== sent.length) {
    throw new HttpError('BAD_REQUEST', 'Send at most one file each in the fields gif, apng and lottie')
  }
  // Text fields of a multipart body (koa-body puts them in request.body).
  const { lottieUrl, ...fields } = createWumpusFieldsSchema.parse({ ...((ctx.request.body ?? {}) as Record<string, unknown>) })
  const bytes = await Promise.all(sent.map((file) => readUploadedFile(file)))
  const files: PublishedFiles = {
    sent: sent.map((file, i) => ({ format: file.field as MediaFormat, bytes: bytes[i]!, name: file.name })),
    lottieUrl,
  }
  return { fields, files }
}

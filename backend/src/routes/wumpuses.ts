import { readFile } from 'node:fs/promises'
import Router from '@koa/router'
import type { Context, Middleware } from 'koa'
import { CONTENT_TYPE, MEDIA_FORMATS, type MediaFormat } from '../../../contract/limits'
import { createWumpusFieldsSchema, createWumpusSchema, updateWumpusSchema } from '../../../contract/wumpus-write'
import { idSchema } from '../../../contract/wumpus'
import { badRequest, HttpError, notFound } from '../http/http-error'
import type { FileRef, Store } from '../store/port'
import { isAdmin, optionalSession, requireAdmin, requireSession, requireVerifiedEmail, sessionOf } from '../auth/require-session'
import { inspectAs, limitOf, lottieFromLink, renderAndStore, storeAnimationFile } from './animation-files'
import { multipart, uploadedFiles } from './uploads'
import type { RouteDeps } from '../app'
import { wumpusChanges } from '../services/audit'
import { galleryPages } from '../services/gallery-pages'
import { toApiWumpus } from './wumpus-view'

/**
 * The animations: the paged gallery, one uploader's list, one animation, and publishing, editing and
 * deleting (which start, replace and remove their previews and platform exports).
 */
export function wumpusRoutes(deps: RouteDeps): Router {
  const { store, config, limits, audit, derivedMedia } = deps
  const router = new Router()
  const session = requireSession(deps.sessions)
  // The largest of the three limits per file; each file is checked against its own limit after.
  const parseMultipart = multipart({ maxFileBytes: Math.max(config.limits.gif, config.limits.apng, config.limits.lottie), maxFiles: 3, config })
  const multipartIfSent: Middleware = (ctx, next) => (ctx.is('multipart/form-data') ? parseMultipart(ctx, next) : next())
  const pages = galleryPages(store)
  const sendPage = (ctx: Context, basePath: string) => pages.send(ctx, basePath)

  // One uploader's list needs a signed-in caller, on this path as on /api/wumpus?u_email= (docs/product-rules.md#rest-api).
  router.get('/wumpuses', optionalSession(deps.sessions), async (ctx) => {
    if (ctx.query.u_email !== undefined) sessionOf(ctx)
    await sendPage(ctx, '/api/wumpuses')
  })

  router.get('/wumpus', session, async (ctx) => {
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

  router.post('/wumpuses', session, requireAdmin(store), limits.guard('upload'), multipartIfSent, async (ctx) => {
    const me = sessionOf(ctx).email
    const u_name = (await store.getUser(me))?.user_name || sessionOf(ctx).name
    let files: Awaited<ReturnType<typeof storeSentFiles>> | undefined
    try {
      let fields: { name: string; description: string; tags?: string[] }
      let refs: Record<MediaFormat, FileRef>
      if (ctx.is('multipart/form-data')) {
        files = await storeSentFiles(ctx, me)
        ;({ fields, refs } = files)
      } else {
        const body = createWumpusSchema.parse(ctx.request.body ?? {})
        fields = body
        refs = (await checkedFileRefs(store, me, body.files)) as Record<MediaFormat, FileRef>
      }
      const record = await store.insertWumpus({ name: fields.name, description: fields.description, tags: fields.tags, files: refs, u_email: me, u_name })
      await audit.record({ actor: me, action: 'wumpus.publish', target: { type: 'wumpus', id: record._id, name: record.name }, changes: wumpusChanges(undefined, record) })
      // Previews and exports are made in the background; GET /api/wumpus/{id}/stickers follows them.
      void derivedMedia.refresh(record._id)
      ctx.status = 201
      ctx.body = toApiWumpus(record)
    } catch (error) {
      // Nothing half-written: files stored for this request go when the record does not come.
      if (files) await Promise.all(files.stored.map((id) => store.deleteFile(id)))
      throw error
    }
  })

  router.put('/wumpuses/:id', session, requireVerifiedEmail, async (ctx) => {
    const me = sessionOf(ctx).email
    const id = idSchema.safeParse(ctx.params.id)
    const record = id.success ? await store.getWumpus(id.data) : undefined
    if (!record) throw notFound('No animation with this id')
    if (record.u_email !== me && !(await isAdmin(store, me))) {
      throw new HttpError('FORBIDDEN', 'Only admins and the uploader can edit this animation')
    }
    const patch = updateWumpusSchema.parse(ctx.request.body ?? {})
    const replaced = patch.files ? await checkedFileRefs(store, me, patch.files) : {}
    const updated = await store.updateWumpus(record._id, {
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.tags === undefined ? {} : { tags: patch.tags }),
      ...(patch.files ? { files: { ...record.files, ...replaced } } : {}),
    })
    if (!updated) throw notFound('No animation with this id')
    const changes = wumpusChanges(record, updated)
    if (changes.length > 0) {
      await audit.record({ actor: me, action: 'wumpus.edit', target: { type: 'wumpus', id: updated._id, name: updated.name }, changes })
    }
    // The files this edit replaced belong to nothing any more.
    for (const format of Object.keys(replaced) as MediaFormat[]) {
      if (record.files[format].id !== updated.files[format].id) await store.deleteFile(record.files[format].id)
    }
    await derivedMedia.filesChanged(record, updated)
    ctx.body = toApiWumpus(updated)
  })

  router.delete('/wumpus/:id', session, requireAdmin(store), async (ctx) => {
    const id = idSchema.safeParse(ctx.params.id)
    const record = id.success ? await store.getWumpus(id.data) : undefined
    const deletedCount = record ? await store.deleteWumpus(record._id) : 0
    if (record && deletedCount > 0) {
      await audit.record({ actor: sessionOf(ctx).email, action: 'wumpus.delete', target: { type: 'wumpus', id: record._id, name: record.name }, changes: wumpusChanges(record, undefined) })
      await Promise.all(MEDIA_FORMATS.map((format) => store.deleteFile(record.files[format].id)))
      await derivedMedia.removed(record)
    }
    ctx.body = { deletedCount }
  })

  /** Multipart create: inspects every sent file, renders what is missing from the Lottie, stores them. */
  async function storeSentFiles(ctx: Context, owner: string) {
    const stored: string[] = []
    try {
      const sent = uploadedFiles(ctx)
      const unknown = sent.find((f) => !(MEDIA_FORMATS as readonly string[]).includes(f.field))
      if (unknown || new Set(sent.map((f) => f.field)).size !== sent.length) {
        throw new HttpError('BAD_REQUEST', 'Send at most one file each in the fields gif, apng and lottie')
      }
      const fields = createWumpusFieldsSchema.parse(textFields(ctx))
      const refs: Partial<Record<MediaFormat, FileRef>> = {}
      const inspected: { format: MediaFormat; bytes: Uint8Array; name: string }[] = []
      const sentBytes = await Promise.all(sent.map(async (file) => new Uint8Array(await readFile(file.path))))
      for (const [i, file] of sent.entries()) {
        const format = file.field as MediaFormat
        const bytes = sentBytes[i]!
        if (bytes.length > limitOf(config, format)) throw new HttpError('PAYLOAD_TOO_LARGE', `The ${format} file is too large`)
        inspectAs(bytes, format)
        inspected.push({ format, bytes, name: file.name })
      }
      if (!inspected.some((f) => f.format === 'lottie')) {
        if (!fields.lottieUrl) throw new HttpError('BAD_REQUEST', 'Give the Lottie as a file or a link', [{ path: 'lottie', message: 'Enter lottie json link' }])
        await limits.ip('lottieLink', ctx)
        await limits.account('lottieLink', owner)
        const linked = await lottieFromLink(store, config, fields.lottieUrl)
        if (linked.bytes.length > config.limits.lottie) throw new HttpError('PAYLOAD_TOO_LARGE', 'The linked Lottie is too large')
        inspectAs(linked.bytes, 'lottie')
        inspected.push({ format: 'lottie', ...linked })
      }
      // Stored side by side; each one stored is known, so a failure of another removes it.
      const storing = await Promise.allSettled(
        inspected.map(async (file) => {
          const info = await storeAnimationFile(store, file.bytes, file.format, file.name, owner)
          stored.push(info.id)
          refs[file.format] = { id: info.id, filename: info.filename }
        }),
      )
      const failed = storing.find((result) => result.status === 'rejected')
      if (failed) throw failed.reason
      if (!refs.gif || !refs.apng) {
        const lottie = inspected.find((f) => f.format === 'lottie')!
        await limits.ip('render', ctx)
        await limits.account('render', owner)
        const rendered = await renderAndStore(store, lottie.bytes, lottie.name, owner, deps.logger)
        for (const format of ['gif', 'apng'] as const) {
          stored.push(rendered[format].id)
          if (refs[format]) await store.deleteFile(rendered[format].id)
          else refs[format] = { id: rendered[format].id, filename: rendered[format].filename }
        }
      }
      return { fields, refs: refs as Record<MediaFormat, FileRef>, stored }
    } catch (error) {
      await Promise.all(stored.map((id) => store.deleteFile(id)))
      throw error
    }
  }

  return router
}

/** Text fields of a multipart body (koa-body puts them in request.body). */
function textFields(ctx: Context): Record<string, unknown> {
  return { ...((ctx.request.body ?? {}) as Record<string, unknown>) }
}

/**
 * File ids named in a JSON body: each must be a file this user uploaded for an animation, of the
 * right format, and not part of another animation (deleting that one would take it away).
 */
async function checkedFileRefs<F extends MediaFormat>(store: Store, owner: string, ids: Partial<Record<F, string>>): Promise<Partial<Record<F, FileRef>>> {
  const refs: Partial<Record<F, FileRef>> = {}
  for (const [format, id] of Object.entries(ids) as [F, string][]) {
    const info = await store.getFileInfo(id)
    if (!info) throw new HttpError('NOT_FOUND', `No uploaded ${format} file with this id`, { format })
    if (info.contentType !== CONTENT_TYPE[format]) throw new HttpError('UNSUPPORTED_MEDIA_TYPE', `The ${format} file id names a ${info.contentType} file`, { format })
    if (info.purpose !== 'animation' || info.owner !== owner) throw new HttpError('FORBIDDEN', `Use a ${format} file you uploaded for an animation`, { format })
    if (await store.isFileInUse(id)) throw new HttpError('CONFLICT', `That ${format} file already belongs to an animation`, { format })
    refs[format] = { id: info.id, filename: info.filename }
  }
  return refs
}

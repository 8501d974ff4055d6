import Router from '@koa/router'
import { readFile } from 'node:fs/promises'
import type { UploadedAnimationFile } from '../../../contract/wumpus-write'
import { animationFormatSchema, lottieLinkRequestSchema, renderRequestSchema } from '../../../contract/wumpus-write'
import { idSchema } from '../../../contract/wumpus'
import { CONTENT_TYPE, type MediaFormat } from '../../../contract/limits'
import type { RouteDeps } from '../app'
import { requireAdmin, requireSession, sessionOf } from '../auth/require-session'
import type { Config } from '../config'
import { HttpError, notFound } from '../http/http-error'
import { fetchRemote } from '../media/fetch-remote'
import { inspectMedia } from '../media/inspect'
import { MediaError } from '../media/media-error'
import { RenderQueueFullError, renderAnimation } from '../media/render-pool'
import type { Logger } from '../logger'
import type { Store, StoredFile } from '../store/port'
import { multipart, safeBaseName, uploadedFiles } from './uploads'
import { fileUrl } from './wumpus-view'

const EXTENSION: Record<MediaFormat, string> = { gif: 'gif', apng: 'png', lottie: 'json' }

/** The byte limit of each format, from the config. */
export function limitOf(config: Config, format: MediaFormat): number {
  return config.limits[format]
}

/** Inspects bytes as the given format; refusals become 415 (wrong kind) or 400 (broken), with the media code. */
export function inspectAs(bytes: Uint8Array, format: MediaFormat) {
  try {
    return inspectMedia(bytes, format)
  } catch (error) {
    if (!(error instanceof MediaError)) throw error
    const wrongKind = error.code === 'WRONG_FORMAT' || error.code === 'BAD_SIGNATURE' || error.code === 'NOT_ANIMATED'
    throw new HttpError(wrongKind ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', `${labelOf(format)}: ${error.message}`, {
      mediaCode: error.code,
      format,
      ...(error.details && typeof error.details === 'object' ? error.details : {}),
    })
  }
}

const labelOf = (format: MediaFormat) => ({ gif: 'GIF', apng: 'APNG', lottie: 'Lottie' })[format]

/** Stores bytes already inspected as `format`, under the uploader, for use in an animation. */
export async function storeAnimationFile(store: Store, bytes: Uint8Array, format: MediaFormat, originalName: string, owner: string): Promise<StoredFile> {
  const base = safeBaseName(originalName) || 'wumpus'
  return store.putFile({ bytes, contentType: CONTENT_TYPE[format], filename: `${base}.${EXTENSION[format]}`, owner, purpose: 'animation' })
}

export function describeUpload(file: StoredFile, info: ReturnType<typeof inspectMedia>): UploadedAnimationFile {
  return { id: file.id, url: fileUrl(file), filename: file.filename, info }
}

/** Bytes of a Lottie behind a link: one of our own file URLs, or an https link fetched with care. */
export async function lottieFromLink(store: Store, config: Config, link: string): Promise<{ bytes: Uint8Array; name: string }> {
  const own = /^(?:https?:\/\/[^/]+)?\/api\/files\/([0-9a-f]{24})(?:\/([^/?#]*))?/.exec(link)
  if (own) {
    const file = await store.readFile(own[1]!)
    if (!file) throw notFound('No file at that link')
    return { bytes: file.bytes, name: file.info.filename }
  }
  const bytes = await fetchRemote(link, { maxBytes: config.limits.lottie })
  return { bytes, name: linkFileName(link) || 'wumpus.json' }
}

/** The file name at the end of a link's path, decoded; a malformed %-escape leaves it as written. */
export function linkFileName(link: string): string {
  const segment = new URL(link).pathname.split('/').pop() ?? ''
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** Renders GIF and APNG from a Lottie in the worker, inspects and stores both. */
export async function renderAndStore(store: Store, lottieBytes: Uint8Array, name: string, owner: string, logger?: Logger) {
  let lottie: unknown
  try {
    lottie = JSON.parse(new TextDecoder().decode(lottieBytes))
  } catch {
    throw new HttpError('BAD_REQUEST', 'The Lottie is not valid JSON')
  }
  let rendered
  try {
    rendered = await renderAnimation(lottie as object)
  } catch (error) {
    if (error instanceof RenderQueueFullError) {
      const { retryAfterSeconds } = error
      throw new HttpError('SERVER_BUSY', 'The server is busy rendering other animations; try again shortly', { retryAfterSeconds }, retryAfterSeconds)
    }
    // What went wrong inside the renderer is for the logs; the answer only says that it did.
    logger?.error('render failed', { error: String(error) })
    throw new HttpError('BAD_REQUEST', 'The Lottie could not be rendered: it may use features the renderer does not support, or be too heavy', { reason: 'render-failed' })
  }
  const stored: Partial<Record<'gif' | 'apng', UploadedAnimationFile>> = {}
  for (const format of ['gif', 'apng'] as const) {
    const info = inspectAs(rendered[format], format)
    stored[format] = describeUpload(await storeAnimationFile(store, rendered[format], format, name, owner), info)
  }
  return stored as Record<'gif' | 'apng', UploadedAnimationFile>
}

/** Uploading the three files of an animation one by one, so the admin sees each checked before publishing. */
export function animationFileRoutes(deps: Pick<RouteDeps, 'store' | 'config' | 'sessions' | 'limits' | 'logger'>): Router {
  const { store, config, limits } = deps
  const router = new Router()
  const admin = [requireSession(deps.sessions), requireAdmin(store)]
  const largest = Math.max(config.limits.gif, config.limits.apng, config.limits.lottie)

  router.post('/uploads/animation', ...admin, limits.guard('upload'), async (ctx, next) => {
    const format = animationFormatSchema.safeParse(ctx.query.format)
    if (!format.success) throw new HttpError('BAD_REQUEST', 'Say which format: ?format=gif, apng or lottie')
    ctx.state.format = format.data
    await next()
  }, multipart({ maxFileBytes: largest, maxFiles: 1, config }), async (ctx) => {
    const format = ctx.state.format as MediaFormat
    const files = uploadedFiles(ctx)
    const file = files.find((f) => f.field === 'file')
    if (!file || files.length !== 1) throw new HttpError('BAD_REQUEST', 'Send exactly one file, in the field "file"')
    const bytes = new Uint8Array(await readFile(file.path))
    if (bytes.length > limitOf(config, format)) throw new HttpError('PAYLOAD_TOO_LARGE', `${labelOf(format)} files may be at most ${limitOf(config, format)} bytes`)
    const info = inspectAs(bytes, format)
    ctx.status = 201
    ctx.body = describeUpload(await storeAnimationFile(store, bytes, format, file.name, sessionOf(ctx).email), info)
  })

  router.post('/uploads/lottie-link', ...admin, limits.guard('lottieLink'), async (ctx) => {
    const { url } = lottieLinkRequestSchema.parse(ctx.request.body ?? {})
    const { bytes, name } = await lottieFromLink(store, config, url)
    if (bytes.length > config.limits.lottie) throw new HttpError('PAYLOAD_TOO_LARGE', 'The linked Lottie is too large')
    const info = inspectAs(bytes, 'lottie')
    ctx.status = 201
    ctx.body = describeUpload(await storeAnimationFile(store, bytes, 'lottie', name, sessionOf(ctx).email), info)
  })

  router.post('/renders', ...admin, limits.guard('render'), async (ctx) => {
    const { lottie } = renderRequestSchema.parse(ctx.request.body ?? {})
    const file = idSchema.safeParse(lottie).success ? await store.readFile(lottie) : undefined
    if (!file || file.info.purpose !== 'animation' || file.info.contentType !== CONTENT_TYPE.lottie) throw notFound('No uploaded Lottie with this id')
    ctx.status = 201
    ctx.body = await renderAndStore(store, file.bytes, file.info.filename, sessionOf(ctx).email, deps.logger)
  })

  return router
}

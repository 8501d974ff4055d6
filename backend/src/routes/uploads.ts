import { readFile, rm } from 'node:fs/promises'
import Router from '@koa/router'
import { koaBody } from 'koa-body'
import type { Middleware } from 'koa'
import { requireSession, sessionOf } from '../auth/require-session'
import type { Config } from '../config'
import { HttpError } from '../http/http-error'
import { inspectImage } from '../media/inspect-image'
import { MediaError } from '../media/media-error'
import type { Store } from '../store/port'
import { fileUrl } from './wumpus-view'

const EXTENSION: Record<string, string> = { png: 'png', apng: 'png', gif: 'gif', jpeg: 'jpg', webp: 'webp' }

/** Multipart parsing for one route: formidable's limits become our 413/400 in the error shape. */
export function multipart(options: { maxFileBytes: number; maxFiles: number }): Middleware {
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: { maxFileSize: options.maxFileBytes, maxTotalFileSize: options.maxFileBytes * options.maxFiles, maxFiles: options.maxFiles, maxFields: 20, allowEmptyFiles: false },
    onError: (error) => {
      const code = (error as { code?: number }).code
      const http = (error as { httpCode?: number }).httpCode
      // formidable: 1009 a file above maxFileSize, 1016 all files above maxTotalFileSize.
      if (code === 1009 || code === 1016) throw new HttpError('PAYLOAD_TOO_LARGE', 'The file is too large')
      if (code === 1015) throw new HttpError('BAD_REQUEST', 'Too many files in one upload')
      throw new HttpError(http === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', 'The upload could not be read')
    },
  })
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data')
    await parse(ctx, next)
  }
}

/** Uploaded files sit in temp files until handled; this removes them whatever happens. */
export function uploadedFiles(ctx: { request: { files?: unknown } }): { field: string; path: string; name: string }[] {
  const files = (ctx.request.files ?? {}) as Record<string, { filepath: string; originalFilename?: string | null } | { filepath: string; originalFilename?: string | null }[]>
  return Object.entries(files).flatMap(([field, value]) =>
    (Array.isArray(value) ? value : [value]).map((f) => ({ field, path: f.filepath, name: f.originalFilename ?? '' })),
  )
}

/** Profile photos, covers and sign-up photos: stored on our server, judged by their bytes. */
export function uploadRoutes(deps: { store: Store; config: Config }): Router {
  const { store, config } = deps
  const router = new Router()

  router.post('/uploads/image', requireSession(config.jwtSecret), multipart({ maxFileBytes: config.limits.image, maxFiles: 1 }), async (ctx) => {
    const files = uploadedFiles(ctx)
    try {
      const file = files.find((f) => f.field === 'file')
      if (!file || files.length !== 1) throw new HttpError('BAD_REQUEST', 'Send exactly one file, in the field "file"')
      const bytes = new Uint8Array(await readFile(file.path))
      let info: ReturnType<typeof inspectImage>
      try {
        info = inspectImage(bytes)
      } catch (error) {
        if (error instanceof MediaError) {
          const status = error.code === 'BAD_SIGNATURE' ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST'
          throw new HttpError(status, `Not an image we can use: ${error.message}`, { mediaCode: error.code })
        }
        throw error
      }
      const base = safeBaseName(file.name) || 'image'
      const stored = await store.putFile({
        bytes,
        contentType: info.contentType,
        filename: `${base}.${EXTENSION[info.format] ?? 'img'}`,
        owner: sessionOf(ctx).email,
        purpose: 'image',
      })
      ctx.status = 201
      ctx.body = { url: fileUrl({ id: stored.id, filename: stored.filename }) }
    } finally {
      await Promise.all(files.map((f) => rm(f.path, { force: true })))
    }
  })

  return router
}

/** The name without its extension, reduced to harmless characters. */
export function safeBaseName(name: string): string {
  return (name.split(/[/\\]/).pop() ?? '')
    .replace(/\.[^.]*$/, '')
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 80)
}

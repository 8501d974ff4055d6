import Router from '@koa/router'
import type { RouteDeps } from './route-deps'
import { addressKey } from '../http/client-address'
import { matchesEtag } from '../http/etag'
import { idParam } from '../http/params'
import { optionalSession, viewerOf } from '../http/require-session'
import { contentDisposition } from '../http/content-disposition'
import { sendTimeout } from '../http/node-server'
import { shownFileName } from '../services/file-names'

/**
 * Stored files under stable URLs; content never changes for an id, so they cache for a year.
 * `?download=1` asks for an attachment, and counts as a download of the file's animation. The files of a
 * private remix are unknown to all but its owner and admins (their bearer, or the key in the URLs they were shown).
 * The bytes are streamed from the store, and a client that takes none of them for the send timeout is cut off.
 */
export function fileRoutes(deps: RouteDeps): Router {
  const { files, downloads } = deps
  const router = new Router()
  const timed = sendTimeout(deps.config.sendTimeoutSeconds)

  router.get(['/files/:id', '/files/:id/:name'], optionalSession(deps.sessions), timed, async (ctx) => {
    const info = await files.find(idParam(ctx))
    const keyOpens = (remix: { remix?: { keyGeneration?: number } }) =>
      deps.fileKeys.valid(info.id, ctx.query.key, remix.remix?.keyGeneration)
    const remix = await files.remixOf(info, await viewerOf(ctx, deps.accounts), keyOpens)

    const download = ctx.query.download === '1'
    ctx.etag = info.sha256
    // A remix's files are personal, and who may see them can change: each use asks again (by ETag).
    ctx.set('Cache-Control', remix ? 'private, no-cache' : 'public, max-age=31536000, immutable')
    ctx.set(
      'Content-Disposition',
      contentDisposition(download ? 'attachment' : 'inline', remix ? shownFileName(remix, info.filename) : info.filename),
    )
    ctx.type = info.contentType
    if (matchesEtag(ctx.get('If-None-Match'), ctx.response.get('ETag'))) {
      ctx.status = 304
      if (download) void downloads.countFile(info.id, addressKey(ctx.ip))
      return
    }
    const body = await files.stream(info.id)
    if (download) void downloads.countFile(info.id, addressKey(ctx.ip))
    // Streamed from the store as the client takes it; the size is known, so it is sent as Content-Length.
    ctx.body = body
    ctx.length = info.size
    ctx.type = info.contentType
  })

  return router
}

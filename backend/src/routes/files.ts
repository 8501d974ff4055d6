import Router from '@koa/router'
import { DOWNLOAD_COUNTED_HEADER } from '../../../contract/api-paths'
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
 * `?download=1` asks for an attachment, and counts as a download of the file's animation (once per visitor a
 * day; one that counted names the animation in X-Download-Counted). The files of a
 * private remix are unknown to all but its owner and admins (their bearer, or the key in the URLs they were shown),
 * and a submission's Lottie to all but its submitter and admins.
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
    const viewer = await viewerOf(ctx, deps.accounts)
    const personal = files.isSubmissionFile(info, viewer)
    const remix = await files.remixOf(info, viewer, keyOpens)

    const download = ctx.query.download === '1'
    // A download that counted names its animation, so the page showing the count can add it at once.
    const counted = download ? await downloads.countFile(info.id, addressKey(ctx.ip)) : undefined
    if (counted) ctx.set(DOWNLOAD_COUNTED_HEADER, counted)
    ctx.etag = info.sha256
    // A remix's, a hidden animation's and a submission's files are personal, and who may see them can change: each use asks again (by ETag).
    ctx.set('Cache-Control', remix || personal ? 'private, no-cache' : 'public, max-age=31536000, immutable')
    ctx.set(
      'Content-Disposition',
      contentDisposition(download ? 'attachment' : 'inline', remix ? shownFileName(remix, info.filename) : info.filename),
    )
    ctx.type = info.contentType
    if (matchesEtag(ctx.get('If-None-Match'), ctx.response.get('ETag'))) {
      ctx.status = 304
      return
    }
    const body = await files.stream(info.id)
    // Streamed from the store as the client takes it; the size is known, so it is sent as Content-Length.
    ctx.body = body
    ctx.length = info.size
    ctx.type = info.contentType
  })

  return router
}

import Router, { type RouterContext } from '@koa/router'
import type { RouteDeps } from './route-deps'
import { contentDisposition } from '../http/content-disposition'
import { matchesEtag } from '../http/etag'
import { toApiStickers } from '../http/mappers/stickers'
import { sendTimeout } from '../http/node-server'
import { idParam } from '../http/params'
import { fileStem } from '../services/file-names'
import { cacheControlOf } from '../http/cache-control'
import { remixOfRemix } from '../services/remixes'
import { optionalSession, viewerOf } from '../http/require-session'

/**
 * GET /wumpus/{id}/stickers: one file per chat platform, from the facts stored with the animation.
 * GET /wumpus/{id}/still.png: its first frame as a PNG (link previews, Copy image).
 * GET /wumpus/{id}/colours: the colour slots a remix can change, and presets (an original's only).
 * A private remix is unknown to all but its owner and admins here too.
 */
export function stickerRoutes(deps: RouteDeps): Router {
  const { config } = deps
  const router = new Router()
  const maybeSession = optionalSession(deps.sessions)
  const visible = async (ctx: RouterContext) => deps.wumpuses.findVisible(idParam(ctx), await viewerOf(ctx, deps.accounts))

  router.get('/wumpus/:id/stickers', maybeSession, async (ctx) => {
    const record = await visible(ctx)
    ctx.set('Cache-Control', cacheControlOf(record, 'no-cache'))
    ctx.body = toApiStickers(record, deps.fileKeys)
  })

  router.get('/wumpus/:id/still.png', maybeSession, sendTimeout(config.sendTimeoutSeconds), async (ctx) => {
    const record = await visible(ctx)
    const still = await deps.stills.of(record)
    // The same URL shows a new still once the Lottie is replaced: revalidate, by ETag.
    ctx.set('Cache-Control', record.remix || record.hidden ? 'private, no-cache' : 'no-cache')
    ctx.set('Content-Disposition', contentDisposition('inline', `${fileStem(record.name)}.png`))
    ctx.etag = still.etag
    if (matchesEtag(ctx.get('If-None-Match'), still.etag)) {
      ctx.status = 304
      return
    }
    ctx.type = 'image/png'
    ctx.body = Buffer.from(still.png.buffer, still.png.byteOffset, still.png.byteLength)
  })

  router.get('/wumpus/:id/colours', maybeSession, async (ctx) => {
    const record = await visible(ctx)
    if (record.remix) throw remixOfRemix()
    // The slots follow the Lottie file: a new Lottie is a new ETag.
    const etag = `"colours-${record.files.lottie.id}"`
    ctx.set('Cache-Control', 'no-cache')
    ctx.etag = etag
    if (matchesEtag(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304
      return
    }
    ctx.body = await deps.remixes.colourChoices(record)
  })

  return router
}

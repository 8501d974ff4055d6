import Router from '@koa/router'
import { idSchema } from '../../../contract/wumpus'
import { matchesEtag } from '../http/etag'
import { notFound } from '../http/http-error'
import { stillPng } from '../media/still-png'
import type { Store } from '../store/port'
import { fileStem } from '../services/derived-media'
import { contentDisposition } from './files'
import { stillSource, toApiStickers } from './wumpus-view'

/** How many converted stills are kept in memory (a few KB to a few hundred KB each). */
const STILLS_KEPT = 64

/**
 * GET /wumpus/{id}/stickers: one file per chat platform, from the facts stored with the animation.
 * GET /wumpus/{id}/still.png: its first frame as a PNG (link previews, Copy image), made from the stored
 * still (or the GIF until there is one) when first asked for.
 */
export function stickerRoutes(deps: { store: Store }): Router {
  const { store } = deps
  const router = new Router()
  // By source file id: a stored file never changes, so neither does its PNG.
  const stills = new Map<string, { png: Uint8Array; etag: string }>()

  router.get('/wumpus/:id/stickers', async (ctx) => {
    const id = idSchema.safeParse(ctx.params.id)
    const record = id.success ? await store.getWumpus(id.data) : undefined
    if (!record) throw notFound('No animation with this id')
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = toApiStickers(record)
  })

  router.get('/wumpus/:id/still.png', async (ctx) => {
    const id = idSchema.safeParse(ctx.params.id)
    const record = id.success ? await store.getWumpus(id.data) : undefined
    if (!record) throw notFound('No animation with this id')
    const source = stillSource(record).file
    let still = stills.get(source.id)
    if (!still) {
      const file = await store.readFile(source.id)
      if (!file) throw notFound('The picture of this animation is missing')
      // Stored pictures were checked by their bytes on upload; one that still cannot be read has no still.
      const png = await stillPng(file.bytes).catch(() => undefined)
      if (!png) throw notFound('No still picture can be made of this animation')
      still = { png, etag: `"${file.info.sha256.slice(0, 32)}-still-png"` }
      if (stills.size >= STILLS_KEPT) stills.delete(stills.keys().next().value!)
      stills.set(source.id, still)
    }
    // The same URL shows a new still once the Lottie is replaced: revalidate, by ETag.
    ctx.set('Cache-Control', 'no-cache')
    ctx.set('Content-Disposition', contentDisposition('inline', `${fileStem(record.name)}.png`))
    ctx.etag = still.etag
    if (matchesEtag(ctx.get('If-None-Match'), still.etag)) {
      ctx.status = 304
      return
    }
    ctx.type = 'image/png'
    ctx.body = Buffer.from(still.png.buffer, still.png.byteOffset, still.png.byteLength)
  })

  return router
}

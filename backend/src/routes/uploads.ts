import Router from '@koa/router'
import type { RouteDeps } from './route-deps'
import { requireSession, sessionOf } from '../http/require-session'
import { fileUrl } from '../http/mappers/file'
import { multipart, singleUploadedFile } from '../http/multipart'

/** Profile photos, covers and sign-up photos: stored on our server, judged by their bytes. */
export function uploadRoutes(deps: RouteDeps): Router {
  const { profileImages, config } = deps
  const router = new Router()
  const upload = multipart({ maxFileBytes: config.limits.image, maxFiles: 1, config })

  router.post('/uploads/image', requireSession(deps.sessions), deps.limits.guard('image'), upload, async (ctx) => {
    const { bytes, name } = await singleUploadedFile(ctx)
    const stored = await profileImages.save(sessionOf(ctx).email, bytes, name)
    ctx.status = 201
    ctx.body = { url: fileUrl({ id: stored.id, filename: stored.filename }) }
  })

  return router
}

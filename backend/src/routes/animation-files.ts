import Router from '@koa/router'
import { animationFormatSchema, lottieLinkRequestSchema, renderRequestSchema } from '../../../contract/wumpus-write'
import type { MediaFormat } from '../../../contract/limits'
import type { RouteDeps } from './route-deps'
import { requireAdmin, requireSession, sessionOf } from '../http/require-session'
import { HttpError } from '../http/http-error'
import { toApiUploadedFile } from '../http/mappers/file'
import { multipart, singleUploadedFile } from '../http/multipart'

/** Uploading the three files of an animation one by one, so the admin sees each checked before publishing. */
export function animationFileRoutes(deps: RouteDeps): Router {
  const { config, limits } = deps
  const router = new Router()
  const admin = [requireSession(deps.sessions), requireAdmin(deps.accounts)]
  const largest = Math.max(config.limits.gif, config.limits.apng, config.limits.lottie)

  router.post(
    '/uploads/animation',
    ...admin,
    limits.guard('upload'),
    async (ctx, next) => {
      const format = animationFormatSchema.safeParse(ctx.query.format)
      if (!format.success) throw new HttpError('BAD_REQUEST', 'Say which format: ?format=gif, apng or lottie')
      ctx.state.format = format.data
      await next()
    },
    multipart({ maxFileBytes: largest, maxFiles: 1, config }),
    async (ctx) => {
      const format = ctx.state.format as MediaFormat
      const { bytes, name } = await singleUploadedFile(ctx)
      const uploaded = await deps.animationFiles.upload(sessionOf(ctx).email, { format, bytes, name })
      ctx.status = 201
      ctx.body = toApiUploadedFile(uploaded)
    },
  )

  router.post('/uploads/lottie-link', ...admin, limits.guard('lottieLink'), async (ctx) => {
    const { url } = lottieLinkRequestSchema.parse(ctx.request.body ?? {})
    const uploaded = await deps.animationFiles.uploadLink(sessionOf(ctx).email, url)
    ctx.status = 201
    ctx.body = toApiUploadedFile(uploaded)
  })

  router.post('/renders', ...admin, limits.guard('render'), async (ctx) => {
    const { lottie } = renderRequestSchema.parse(ctx.request.body ?? {})
    const rendered = await deps.animationFiles.render(sessionOf(ctx).email, lottie)
    ctx.status = 201
    ctx.body = { gif: toApiUploadedFile(rendered.gif), apng: toApiUploadedFile(rendered.apng) }
  })

  return router
}

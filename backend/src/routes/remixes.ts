import Router from '@koa/router'
import { myRemixListPath } from '../../../contract/remix/remix-paths'
import { pageQuerySchema } from '../../../contract/paging'
import { remixRequestSchema, remixSharingSchema } from '../../../contract/remix/remix-api'
import type { RouteDeps } from './route-deps'
import { requireSession, requireVerifiedEmail, sessionOf, viewerOf } from '../http/require-session'
import { makerEmailAlwaysShown, toApiWumpus } from '../http/mappers/wumpus'
import { setPageHeaders } from '../http/page-headers'
import { idParam } from '../http/params'

/**
 * Remixes (services/remixes.ts has the rules; contract/remix/remix-api.ts the contract): made by any user
 * with a verified email, at the render rate limit; shared by their owner, who can also renew its file keys;
 * listed for their owner. A remix
 * is otherwise an animation: read, edited and deleted under /wumpus/{id} (routes/wumpuses.ts).
 */
export function remixRoutes(deps: RouteDeps): Router {
  const { remixes } = deps
  const router = new Router()
  const session = requireSession(deps.sessions)

  router.post('/wumpus/:id/remix', session, requireVerifiedEmail, deps.limits.guard('render'), async (ctx) => {
    const { name, ...recipe } = remixRequestSchema.parse(ctx.request.body ?? {})
    const owner = { ...(await viewerOf(ctx, deps.accounts))!, name: sessionOf(ctx).name }
    const remix = await remixes.create(owner, idParam(ctx), recipe, name)
    ctx.status = 201
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { id: remix._id }
  })

  router.put('/wumpus/:id/sharing', session, requireVerifiedEmail, deps.limits.guard('remixChange'), async (ctx) => {
    const viewer = (await viewerOf(ctx, deps.accounts))!
    // Whose remix it is is answered before what was sent is read.
    await remixes.own(viewer, idParam(ctx))
    const { visibility } = remixSharingSchema.parse(ctx.request.body ?? {})
    const updated = await remixes.share(viewer, idParam(ctx), visibility)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = toApiWumpus(updated, deps.fileKeys, makerEmailAlwaysShown)
  })

  // New keys for a remix's files (http/file-keys.ts): the keyed URLs its owner was shown before open nothing.
  router.post('/wumpus/:id/key', session, requireVerifiedEmail, deps.limits.guard('remixChange'), async (ctx) => {
    const updated = await remixes.renewKeys((await viewerOf(ctx, deps.accounts))!, idParam(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = toApiWumpus(updated, deps.fileKeys, makerEmailAlwaysShown)
  })

  router.get('/me/remixes', session, async (ctx) => {
    const query = pageQuerySchema.parse(ctx.query)
    const page = await remixes.listOwn(sessionOf(ctx).email, query)
    setPageHeaders(ctx, page, (cursor) => myRemixListPath({ limit: query.limit, cursor }))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = page.items.map((item) => toApiWumpus(item, deps.fileKeys, makerEmailAlwaysShown))
  })

  return router
}

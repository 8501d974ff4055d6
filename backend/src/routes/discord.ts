import Router from '@koa/router'
import type { Context } from 'koa'
import { discordAuthorizeQuerySchema, discordCallbackQuerySchema } from '../../../contract/discord'
import { idSchema } from '../../../contract/wumpus'
import type { RouteDeps } from './route-deps'
import { requireSession, sessionOf, viewerOf } from '../http/require-session'
import { HttpError } from '../http/http-error'

/**
 * "Add to my Discord server" (services/discord-uploads.ts; README: Discord app). A signed-in person who can open
 * the pack gets a ticket (POST), the browser opens GET …/discord?ticket= (a navigation carries no bearer token:
 * the signed ticket is the person's) and goes on to Discord; Discord sends it back to the callback, which makes
 * the upload job and opens the pack's page with it. All 404 while Discord is off.
 */
export function discordRoutes(deps: RouteDeps): Router {
  const router = new Router()
  const session = requireSession(deps.sessions)
  const on = () => {
    if (!deps.discord) throw new HttpError('NOT_FOUND', 'Discord is off on this server: DISCORD_CLIENT_ID is not set')
    return deps.discord
  }
  /** The redirect registered with the app: PUBLIC_URL's, else this request's origin. */
  const redirectUri = (ctx: Context) => `${deps.config.publicUrl ?? `${ctx.protocol}://${ctx.host}`}/api/discord/callback`
  const packPage = (packId: string | undefined, query: string) => (packId ? `/packs/${encodeURIComponent(packId)}?${query}` : `/?${query}`)

  router.post('/packs/:id/discord', session, deps.limits.guard('pack'), async (ctx) => {
    const discord = on()
    const id = idSchema.parse(ctx.params.id)
    sessionOf(ctx)
    ctx.body = await discord.ticket(id, (await viewerOf(ctx, deps.accounts))!)
    ctx.set('Cache-Control', 'no-store')
  })

  router.get('/packs/:id/discord', (ctx) => {
    const discord = on()
    const id = idSchema.parse(ctx.params.id)
    const { ticket } = discordAuthorizeQuerySchema.parse(ctx.query)
    const answer = discord.authorizeUrl(id, ticket ?? '', redirectUri(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.set('Referrer-Policy', 'no-referrer')
    ctx.redirect('url' in answer ? answer.url : packPage(id, `discord_error=${answer.problem}`))
  })

  router.get('/discord/callback', async (ctx) => {
    const discord = on()
    const query = discordCallbackQuerySchema.parse(ctx.query)
    const outcome = await discord.callback(
      { code: query.code, state: query.state, guildId: query.guild_id, error: query.error },
      redirectUri(ctx),
    )
    ctx.set('Cache-Control', 'no-store')
    // The code and state stay out of the next page's Referer.
    ctx.set('Referrer-Policy', 'no-referrer')
    ctx.redirect(
      'jobId' in outcome
        ? packPage(outcome.packId, `discord=${outcome.jobId}`)
        : packPage(outcome.packId, `discord_error=${outcome.problem}`),
    )
  })

  router.get('/discord/uploads/:id', session, async (ctx) => {
    const discord = on()
    const id = idSchema.parse(ctx.params.id)
    ctx.body = await discord.view(id, sessionOf(ctx).email)
    ctx.set('Cache-Control', 'no-store')
  })

  return router
}

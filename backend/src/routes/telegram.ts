import { createHash, timingSafeEqual } from 'node:crypto'
import Router from '@koa/router'
import { telegramUpdateSchema, type TelegramLink } from '../../../contract/telegram-link'
import { HttpError } from '../http/http-error'
import { requireSession, sessionOf } from '../http/require-session'
import type { RouteDeps } from './route-deps'

const OFF = 'Telegram is off on this server: TELEGRAM_BOT_TOKEN is not set'

/** Compares in constant time (both sides hashed to one length first). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(given), digest(expected))
}

/**
 * Issue 36 (README: Telegram sets): one's Telegram link (GET, DELETE /api/me/telegram) and the bot's webhook
 * (POST /api/telegram/webhook, with TELEGRAM_WEBHOOK_SECRET: Telegram sends it in X-Telegram-Bot-Api-Secret-Token).
 */
export function telegramRoutes(deps: RouteDeps): Router {
  const router = new Router()
  const session = requireSession(deps.sessions)
  const links = () => {
    if (!deps.telegramLinks) throw new HttpError('NOT_FOUND', OFF)
    return deps.telegramLinks
  }

  router.get('/me/telegram', session, async (ctx) => {
    const body: TelegramLink = await links().view(sessionOf(ctx).email)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = body
  })

  router.delete('/me/telegram', session, async (ctx) => {
    ctx.body = { unlinked: await links().unlink(sessionOf(ctx).email) }
  })

  router.post('/telegram/webhook', async (ctx) => {
    const secret = deps.config.telegram?.webhookSecret
    if (!deps.telegramLinks || !secret) throw new HttpError('NOT_FOUND', 'Not found')
    const given = ctx.get('X-Telegram-Bot-Api-Secret-Token')
    if (!given || !sameSecret(given, secret)) throw new HttpError('UNAUTHENTICATED', 'Unauthorized')
    await deps.telegramLinks.handleUpdate(telegramUpdateSchema.parse(ctx.request.body ?? {}))
    ctx.body = { ok: true }
  })

  return router
}

import { z } from 'zod'
import { TELEGRAM_START_URL_PATTERN } from './limits'

/**
 * Issue 36: whether the signed-in account is linked to a Telegram user (GET /api/me/telegram; never a token or
 * code). Their personal packs' sets are made with that Telegram user as owner.
 */
export const telegramLinkSchema = z.object({
  linked: z.boolean(),
  linkedAt: z.iso.datetime().optional(),
})
export type TelegramLink = z.infer<typeof telegramLinkSchema>

/** The details of POST /api/packs/{id}/telegram's 409 when the owner's Telegram is not linked: the bot's one-time start link. */
export const telegramNotLinkedSchema = z.object({
  reason: z.literal('telegram-not-linked'),
  startUrl: z.string().regex(TELEGRAM_START_URL_PATTERN),
})
export type TelegramNotLinked = z.infer<typeof telegramNotLinkedSchema>

/** One's Telegram link: `GET` and `DELETE /api/me/telegram`. */
export const TELEGRAM_LINK_PATH = '/api/me/telegram'

/** The Update as Telegram posts it to the webhook (the fields the bot reads; others pass). */
export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int(),
  message: z
    .looseObject({
      chat: z.looseObject({ id: z.number().int(), type: z.string().optional() }).optional(),
      from: z.looseObject({ id: z.number().int(), is_bot: z.boolean().optional() }).optional(),
      text: z.string().optional(),
    })
    .optional(),
})

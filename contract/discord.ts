import { z } from 'zod'
import { idSchema } from './wumpus'

/**
 * "Add to my Discord server" (README: Discord app). The pack's page asks for a ticket (POST
 * /api/packs/{id}/discord), opens the URL it answers (which sends the browser to Discord), and, back from
 * Discord on /packs/{id}?discord=<job>, follows the job (GET /api/discord/uploads/{job}).
 */
export const discordTicketSchema = z.object({ url: z.string() })
export type DiscordTicket = z.infer<typeof discordTicketSchema>

/** GET /api/packs/{id}/discord's query. */
export const discordAuthorizeQuerySchema = z.object({ ticket: z.string().max(2000).optional() })

/** GET /api/discord/callback's query, as Discord sends it (extra fields such as `permissions` are ignored). */
export const discordCallbackQuerySchema = z.object({
  code: z.string().max(500).optional(),
  state: z.string().max(2000).optional(),
  guild_id: z.string().max(40).optional(),
  error: z.string().max(200).optional(),
})

/** Why the way back from Discord made no job: the pack page's `?discord_error=`. */
export const DISCORD_PROBLEMS = ['denied', 'expired', 'unknown', 'used', 'refused', 'no-server'] as const
export type DiscordProblem = (typeof DISCORD_PROBLEMS)[number]

export const DISCORD_PROBLEM_TEXT: Record<DiscordProblem, string> = {
  denied: 'Discord was not given the go-ahead, so nothing was added.',
  expired: 'That took longer than 10 minutes: press “Add to my Discord server” again.',
  unknown: 'That link to Discord was not one this gallery made: press “Add to my Discord server” again.',
  used: 'That link to Discord was used already: press “Add to my Discord server” again to add the pack once more.',
  refused: 'Discord did not confirm the server: press “Add to my Discord server” again.',
  'no-server': 'Discord did not say which server to fill: press “Add to my Discord server” again and pick one.',
}

const itemSchema = z.object({ wumpusId: z.string(), kind: z.enum(['sticker', 'emoji']), name: z.string() })

/** GET /api/discord/uploads/{id}: a job as the person who started it sees it. */
export const discordUploadSchema = z.object({
  id: idSchema,
  packId: idSchema,
  state: z.enum(['waiting', 'uploading', 'done', 'failed']),
  reason: z.string().optional(),
  stickerSlots: z.number().optional(),
  uploaded: z.array(itemSchema),
  notFitted: z.array(itemSchema.extend({ reason: z.string() })),
})
export type DiscordUpload = z.infer<typeof discordUploadSchema>

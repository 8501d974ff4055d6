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

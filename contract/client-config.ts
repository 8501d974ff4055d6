import { z } from 'zod'

/** GET /api/config: the Firebase web settings of this deployment. */
export const clientConfigSchema = z.object({
  firebase: z.object({
    apiKey: z.string(),
    authDomain: z.string(),
    projectId: z.string(),
    appId: z.string().optional(),
    /** Set when the server runs against the local Auth emulator. */
    authEmulatorUrl: z.string().optional(),
  }),
  /** Whether the server makes Telegram sets of public packs (TELEGRAM_BOT_TOKEN set): the pack page's Telegram buttons. */
  telegram: z.boolean().optional(),
  /** Whether "Add to my Discord server" is on (the DISCORD_ settings given): the pack page's Discord button. */
  discord: z.boolean().optional(),
})
export type ClientConfig = z.infer<typeof clientConfigSchema>

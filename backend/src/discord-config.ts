// Discord's settings ("Add to my Discord server", README: Discord app), kept apart from config.ts so that file
// only spreads them in. The client secret and the bot token are secrets: never logged, never sent to the page.
import { z } from 'zod'

export interface DiscordConfig {
  clientId: string
  clientSecret: string
  botToken: string
  /** Discord's OAuth2 authorize page (a stand-in's in tests). */
  authorizeUrl: string
  /** Discord's REST API base, without a trailing slash. */
  apiUrl: string
}

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

const httpUrl = (fallback: string) =>
  z
    .string()
    .trim()
    .default(fallback)
    .refine((value) => {
      try {
        const url = new URL(value)
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash && !url.username
      } catch {
        return false
      }
    }, `must be an http(s) URL like ${fallback}`)
    .transform((value) => value.replace(/\/+$/, ''))

export const DISCORD_ENV = {
  DISCORD_CLIENT_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{5,30}$/, 'must be the application id from the Discord developer portal (digits)')
      .optional(),
  ),
  DISCORD_CLIENT_SECRET: optionalText.pipe(
    z.string().min(8, 'must be the OAuth2 client secret from the Discord developer portal').optional(),
  ),
  DISCORD_BOT_TOKEN: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{20,}$/, 'must be the bot token from the Discord developer portal (letters, digits, dots, _ and -)')
      .optional(),
  ),
  DISCORD_AUTHORIZE_URL: httpUrl('https://discord.com/oauth2/authorize'),
  DISCORD_API_URL: httpUrl('https://discord.com/api/v10'),
}

type DiscordEnv = z.infer<z.ZodObject<typeof DISCORD_ENV>>

const SECRETS = ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET', 'DISCORD_BOT_TOKEN'] as const

/** All three of the app's settings, or none. */
export function discordProblems(e: DiscordEnv): string[] {
  const given = SECRETS.filter((name) => e[name] !== undefined)
  if (given.length === 0 || given.length === SECRETS.length) return []
  return SECRETS.filter((name) => e[name] === undefined).map(
    (name) => `${name}: required with ${given.join(' and ')} (Discord needs the app's id, its client secret and its bot's token together)`,
  )
}

export function discordConfig(e: DiscordEnv): { discord?: DiscordConfig } {
  if (!e.DISCORD_CLIENT_ID || !e.DISCORD_CLIENT_SECRET || !e.DISCORD_BOT_TOKEN) return {}
  return {
    discord: {
      clientId: e.DISCORD_CLIENT_ID,
      clientSecret: e.DISCORD_CLIENT_SECRET,
      botToken: e.DISCORD_BOT_TOKEN,
      authorizeUrl: e.DISCORD_AUTHORIZE_URL,
      apiUrl: e.DISCORD_API_URL,
    },
  }
}

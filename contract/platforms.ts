/** The chat platforms, without zod: the home page (its fits filter) and the service worker import this file. */

/**
 * The chat platforms every animation is exported for, in the order the app lists them: each app's
 * custom emoji right after its stickers.
 */
export const PLATFORMS = ['discord', 'discord-emoji', 'telegram', 'telegram-emoji', 'whatsapp', 'signal', 'line', 'slack'] as const
export type Platform = (typeof PLATFORMS)[number]

export const PLATFORM_LABELS: Record<Platform, string> = {
  discord: 'Discord',
  'discord-emoji': 'Discord emoji',
  telegram: 'Telegram',
  'telegram-emoji': 'Telegram emoji',
  whatsapp: 'WhatsApp',
  signal: 'Signal',
  line: 'LINE',
  slack: 'Slack',
}

export function isPlatform(value: unknown): value is Platform {
  return (PLATFORMS as readonly unknown[]).includes(value)
}

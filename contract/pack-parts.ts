/** How a pack that a chat app takes only in parts is described, on the pack page and by the server alike. */
import { PLATFORM_LABELS, type Platform } from './platforms'

/** What each app calls one of its packs; Discord and Slack have none (a pack is one ZIP there). */
export const PACK_NOUN: Record<Platform, 'pack' | 'set' | null> = {
  discord: null,
  'discord-emoji': null,
  telegram: 'set',
  'telegram-emoji': 'set',
  whatsapp: 'pack',
  signal: 'pack',
  line: 'set',
  slack: null,
}

/** "30", "30 and 25", "30, 30 and 25" (or "8, 16 or 24"). */
export function listInWords(values: readonly (string | number)[], last: 'and' | 'or' = 'and'): string {
  const words = values.map(String)
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`
}

/** "3 WhatsApp packs", "one LINE set", "2 ZIPs". */
export function partsInWords(platform: Platform, count: number): string {
  const noun = PACK_NOUN[platform]
  const what = noun ? `${PLATFORM_LABELS[platform]} ${noun}` : 'ZIP'
  return `${count === 1 ? 'one' : count} ${what}${count === 1 ? '' : 's'}`
}

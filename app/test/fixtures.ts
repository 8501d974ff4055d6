import type { MediaFacts } from '../../contract/media-facts'
import { PLATFORM_RULES, PLATFORMS, stickerExports, type MadeSticker, type Platform, type StickerExport } from '../../contract/stickers'
import type { Wumpus } from '../../contract/wumpus'

/** A Lottie of one empty shape layer: what stickers play unless a test serves another. */
export const TINY_LOTTIE = { v: '5.7.0', fr: 30, ip: 0, op: 60, w: 300, h: 300, layers: [{ ty: 4, ks: {}, shapes: [] }] }

/** A fake animation; ids are 24 hex characters like the real ones. */
export function makeWumpus(n: number, overrides: Partial<Wumpus> = {}): Wumpus {
  const id = n.toString(16).padStart(24, '0')
  return {
    _id: id,
    name: `Wumpus ${n}`,
    description: `Animation number ${n}`,
    gif: `/api/files/${'a'.repeat(20)}${id.slice(-4)}/wumpus-${n}.gif`,
    apng: `/api/files/${'b'.repeat(20)}${id.slice(-4)}/wumpus-${n}.png`,
    lottie: `/api/files/${'c'.repeat(20)}${id.slice(-4)}/wumpus-${n}.json`,
    u_email: `artist${n}@example.com`,
    u_name: `Artist ${n}`,
    tags: [],
    emoji: [],
    keywords: [],
    licence: 'gallery-only',
    credit: '',
    sensitive: false,
    downloads: 0,
    // Higher numbers are newer, like the gallery's newest-first order.
    createdAt: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
    ...overrides,
  }
}

export function makeWumpuses(from: number, count: number): Wumpus[] {
  return Array.from({ length: count }, (_, i) => makeWumpus(from + i))
}

const STICKER_FACTS: Record<Platform, Omit<MediaFacts, 'bytes'>> = {
  discord: { contentType: 'image/apng', width: 320, height: 320, frames: 60, durationMs: 2000 },
  'discord-emoji': { contentType: 'image/gif', width: 128, height: 128, frames: 60, durationMs: 2000 },
  telegram: { contentType: 'application/x-tgsticker', width: 512, height: 512, frames: 120, durationMs: 2000 },
  'telegram-emoji': { contentType: 'application/x-tgsticker', width: 100, height: 100, frames: 120, durationMs: 2000 },
  whatsapp: { contentType: 'image/webp', width: 512, height: 512, frames: 60, durationMs: 2000 },
  signal: { contentType: 'image/apng', width: 384, height: 384, frames: 60, durationMs: 2000 },
  line: { contentType: 'image/apng', width: 270, height: 270, frames: 20, durationMs: 2000 },
  slack: { contentType: 'image/gif', width: 128, height: 128, frames: 50, durationMs: 2000 },
}

/**
 * The chat app files of an animation as GET /api/wumpus/{id}/stickers lists them (made by the server's own
 * mapping, contract/stickers.ts): every one ready unless `absent` names a platform (with a reason), or
 * everything still being made.
 */
export function makeStickers(
  wumpus: Wumpus,
  options: { absent?: Partial<Record<Platform, string>>; pending?: boolean } = {},
): StickerExport[] {
  const stem = wumpus.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  const made = options.pending
    ? undefined
    : PLATFORMS.map((platform, i): MadeSticker => {
        const reason = options.absent?.[platform]
        if (reason) return { platform, notes: [reason] }
        const fileName = `${stem}.${PLATFORM_RULES[platform].extension}`
        const url = `/api/files/${'d'.repeat(20)}${String(i).padStart(4, '0')}/${fileName}`
        const notes = platform === 'signal' ? ['384x384 instead of 512x512 to fit 300 KiB'] : []
        return { platform, file: { url, fileName, bytes: 50_000 + i * 10_000, ...STICKER_FACTS[platform] }, notes }
      })
  return stickerExports(
    made,
    wumpus.emoji.map((entry) => entry.char),
  )
}

/** Card preview URLs as the server gives them once made. */
export function withPreview(wumpus: Wumpus): Wumpus {
  const base = `/api/files/${'e'.repeat(20)}${wumpus._id.slice(-4)}`
  return { ...wumpus, preview: { webp: `${base}/a.preview.webp`, webp2x: `${base}/a.preview@2x.webp`, still: `${base}/a.still.webp` } }
}

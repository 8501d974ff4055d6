/**
 * TEST SUPPORT: animations with a Telegram sticker file made the way the server makes it (toTelegramLottie, then
 * tgsBytes), stored as their derived media's Telegram export; no render worker needed.
 */
import { lottie } from '../fixtures/lottie'
import { toTelegramLottie, tgsBytes } from '../../src/media/exports/telegram-sticker'
import { DERIVED_MEDIA_VERSION } from '../../src/services/derived-media'
import type { NewWumpus, PackRecord, Store, WumpusRecord } from '../../src/store/port'
import { addWumpus } from './test-server'

/** A Telegram sticker file (.tgs): the fixture's bouncing ball, its colour varied by `seed`. */
export function tgsSticker(seed = 0): Uint8Array {
  const source = lottie({ nm: `ball ${seed}` })
  return tgsBytes(toTelegramLottie(source).lottie)
}

/** A custom emoji file (.tgs, 100x100) of the fixture's ball, its colour varied by `seed`. */
export function tgsEmoji(seed = 0): Uint8Array {
  return tgsBytes(toTelegramLottie(lottie({ nm: `ball ${seed}` }), 100).lottie)
}

/** An animation whose derived media hold a Telegram file (and only that, or with `emoji` its custom emoji file too). */
export async function addTelegramSticker(
  store: Store,
  name: string,
  fields: Pick<Partial<NewWumpus>, 'emoji' | 'keywords'> = {},
  options: { emoji?: boolean } = {},
): Promise<WumpusRecord> {
  const record = await addWumpus(store, { name, ...fields })
  const seed = record._id.length + name.length
  const made = async (platform: 'telegram' | 'telegram-emoji', bytes: Uint8Array, side: number) => {
    const file = await store.files.put({
      bytes,
      contentType: 'application/x-tgsticker',
      filename: `${name}.${platform}.tgs`,
      purpose: 'derived',
    })
    return {
      platform,
      file: {
        id: file.id,
        filename: file.filename,
        contentType: 'application/x-tgsticker',
        bytes: bytes.length,
        width: side,
        height: side,
        frames: 120,
        durationMs: 2000,
      },
      notes: [],
    }
  }
  const exports = [await made('telegram', tgsSticker(seed), 512)]
  if (options.emoji) exports.push(await made('telegram-emoji', tgsEmoji(seed), 100))
  const derived = {
    source: record.files.lottie.id,
    version: DERIVED_MEDIA_VERSION,
    madeAt: new Date(),
    exports,
  }
  return (await store.wumpuses.setDerived(record._id, record.files.lottie.id, derived))!
}

/** `count` stickers (with `emoji`, each with its custom emoji file too) named `<prefix> 1`…, each with its own keyword `<prefix>k<n>` (so a set's order can be read back). */
export async function addTelegramStickers(
  store: Store,
  count: number,
  prefix: string,
  options: { emoji?: boolean } = {},
): Promise<WumpusRecord[]> {
  const records: WumpusRecord[] = []
  for (let i = 1; i <= count; i++)
    records.push(await addTelegramSticker(store, `${prefix} ${i}`, { keywords: [keywordOf(prefix, i)] }, options))
  return records
}

export const keywordOf = (prefix: string, n: number) => `${prefix.toLowerCase().replace(/\W/g, '')}k${n}`

/** A public pack of these animations. */
export function addPublicPack(store: Store, name: string, records: WumpusRecord[]): Promise<PackRecord> {
  return store.packs.insert({ name, description: '', wumpusIds: records.map((r) => r._id), createdBy: 'admin@example.com' })
}

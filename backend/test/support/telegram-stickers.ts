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

/** An animation whose derived media hold a Telegram file (and only that). */
export async function addTelegramSticker(
  store: Store,
  name: string,
  fields: Pick<Partial<NewWumpus>, 'emoji' | 'keywords'> = {},
): Promise<WumpusRecord> {
  const record = await addWumpus(store, { name, ...fields })
  const bytes = tgsSticker(record._id.length + name.length)
  const file = await store.files.put({
    bytes,
    contentType: 'application/x-tgsticker',
    filename: `${name}.telegram.tgs`,
    purpose: 'derived',
  })
  const derived = {
    source: record.files.lottie.id,
    version: DERIVED_MEDIA_VERSION,
    madeAt: new Date(),
    exports: [
      {
        platform: 'telegram' as const,
        file: {
          id: file.id,
          filename: file.filename,
          contentType: 'application/x-tgsticker',
          bytes: bytes.length,
          width: 512,
          height: 512,
          frames: 120,
          durationMs: 2000,
        },
        notes: [],
      },
    ],
  }
  return (await store.wumpuses.setDerived(record._id, record.files.lottie.id, derived))!
}

/** `count` stickers named `<prefix> 1`…, each with its own keyword `<prefix>k<n>` (so a set's order can be read back). */
export async function addTelegramStickers(store: Store, count: number, prefix: string): Promise<WumpusRecord[]> {
  const records: WumpusRecord[] = []
  for (let i = 1; i <= count; i++) records.push(await addTelegramSticker(store, `${prefix} ${i}`, { keywords: [keywordOf(prefix, i)] }))
  return records
}

export const keywordOf = (prefix: string, n: number) => `${prefix.toLowerCase().replace(/\W/g, '')}k${n}`

/** A public pack of these animations. */
export function addPublicPack(store: Store, name: string, records: WumpusRecord[]): Promise<PackRecord> {
  return store.packs.insert({ name, description: '', wumpusIds: records.map((r) => r._id), createdBy: 'admin@example.com' })
}

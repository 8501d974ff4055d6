/**
 * TEST SUPPORT: animations whose derived media hold a Discord sticker file (a small PNG, 320x320 in its header)
 * and, when asked, a Discord emoji GIF, stored as the server stores its exports; no render worker needed.
 */
import { DERIVED_MEDIA_VERSION } from '../../src/services/derived-media'
import type { NewWumpus, PackRecord, Store, StickerExportRecord, WumpusRecord } from '../../src/store/port'
import { buildPng, ihdr, iend, chunk } from '../fixtures/png'
import { addWumpus } from './test-server'

const gifBytes = (seed: number) => new Uint8Array([...Buffer.from('GIF89a'), 128, 0, 128, 0, 0, 0, 0, seed & 0xff, 0x3b])

export async function addDiscordSticker(
  store: Store,
  name: string,
  options: Pick<Partial<NewWumpus>, 'emoji'> & { emojiFile?: boolean; padding?: number } = {},
): Promise<WumpusRecord> {
  const record = await addWumpus(store, { name, ...(options.emoji ? { emoji: options.emoji } : {}) })
  return giveDiscordFiles(store, record, options)
}

/** Gives an animation its derived media with a Discord sticker file (and an emoji GIF when asked), as a render would. */
export async function giveDiscordFiles(
  store: Store,
  record: WumpusRecord,
  options: { emojiFile?: boolean; padding?: number } = {},
): Promise<WumpusRecord> {
  const name = record.name
  const png = buildPng([ihdr(320, 320), chunk('tEXt', Buffer.from(`n\0${name}${'.'.repeat(options.padding ?? 0)}`)), iend()])
  const sticker = await store.files.put({ bytes: png, contentType: 'image/apng', filename: `${name}.discord.png`, purpose: 'derived' })
  const exports: StickerExportRecord[] = [
    {
      platform: 'discord',
      file: {
        id: sticker.id,
        filename: sticker.filename,
        contentType: 'image/apng',
        bytes: png.length,
        width: 320,
        height: 320,
        frames: 1,
        durationMs: 0,
      },
      notes: [],
    },
  ]
  if (options.emojiFile) {
    const gif = gifBytes(name.length)
    const emoji = await store.files.put({ bytes: gif, contentType: 'image/gif', filename: `${name}.discord-emoji.gif`, purpose: 'derived' })
    exports.push({
      platform: 'discord-emoji',
      file: {
        id: emoji.id,
        filename: emoji.filename,
        contentType: 'image/gif',
        bytes: gif.length,
        width: 128,
        height: 128,
        frames: 1,
        durationMs: 0,
      },
      notes: [],
    })
  }
  const derived = { source: record.files.lottie.id, version: DERIVED_MEDIA_VERSION, madeAt: new Date(), exports }
  return (await store.wumpuses.setDerived(record._id, record.files.lottie.id, derived))!
}

export async function addDiscordStickers(store: Store, count: number, prefix: string, options: { emojiFile?: boolean } = {}) {
  const records: WumpusRecord[] = []
  for (let i = 1; i <= count; i++) records.push(await addDiscordSticker(store, `${prefix} ${i}`, options))
  return records
}

/** A public pack of these animations. */
export function addPack(store: Store, name: string, records: WumpusRecord[]): Promise<PackRecord> {
  return store.packs.insert({ name, description: '', wumpusIds: records.map((r) => r._id), createdBy: 'admin@example.com' })
}

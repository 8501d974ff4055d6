// What each chat app's importer reads beside a pack's sticker files, so nobody types an emoji by hand:
// Telegram a list in sending order (the Bot API's InputSticker fields), WhatsApp the contents.json of
// its own sticker-pack sample, Signal and Discord each file's emoji (or emoji name) in a text file.
import { platformEmoji, type Platform } from '../../../contract/stickers'
import { stickerAlt } from '../../../contract/sticker-alt'
import type { PackRecord, WumpusRecord } from '../store/port'

/** One sticker of a pack's ZIP: its entry name and its animation. */
export interface PackEntry {
  name: string
  record: WumpusRecord
}

/** A text file of the ZIP. */
export interface ManifestFile {
  name: string
  text: string
}

/** The publisher chat apps show for our packs. */
export const PACK_PUBLISHER = 'Wumpus Gallery'
/** WhatsApp reads at most this many characters of an animated sticker's accessibility text. */
const WHATSAPP_ACCESSIBILITY_MAX = 255

/** The emoji one sticker goes with in the platform's app (every sticker gets at least one where the app takes them). */
export function entryEmoji(platform: Platform, record: WumpusRecord): string[] {
  return platformEmoji(
    platform,
    record.emoji.map((emoji) => emoji.char),
  )
}

/** A Discord emoji's name: 2 to 32 letters, digits and underscores ("waving_wumpus"). */
export function discordEmojiName(record: WumpusRecord): string {
  const name = record.name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .slice(0, 32)
  return name.length >= 2 ? name : `wumpus_${record._id.slice(-6)}`
}

/** The importer files of a platform's ZIP (none for LINE and Slack, whose uploads take no emoji). */
export function packManifests(pack: PackRecord, platform: Platform, entries: readonly PackEntry[]): ManifestFile[] {
  switch (platform) {
    case 'telegram':
    case 'telegram-emoji':
      return [{ name: 'stickers.json', text: json(telegramList(pack, platform, entries)) }]
    case 'whatsapp':
      return [{ name: 'contents.json', text: json(whatsappContents(pack, entries)) }]
    case 'signal':
    case 'discord':
      return [{ name: 'emoji.txt', text: lines(entries.map((entry) => `${entry.name}\t${entryEmoji(platform, entry.record).join('')}`)) }]
    case 'discord-emoji':
      return [{ name: 'emoji.txt', text: lines(entries.map((entry) => `${entry.name}\t:${discordEmojiName(entry.record)}:`)) }]
    case 'line':
    case 'slack':
      return []
  }
}

/**
 * Telegram: the set as a bot creates it with createNewStickerSet, each sticker in sending order with its
 * InputSticker fields (`sticker` names the file in this ZIP).
 */
function telegramList(pack: PackRecord, platform: Platform, entries: readonly PackEntry[]) {
  return {
    title: pack.name,
    sticker_type: platform === 'telegram-emoji' ? 'custom_emoji' : 'regular',
    stickers: entries.map((entry) => ({
      sticker: entry.name,
      format: 'animated',
      emoji_list: entryEmoji(platform, entry.record),
      keywords: entry.record.keywords,
    })),
  }
}

/** WhatsApp: the layout of contents.json in WhatsApp's own sticker-pack sample, with one pack. */
function whatsappContents(pack: PackRecord, entries: readonly PackEntry[]) {
  return {
    android_play_store_link: '',
    ios_app_store_link: '',
    sticker_packs: [
      {
        identifier: pack.id,
        name: pack.name,
        publisher: PACK_PUBLISHER,
        tray_image_file: 'tray.png',
        // Apps update an installed pack when this changes.
        image_data_version: String(pack.updatedAt.getTime()),
        avoid_cache: false,
        publisher_email: '',
        publisher_website: '',
        privacy_policy_website: '',
        license_agreement_website: '',
        animated_sticker_pack: true,
        stickers: entries.map((entry) => ({
          image_file: entry.name,
          emojis: entryEmoji('whatsapp', entry.record),
          accessibility_text: [...stickerAlt(entry.record)].slice(0, WHATSAPP_ACCESSIBILITY_MAX).join(''),
        })),
      },
    ],
  }
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
const lines = (rows: string[]) => `${rows.join('\r\n')}\r\n`

// What each chat app's importer reads beside a pack's sticker files, so nobody types an emoji by hand:
// Telegram a list in sending order (the Bot API's InputSticker fields), WhatsApp the contents.json of
// its own sticker-pack sample, Signal and Discord each file's emoji (or emoji name) in a text file, and Discord
// stickers the fields of its Create Guild Sticker (a name of 2 to 30 characters, the emoji's Discord name as tag).
import { FALLBACK_EMOJI } from '../../../contract/limits'
import { DISCORD_STICKER_TAGS, discordStickerName, platformEmoji, type Platform } from '../../../contract/stickers'
import { stickerAlt } from '../../../contract/sticker-alt'
import type { PackRecord, WumpusRecord } from '../store/port'
import { discordEmojiTag } from './discord-rules'
import { stickerMaker } from './sticker-credits'

/** One sticker of a pack's ZIP: its entry name and its animation. */
export interface PackEntry {
  name: string
  record: WumpusRecord
}

/** Which ZIP of a pack this is: part `number` of `of` (1 of 1 for a pack in one ZIP); `still` when its stickers are all stills. */
export interface ZipPart {
  number: number
  of: number
  still: boolean
}

/** A text file of the ZIP. */
export interface ManifestFile {
  name: string
  text: string
}

/** The publisher chat apps show for our packs (a personal pack's maker, to those who may know whose it is). */
export const PACK_PUBLISHER = 'Wumpus Gallery'
/** WhatsApp reads at most this many characters of an animated sticker's accessibility text. */
const WHATSAPP_ACCESSIBILITY_MAX = 255
/** Telegram set titles have at most this many characters. */
const TELEGRAM_TITLE_MAX = 64

/** The pack's title in an app: its name, or "Name (1/3)" for a part, the name cut so it stays within `max`. */
export function partTitle(pack: PackRecord, part: ZipPart, max = Infinity): string {
  if (part.of === 1) return pack.name.slice(0, max)
  const suffix = ` (${part.number}/${part.of})`
  return `${pack.name.slice(0, max - suffix.length).trimEnd()}${suffix}`
}

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

/**
 * A Discord sticker as Create Guild Sticker takes it: `name` (2 to 30 characters, the animation's name cut
 * at a word when longer), `tags` (the Discord name of its emoji) and `emoji` (the character, for the upload
 * dialog's "Related emoji"); `nameCut` when the name had to change.
 */
export function discordSticker(record: WumpusRecord): { name: string; nameCut: boolean; tags: string; emoji: string } {
  const emoji = entryEmoji('discord', record)[0] ?? FALLBACK_EMOJI
  const stored = record.emoji.find((e) => e.char === emoji)
  const tags =
    discordEmojiTag(emoji) ??
    stored?.shortcode ??
    (stored?.name ?? 'sticker')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
  const { name, cut } = discordStickerName(record.name)
  return { name, nameCut: cut, tags: tags.slice(0, DISCORD_STICKER_TAGS.max), emoji }
}

/** The importer files of a platform's ZIP (none for LINE and Slack, whose uploads take no emoji). */
export function packManifests(
  pack: PackRecord,
  platform: Platform,
  entries: readonly PackEntry[],
  part: ZipPart,
  publisher = PACK_PUBLISHER,
): ManifestFile[] {
  switch (platform) {
    case 'telegram':
    case 'telegram-emoji':
      return [{ name: 'stickers.json', text: json(telegramList(pack, platform, entries, part)) }]
    case 'whatsapp':
      return [{ name: 'contents.json', text: json(whatsappContents(pack, entries, part, publisher)) }]
    case 'signal':
      return [{ name: 'emoji.txt', text: emojiRows(platform, entries) }]
    case 'discord':
      return [
        { name: 'emoji.txt', text: emojiRows(platform, entries) },
        { name: 'stickers.json', text: json(discordStickers(entries)) },
      ]
    case 'discord-emoji':
      return [{ name: 'emoji.txt', text: lines(entries.map((entry) => `${entry.name}\t:${discordEmojiName(entry.record)}:`)) }]
    case 'line':
    case 'slack':
      return []
  }
}

const emojiRows = (platform: Platform, entries: readonly PackEntry[]) =>
  lines(entries.map((entry) => `${entry.name}\t${entryEmoji(platform, entry.record).join('')}`))

/** Discord stickers: each file with Create Guild Sticker's fields (a bot's upload, or what to type by hand). */
function discordStickers(entries: readonly PackEntry[]) {
  return {
    stickers: entries.map((entry) => {
      const sticker = discordSticker(entry.record)
      return { file: entry.name, name: sticker.name, tags: sticker.tags, emoji: sticker.emoji, ...credit(entry.record) }
    }),
  }
}

/**
 * Telegram: the set as a bot creates it with createNewStickerSet, each sticker in sending order with its
 * InputSticker fields (`sticker` names the file in this ZIP).
 */
function telegramList(pack: PackRecord, platform: Platform, entries: readonly PackEntry[], part: ZipPart) {
  return {
    title: partTitle(pack, part, TELEGRAM_TITLE_MAX),
    sticker_type: platform === 'telegram-emoji' ? 'custom_emoji' : 'regular',
    stickers: entries.map((entry) => ({
      sticker: entry.name,
      format: 'animated',
      emoji_list: entryEmoji(platform, entry.record),
      keywords: entry.record.keywords,
      ...credit(entry.record),
    })),
  }
}

/**
 * WhatsApp: the layout of contents.json in WhatsApp's own sticker-pack sample, with one pack (each part of a
 * split pack is a pack of its own: its own identifier and name; still parts are not animated packs).
 */
function whatsappContents(pack: PackRecord, entries: readonly PackEntry[], part: ZipPart, publisher: string) {
  return {
    android_play_store_link: '',
    ios_app_store_link: '',
    sticker_packs: [
      {
        identifier: part.of === 1 ? pack.id : `${pack.id}-${part.number}`,
        name: partTitle(pack, part),
        publisher,
        tray_image_file: 'tray.png',
        // Apps update an installed pack when this changes.
        image_data_version: String(pack.updatedAt.getTime()),
        avoid_cache: false,
        publisher_email: '',
        publisher_website: '',
        privacy_policy_website: '',
        license_agreement_website: '',
        animated_sticker_pack: !part.still,
        stickers: entries.map((entry) => ({
          image_file: entry.name,
          emojis: entryEmoji('whatsapp', entry.record),
          accessibility_text: [...stickerAlt(entry.record)].slice(0, WHATSAPP_ACCESSIBILITY_MAX).join(''),
        })),
      },
    ],
  }
}

/** Beside each sticker's app fields (which apps and bots read by name), who made it and its licence's SPDX id. */
const credit = (record: WumpusRecord) => ({ credit: stickerMaker(record), licence: record.licence })

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
const lines = (rows: string[]) => `${rows.join('\r\n')}\r\n`

// A pack's ZIP for one chat platform: which stickers go in it (planZip, checked against the platform's pack
// rules before a byte is sent), what the pack page says of it (toDownload), and the archive itself (writeZip),
// streamed entry by entry: one sticker file in memory at a time.
import { Readable } from 'node:stream'
import { ZipFile } from 'yazl'
import { FALLBACK_EMOJI, LINE_SET_SIZES, WHATSAPP_PACK_MAX, WHATSAPP_PACK_MIN } from '../../../contract/limits'
import type { PackDownload } from '../../../contract/pack'
import { packDownloadPath } from '../../../contract/api-paths'
import { PLATFORM_RULES, type Platform } from '../../../contract/stickers'
import { HttpError } from '../http/http-error'
import type { Logger } from '../logger'
import { lineSetImages, trayIcon } from '../media/pack-images'
import type { DerivedFile, PackRecord, Store, WumpusRecord } from '../store/port'
import { derivedIsCurrent, fileStem } from './derived-media'
import { discordEmojiName, entryEmoji, PACK_PUBLISHER, packManifests, type PackEntry } from './pack-manifests'

/** A pack's ZIP for one platform, ready to stream. */
export interface PackZip {
  fileName: string
  /** Exact byte length of the archive (every entry is stored, not deflated, so it is known before). */
  bytes: number
  stream: Readable
  /** The animations whose files are in it (each counts as a download). */
  wumpusIds: string[]
}

type Entry = { record: WumpusRecord; file: DerivedFile }

/** Telegram sets hold at most this many animated stickers, or custom emoji. */
const TELEGRAM_SET_MAX: Partial<Record<Platform, number>> = { telegram: 120, 'telegram-emoji': 200 }

export interface ZipPlan {
  platform: Platform
  entries: Entry[]
  /** Animations without this platform's file, and why. */
  left: { record: WumpusRecord; reason: string }[]
  fits: boolean
  message: string | null
  notes: string[]
}

/** Which stickers go in a platform's ZIP, and whether the platform takes it as a pack. */
export function planZip(pack: PackRecord, items: WumpusRecord[], platform: Platform): ZipPlan {
  const rules = PLATFORM_RULES[platform]
  const entries: Entry[] = []
  const left: ZipPlan['left'] = []
  for (const record of items) {
    const made = derivedIsCurrent(record) ? record.derived.exports.find((e) => e.platform === platform) : undefined
    if (made?.file) entries.push({ record, file: made.file })
    else left.push({ record, reason: made ? (made.notes[0] ?? `No file fits ${rules.label}`) : 'Still being made' })
  }
  const count = entries.length
  const has = left.length === 0 ? `this pack has ${count}` : `${count} of this pack’s ${items.length} have a ${rules.label} file`
  let message: string | null = null
  if (items.length === 0) message = 'This pack has no stickers.'
  else if (count === 0) message = `None of this pack’s stickers has a ${rules.label} file yet.`
  else if (platform === 'whatsapp') {
    const still = entries.find((e) => e.file.frames < 2)
    if (count < WHATSAPP_PACK_MIN || count > WHATSAPP_PACK_MAX)
      message = `WhatsApp packs need ${WHATSAPP_PACK_MIN} to ${WHATSAPP_PACK_MAX} stickers; ${has}.`
    else if (still) message = `WhatsApp packs are all animated; “${still.record.name}” is a still.`
  }
  const notes: string[] = []
  if (platform === 'line' && count > 0 && !(LINE_SET_SIZES as readonly number[]).includes(count)) {
    notes.push(`LINE sets have ${LINE_SET_SIZES.join(', ').replace(/, (?=\d+$)/, ' or ')} stickers; ${has}.`)
  }
  const setMax = TELEGRAM_SET_MAX[platform]
  if (setMax !== undefined && count > setMax)
    notes.push(`Telegram sets hold up to ${setMax} ${platform === 'telegram' ? 'animated stickers' : 'custom emoji'}: make two sets.`)
  return { platform, entries, left, fits: message === null, message, notes }
}

function zipName(pack: PackRecord, platform: Platform): string {
  return `${fileStem(pack.name)}.${platform}.zip`
}

export function toDownload(pack: PackRecord, plan: ZipPlan): PackDownload {
  return {
    platform: plan.platform,
    label: PLATFORM_RULES[plan.platform].label,
    url: packDownloadPath(pack.id, plan.platform),
    fileName: zipName(pack, plan.platform),
    fits: plan.fits,
    message: plan.message,
    stickers: plan.entries.length,
    missing: plan.left.length,
    bytes: plan.entries.reduce((sum, entry) => sum + entry.file.bytes, 0),
    notes: plan.notes,
    parts: [],
  }
}

/** Entry names keep the pack's order: `01-waving-wumpus.whatsapp.webp`. */
function entryNames(entries: Entry[]): string[] {
  const width = String(entries.length).length
  return entries.map((entry, i) => `${String(i + 1).padStart(width, '0')}-${entry.file.filename}`)
}

export async function writeZip(store: Store, logger: Logger, pack: PackRecord, plan: ZipPlan): Promise<PackZip> {
  const zip = new ZipFile()
  const mtime = pack.updatedAt
  const text = (name: string, content: string) => zip.addBuffer(Buffer.from(content, 'utf8'), name, { mtime, compress: false })
  // The pack's images are made before the first byte goes out, so a failure is still a clean error.
  const cover = plan.platform === 'whatsapp' || plan.platform === 'line' ? await coverStill(store, pack, plan.entries) : undefined
  const tray = plan.platform === 'whatsapp' && cover ? await trayIcon(cover) : undefined
  const lineImages = plan.platform === 'line' && cover ? await lineSetImages(cover) : undefined
  const names = entryNames(plan.entries)
  plan.entries.forEach((entry, i) => {
    zip.addReadStreamLazy(names[i]!, { mtime, compress: false, size: entry.file.bytes }, (done) => {
      store.files.read(entry.file.id).then(
        (file) =>
          file
            ? done(null, Readable.from([Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength)]))
            : done(new Error(`file ${entry.file.id} is gone`), undefined as never),
        (error: unknown) => done(error as Error, undefined as never),
      )
    })
  })
  if (tray) {
    zip.addBuffer(Buffer.from(tray), 'tray.png', { mtime, compress: false })
    // Sticker apps that import .wastickers archives read the title and author from these.
    text('title.txt', pack.name)
    text('author.txt', PACK_PUBLISHER)
  }
  if (lineImages) {
    zip.addBuffer(Buffer.from(lineImages.main), 'main.png', { mtime, compress: false })
    zip.addBuffer(Buffer.from(lineImages.tab), 'tab.png', { mtime, compress: false })
  }
  const entries = plan.entries.map((entry, i) => ({ name: names[i]!, record: entry.record }))
  for (const manifest of packManifests(pack, plan.platform, entries)) text(manifest.name, manifest.text)
  text('README.txt', readme(pack, plan, entries))
  // yazl answers the archive's final size (@types/yazl leaves the argument out); -1 would mean unknown.
  const end = zip.end.bind(zip) as (options: undefined, onSize: (bytes: number) => void) => void
  const bytes = await new Promise<number>((resolve) => end(undefined, resolve))
  zip.outputStream.on('error', (error) =>
    logger.error('a pack ZIP stopped while streaming', { pack: pack.id, platform: plan.platform, error: String(error) }),
  )
  return {
    fileName: zipName(pack, plan.platform),
    bytes,
    stream: zip.outputStream as Readable,
    wumpusIds: plan.entries.map((entry) => entry.record._id),
  }
}

/** The cover's still (or its sticker file, whose first frame serves), for the pack's own images. */
async function coverStill(store: Store, pack: PackRecord, entries: Entry[]): Promise<Uint8Array> {
  const cover = entries.find((entry) => entry.record._id === pack.coverWumpusId) ?? entries[0]!
  const still = derivedIsCurrent(cover.record) ? cover.record.derived.previews?.still : undefined
  const source = (still && (await store.files.read(still.id))) || (await store.files.read(cover.file.id))
  if (!source) throw new HttpError('NOT_FOUND', 'The cover’s image is missing; try again in a minute')
  return source.bytes
}

const HOW_TO: Record<Platform, string> = {
  discord:
    'Discord: Server Settings > Stickers > Upload Sticker, one file at a time, with the emoji listed above (and in emoji.txt) as its related emoji (a server has 5 to 60 sticker slots by boost level).',
  'discord-emoji':
    'Discord: Server Settings > Emoji > Upload Emoji, several .gif files at once, named as listed above (and in emoji.txt) (a server has 50 to 250 animated emoji slots by boost level).',
  telegram:
    'Telegram: send /newpack (animated) to @Stickers, then each .tgs file in this order with the emoji listed above; stickers.json lists the same (emoji_list, keywords) for a bot calling createNewStickerSet.',
  'telegram-emoji':
    'Telegram: send /newemojipack (animated) to @Stickers, then each .tgs file in this order with the emoji listed above (custom emoji need Telegram Premium to send); stickers.json lists the same for a bot calling createNewStickerSet.',
  whatsapp:
    'WhatsApp: open the ZIP in a sticker app that imports packs, or rename it to .wastickers; contents.json gives each sticker its emoji and accessibility text, and tray.png is the pack icon.',
  signal: 'Signal Desktop: File > Create/upload sticker pack, add the .png files, and give each the emoji listed above (and in emoji.txt).',
  line: 'LINE: upload the .png files in LINE Creators Market as an animated sticker set, with main.png as its main image and tab.png as its chat tab image.',
  slack: 'Slack: Customize workspace > Emoji > Add Custom Emoji, one .gif at a time.',
}

/** How a sticker is listed in README.txt: its file and, where the app takes them, its emoji or emoji name. */
function readmeLine(platform: Platform, entry: PackEntry): string {
  const tag = platform === 'discord-emoji' ? `:${discordEmojiName(entry.record)}:` : entryEmoji(platform, entry.record).join(' ')
  return tag ? `  ${entry.name}  ${tag}` : `  ${entry.name}`
}

function readme(pack: PackRecord, plan: ZipPlan, entries: PackEntry[]): string {
  const label = PLATFORM_RULES[plan.platform].label
  // "Discord emoji", "Telegram stickers".
  const what = plan.platform.endsWith('-emoji') ? label : `${label} stickers`
  const lines = [`${pack.name}: ${what} from Wumpus Gallery`, '']
  if (pack.description) lines.push(pack.description, '')
  lines.push(
    `${entries.length} sticker${entries.length === 1 ? '' : 's'}, in pack order:`,
    ...entries.map((entry) => readmeLine(plan.platform, entry)),
    '',
  )
  if (plan.left.length > 0) {
    lines.push(`Left out (no ${label} file):`, ...plan.left.map(({ record, reason }) => `  ${record.name}: ${reason}`), '')
  }
  const bare = entries.filter((entry) => entry.record.emoji.length === 0)
  if (bare.length > 0 && PLATFORM_RULES[plan.platform].emoji > 0) {
    lines.push(
      `${bare.length === 1 ? 'One sticker has' : `${bare.length} stickers have`} no emoji of its own yet and go${bare.length === 1 ? 'es' : ''} with ${FALLBACK_EMOJI}.`,
      '',
    )
  }
  if (plan.notes.length > 0) lines.push(...plan.notes, '')
  lines.push(HOW_TO[plan.platform], '')
  return lines.join('\r\n')
}

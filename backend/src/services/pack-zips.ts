// A pack's ZIPs for one chat platform: which stickers go in them (planZip, checked against the platform's
// pack rules before a byte is sent, and split into parts where the app takes smaller packs: pack-parts.ts),
// the file names and sizes of its parts (zipParts), and each archive itself (writeZip), streamed entry by entry:
// one sticker file in memory at a time.
import { Readable } from 'node:stream'
import { ZipFile } from 'yazl'
import { creditLine, licenceNotes } from './sticker-credits'
import { FALLBACK_EMOJI, LINE_SET_SIZES, WHATSAPP_PACK_MAX, WHATSAPP_PACK_MIN } from '../../../contract/limits'
import { listInWords, PACK_NOUN, partsInWords } from '../../../contract/pack-parts'
import { packDownloadPath } from '../../../contract/api-paths'
import { PLATFORM_RULES, type Platform } from '../../../contract/stickers'
import type { Logger } from '../logger'
import { lineSetImages, trayIcon } from '../media/exports/pack-images'
import type { DerivedFile, PackRecord, Store, WumpusRecord } from '../store/port'
import { fileStem, shownFileName } from './file-names'
import { currentDerived } from '../store/records'
import {
  discordEmojiName,
  discordSticker,
  entryEmoji,
  PACK_PUBLISHER,
  packManifests,
  partTitle,
  type PackEntry,
  type ZipPart,
} from './pack-manifests'
import { splitNotes, splitPack, type SplitPart } from './pack-parts'
import { invalid, notFound } from '../domain/errors'

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

export interface ZipPlan {
  platform: Platform
  /** Every sticker with this platform's file, in pack order. */
  entries: Entry[]
  /** The ZIPs: one for a pack the app takes whole, several when it takes it only in parts, none when it does not fit. */
  parts: SplitPart<Entry>[]
  /** Stickers with a file that no part holds (too few for a WhatsApp pack of their kind, past LINE's last set). */
  outside: Entry[]
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
    const made = currentDerived(record)?.exports.find((e) => e.platform === platform)
    if (made?.file) entries.push({ record, file: made.file })
    else left.push({ record, reason: made ? (made.notes[0] ?? `No file fits ${rules.label}`) : 'Still being made' })
  }
  const count = entries.length
  const has = left.length === 0 ? `this pack has ${count}` : `${count} of this pack’s ${items.length} have a ${rules.label} file`
  const split = splitPack(platform, entries, (entry) => entry.file.frames < 2)
  let message: string | null = null
  if (items.length === 0) message = 'This pack has no stickers.'
  else if (count === 0) message = `None of this pack’s stickers has a ${rules.label} file yet.`
  else if (split.parts.length === 0 && platform === 'line')
    message = `LINE sets have ${listInWords(LINE_SET_SIZES, 'or')} stickers; ${has}.`
  else if (split.parts.length === 0 && platform === 'whatsapp') {
    const stills = entries.filter((entry) => entry.file.frames < 2).length
    const kinds = `${count - stills} animated and ${stills} still`
    message =
      stills === 0 || stills === count
        ? `WhatsApp packs need ${WHATSAPP_PACK_MIN} to ${WHATSAPP_PACK_MAX} stickers; ${has}.`
        : `WhatsApp packs need at least ${WHATSAPP_PACK_MIN} stickers, never still and animated together; ${left.length === 0 ? `this pack has ${kinds}` : `of this pack’s ${items.length}, ${kinds} have a WhatsApp file`}.`
  }
  const fits = message === null
  return {
    platform,
    entries,
    parts: fits ? split.parts : [],
    outside: fits ? split.leftOut : [],
    left,
    fits,
    message,
    notes: fits ? splitNotes(platform, split, (entry) => entry.record.name, rules.label) : [],
  }
}

/** How a pack's archive is named: a ZIP, or WhatsApp's as sticker maker apps open it. */
export type PackArchive = 'zip' | 'wastickers'

/**
 * `kind-wumpuses.whatsapp.zip`, or `kind-wumpuses.whatsapp.part-1-of-3.zip` for a part of a split pack;
 * `kind-wumpuses.wastickers` (`kind-wumpuses.part-1-of-3.wastickers`) for sticker maker apps.
 */
export function zipName(pack: PackRecord, platform: Platform, part?: Pick<ZipPart, 'number' | 'of'>, archive: PackArchive = 'zip'): string {
  const partName = part && part.of > 1 ? `.part-${part.number}-of-${part.of}` : ''
  return archive === 'wastickers' ? `${fileStem(pack.name)}${partName}.wastickers` : `${fileStem(pack.name)}.${platform}${partName}.zip`
}

/** The bytes of the sticker files of a ZIP. */
export const bytesOf = (entries: Entry[]) => entries.reduce((sum, entry) => sum + entry.file.bytes, 0)

/** One ZIP of a pack a platform takes in parts. */
export interface ZipPartFile {
  /** From 1. */
  part: number
  fileName: string
  stickers: number
  bytes: number
  still: boolean
}

/** The parts of a plan (each with its own file name). */
export function zipParts(pack: PackRecord, plan: ZipPlan): ZipPartFile[] {
  return plan.parts.map((part, i) => ({
    part: i + 1,
    fileName: zipName(pack, plan.platform, { number: i + 1, of: plan.parts.length }),
    stickers: part.items.length,
    bytes: bytesOf(part.items),
    still: part.still,
  }))
}

/**
 * Which part a download asks for (`part` counts from 1): a pack in one ZIP needs none (part 1 is that ZIP);
 * a split pack is refused without one, naming its parts, and 404 past its last.
 */
function partToWrite(pack: PackRecord, plan: ZipPlan, part: number | undefined): ZipPart {
  const of = plan.parts.length
  const comesAs = `This pack comes as ${partsInWords(plan.platform, of)}`
  if (part === undefined && of > 1) {
    const files = zipParts(pack, plan)
    throw invalid(`${comesAs}: download each with ?part=1 to ?part=${of} (${listInWords(files.map((file) => file.fileName))}).`, {
      parts: files.map(({ part, fileName }) => ({ part, url: packDownloadPath(pack.id, plan.platform, part), fileName })),
    })
  }
  const number = part ?? 1
  if (number > of) throw notFound(`${comesAs}: there is no part ${number}.`)
  return { number, of, still: plan.parts[number - 1]!.still }
}

/** Entry names keep the pack's order: `01-waving-wumpus.whatsapp.webp`. */
function entryNames(entries: Entry[]): string[] {
  const width = String(entries.length).length
  return entries.map((entry, i) => `${String(i + 1).padStart(width, '0')}-${shownFileName(entry.record, entry.file.filename)}`)
}

/** One ZIP of a plan that fits: the pack's only one, or the part `part` asks for (checked before anything is made). */
export async function writeZip(
  store: Store,
  logger: Logger,
  pack: PackRecord,
  plan: ZipPlan,
  part?: number,
  publisher = PACK_PUBLISHER,
  archive: PackArchive = 'zip',
): Promise<PackZip> {
  const which = partToWrite(pack, plan, part)
  const stickers = plan.parts[which.number - 1]!.items
  const zip = new ZipFile()
  const mtime = pack.updatedAt
  const text = (name: string, content: string) => zip.addBuffer(Buffer.from(content, 'utf8'), name, { mtime, compress: false })
  // The pack's images are made before the first byte goes out, so a failure is still a clean error.
  const cover = plan.platform === 'whatsapp' || plan.platform === 'line' ? await coverStill(store, pack, stickers) : undefined
  const tray = plan.platform === 'whatsapp' && cover ? await trayIcon(cover) : undefined
  const lineImages = plan.platform === 'line' && cover ? await lineSetImages(cover) : undefined
  const names = entryNames(stickers)
  stickers.forEach((entry, i) => {
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
    text('title.txt', partTitle(pack, which))
    text('author.txt', publisher)
  }
  if (lineImages) {
    zip.addBuffer(Buffer.from(lineImages.main), 'main.png', { mtime, compress: false })
    zip.addBuffer(Buffer.from(lineImages.tab), 'tab.png', { mtime, compress: false })
  }
  const entries = stickers.map((entry, i) => ({ name: names[i]!, record: entry.record }))
  for (const manifest of packManifests(pack, plan.platform, entries, which, publisher)) text(manifest.name, manifest.text)
  text('README.txt', readme(pack, plan, entries, which))
  // yazl answers the archive's final size (@types/yazl leaves the argument out); -1 would mean unknown.
  const end = zip.end.bind(zip) as (options: undefined, onSize: (bytes: number) => void) => void
  const bytes = await new Promise<number>((resolve) => end(undefined, resolve))
  // yazl reports a failed entry read on the ZipFile itself; unheard, that 'error' would throw where nothing catches it.
  zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error))
  zip.outputStream.on('error', (error) =>
    logger.error('a pack ZIP stopped while streaming', { pack: pack.id, platform: plan.platform, error: String(error) }),
  )
  return {
    fileName: zipName(pack, plan.platform, which, archive),
    bytes,
    stream: zip.outputStream as Readable,
    wumpusIds: stickers.map((entry) => entry.record._id),
  }
}

/** The cover's still (or its sticker file, whose first frame serves), for the pack's own images. */
async function coverStill(store: Store, pack: PackRecord, entries: Entry[]): Promise<Uint8Array> {
  const cover = entries.find((entry) => entry.record._id === pack.coverWumpusId) ?? entries[0]!
  const still = currentDerived(cover.record)?.previews?.still
  const source = (still && (await store.files.read(still.id))) || (await store.files.read(cover.file.id))
  if (!source) throw notFound('The cover’s image is missing; try again in a minute')
  return source.bytes
}

const HOW_TO: Record<Platform, string> = {
  discord:
    'Discord: Server Settings > Stickers > Upload Sticker, one file at a time, with the name and emoji listed above as its sticker name and related emoji (a server has 5 to 60 sticker slots by boost level); stickers.json lists the same (name, tags) for a bot calling Create Guild Sticker.',
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
  if (platform === 'discord') {
    // Discord takes names of 2 to 30 characters: a longer one is cut, and the README says so.
    const sticker = discordSticker(entry.record)
    const cut = sticker.nameCut ? ` (cut from “${entry.record.name}”: Discord takes 2 to 30 characters)` : ''
    return `  ${entry.name}  “${sticker.name}”${cut}  ${sticker.emoji} (${sticker.tags})`
  }
  const tag = platform === 'discord-emoji' ? `:${discordEmojiName(entry.record)}:` : entryEmoji(platform, entry.record).join(' ')
  return tag ? `  ${entry.name}  ${tag}` : `  ${entry.name}`
}

function readme(pack: PackRecord, plan: ZipPlan, entries: PackEntry[], part: ZipPart): string {
  const label = PLATFORM_RULES[plan.platform].label
  // "Discord emoji", "Telegram stickers".
  const what = plan.platform.endsWith('-emoji') ? label : `${label} stickers`
  const lines = [`${pack.name}: ${what} from Wumpus Gallery`, '']
  if (part.of > 1) lines.push(`Part ${part.number} of ${part.of}`, '')
  if (pack.description) lines.push(pack.description, '')
  lines.push(
    `${entries.length} sticker${entries.length === 1 ? '' : 's'}, in pack order:`,
    ...entries.map((entry) => readmeLine(plan.platform, entry)),
    '',
    'Credits and licences:',
    ...entries.map((entry) => `  ${entry.record.name}: ${creditLine(entry.record)}`),
    ...licenceNotes(entries.map((entry) => entry.record)),
    '',
  )
  if (part.of > 1) {
    lines.push('The other parts of this pack:')
    for (const other of zipParts(pack, plan)) {
      if (other.part === part.number) continue
      const names = plan.parts[other.part - 1]!.items.map((entry) => entry.record.name)
      const count = `${other.stickers}${other.still ? ' still' : ''} sticker${other.stickers === 1 ? '' : 's'}`
      lines.push(`  Part ${other.part} of ${part.of} (${other.fileName}), ${count}: ${names.join(', ')}`)
    }
    lines.push('')
  }
  if (plan.left.length > 0) {
    lines.push(`Left out (no ${label} file):`, ...plan.left.map(({ record, reason }) => `  ${record.name}: ${reason}`), '')
  }
  if (plan.outside.length > 0) {
    lines.push(
      `Left out (no ${label} ${PACK_NOUN[plan.platform] ?? 'ZIP'} holds them):`,
      ...plan.outside.map((entry) => `  ${entry.record.name}`),
      '',
    )
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

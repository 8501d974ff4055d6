// A pack in the formats community servers import custom emoji from (contract/pack-imports.ts has their rules
// and where each was read): Misskey's emoji ZIP with meta.json, Mastodon's tar.gz for `tootctl emoji import`,
// and a Pleroma / Akkoma pack (a ZIP of the files, its pack.json, and the manifest `pleroma_ctl emoji get-packs`
// pulls from). Every one holds the 128x128 animated GIF we make for Discord emoji, named by the same rule,
// with each sticker's tags and keywords and its maker's credit. Archives stream one emoji file at a time.
import { createHash } from 'node:crypto'
import { pipeline, Readable } from 'node:stream'
import { createGzip } from 'node:zlib'
import { ZipFile } from 'yazl'
import { creditLine, licenceNotes, stickerMaker } from './sticker-credits'
import {
  IMPORT_LABELS,
  MASTODON_EMOJI_MAX_BYTES,
  pleromaFilePath,
  type ImportFormat,
  type PLEROMA_FILES,
} from '../../../contract/pack-imports'
import { listInWords } from '../../../contract/pack-parts'
import { packDownloadPath } from '../../../contract/api-paths'
import type { Logger } from '../logger'
import type { DerivedFile, PackRecord, Store, WumpusRecord } from '../store/port'
import { currentDerived } from '../store/records'
import { notFound } from '../domain/errors'
import { fileStem } from './file-names'
import { discordEmojiName, PACK_PUBLISHER } from './pack-manifests'
import { tarChunks } from './tar'

/** The file every import format carries: animated GIF, 128x128, at most 256 KiB (Misskey, Mastodon and Pleroma animate GIF). */
const EMOJI_SOURCE = 'discord-emoji' as const

/** One emoji of an import archive: its sticker, its GIF and its name (shortcode), unique in the pack. */
export interface ImportEntry {
  record: WumpusRecord
  file: DerivedFile
  name: string
}

export interface ImportPlan {
  format: ImportFormat
  entries: ImportEntry[]
  /** Stickers left out, and why (no emoji file yet, or over the format's limit). */
  skipped: { record: WumpusRecord; reason: string }[]
  fits: boolean
  message: string | null
  notes: string[]
}

/** Which of a pack's stickers go in one format's archive, each named once. */
export function planImport(pack: PackRecord, items: WumpusRecord[], format: ImportFormat): ImportPlan {
  const entries: ImportEntry[] = []
  const skipped: ImportPlan['skipped'] = []
  const taken = new Set<string>()
  for (const record of items) {
    const made = currentDerived(record)?.exports.find((e) => e.platform === EMOJI_SOURCE)
    if (!made?.file) {
      skipped.push({ record, reason: made ? (made.notes[0] ?? 'No emoji file fits') : 'Still being made' })
      continue
    }
    if (format === 'mastodon' && made.file.bytes > MASTODON_EMOJI_MAX_BYTES) {
      skipped.push({ record, reason: `Its GIF is over Mastodon’s ${MASTODON_EMOJI_MAX_BYTES / 1024} KB emoji limit` })
      continue
    }
    const base = discordEmojiName(record)
    let name = base
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 32 - String(n).length - 1)}_${n}`
    taken.add(name)
    entries.push({ record, file: made.file, name })
  }
  const label = IMPORT_LABELS[format]
  let message: string | null = null
  if (items.length === 0) message = 'This pack has no stickers.'
  else if (entries.length === 0) message = `None of this pack’s stickers has an emoji file for ${label} yet.`
  const notes =
    skipped.length > 0 && message === null
      ? [
          `${skipped.length === 1 ? '1 sticker is' : `${skipped.length} stickers are`} left out: ${listInWords(
            skipped.map(({ record, reason }) => `“${record.name}” (${reason.replace(/\.$/, '')})`),
          )}.`,
        ]
      : []
  return { format, entries, skipped, fits: message === null, message, notes }
}

const EXTENSIONS: Record<ImportFormat, string> = {
  misskey: 'misskey-emoji.zip',
  mastodon: 'mastodon-emoji.tar.gz',
  pleroma: 'pleroma-emoji.zip',
}

/** `kind-wumpuses.misskey-emoji.zip`, `kind-wumpuses.mastodon-emoji.tar.gz`, `kind-wumpuses.pleroma-emoji.zip`. */
export function importFileName(pack: PackRecord, format: ImportFormat): string {
  return `${fileStem(pack.name)}.${EXTENSIONS[format]}`
}

/** A pack's name as a Pleroma / Akkoma folder: lower case letters, digits and underscores. */
export function pleromaPackName(pack: PackRecord): string {
  const name = fileStem(pack.name)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return name.length >= 2 ? `wumpus_${name}` : `wumpus_pack_${pack.id.slice(-6).toLowerCase()}`
}

/** Where the archive's links point: the site's public origin. */
export interface ImportContext {
  origin: string
  /** Who the pack is from (a personal pack's maker, to them and admins). */
  publisher?: string
}

/** The credit we hold for a sticker: its maker, its licence and where it lives. */
export function emojiCredit(record: WumpusRecord, origin: string): string {
  return `${creditLine(record)}; from Wumpus Gallery: ${origin}/wumpus/${encodeURIComponent(record._id)}`
}

/** Words to find an emoji by: its tags and keywords, each once, its own name left out. */
export function emojiAliases(entry: ImportEntry): string[] {
  const words = [...entry.record.tags, ...entry.record.keywords].map((word) => word.trim()).filter((word) => word && word !== entry.name)
  return [...new Set(words)]
}

/** Misskey's meta.json (metaVersion 2, as its own "export custom emojis" writes it; its importer reads `emojis`). */
export function misskeyMeta(pack: PackRecord, plan: ImportPlan, origin: string) {
  return {
    metaVersion: 2,
    host: new URL(origin).host,
    exportedAt: pack.updatedAt.toISOString(),
    emojis: plan.entries.map((entry) => ({
      downloaded: true,
      fileName: `${entry.name}.gif`,
      emoji: {
        name: entry.name,
        category: pack.name,
        aliases: emojiAliases(entry),
        license: emojiCredit(entry.record, origin),
        isSensitive: false,
        localOnly: false,
      },
    })),
  }
}

/** Pleroma's `files` map: shortcode -> file in the pack's ZIP. */
export const pleromaFiles = (plan: ImportPlan): Record<string, string> =>
  Object.fromEntries(plan.entries.map((entry) => [entry.name, `${entry.name}.gif`]))

/** A pack's credits in one line: its makers. */
function packCredit(plan: ImportPlan, publisher: string): string {
  const makers = [...new Set(plan.entries.map((entry) => stickerMaker(entry.record)))]
  return `${makers.length > 0 ? `By ${listInWords(makers)}` : `By ${publisher}`}, from Wumpus Gallery (each emoji’s page names its maker)`
}

function readme(pack: PackRecord, plan: ImportPlan, origin: string): string {
  const lines = [`${pack.name}: ${IMPORT_LABELS[plan.format]} custom emoji from Wumpus Gallery`, '']
  if (pack.description) lines.push(pack.description, '')
  lines.push(`${plan.entries.length} emoji, in pack order:`)
  for (const entry of plan.entries) {
    const aliases = emojiAliases(entry)
    lines.push(`  :${entry.name}:  ${emojiCredit(entry.record, origin)}${aliases.length ? `  (${aliases.join(', ')})` : ''}`)
  }
  lines.push('')
  if (plan.skipped.length > 0) lines.push('Left out:', ...plan.skipped.map(({ record, reason }) => `  ${record.name}: ${reason}`), '')
  lines.push(...licenceNotes(plan.entries.map((entry) => entry.record)), '')
  return lines.join('\r\n')
}

/** An import archive ready to stream. */
export interface ImportArchive {
  fileName: string
  contentType: string
  /** Known for ZIPs (stored entries); a tar.gz is compressed as it streams. */
  bytes?: number
  stream: Readable
  wumpusIds: string[]
}

function fileReader(store: Store, entry: ImportEntry) {
  return async (): Promise<Uint8Array> => {
    const file = await store.files.read(entry.file.id)
    if (!file) throw new Error(`file ${entry.file.id} is gone`)
    return file.bytes
  }
}

async function zipArchive(store: Store, logger: Logger, pack: PackRecord, plan: ImportPlan, texts: [string, string][]) {
  const zip = new ZipFile()
  const mtime = pack.updatedAt
  for (const entry of plan.entries) {
    const read = fileReader(store, entry)
    zip.addReadStreamLazy(`${entry.name}.gif`, { mtime, compress: false, size: entry.file.bytes }, (done) => {
      read().then(
        (bytes) => done(null, Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)])),
        (error: unknown) => done(error as Error, undefined as never),
      )
    })
  }
  for (const [name, text] of texts) zip.addBuffer(Buffer.from(text, 'utf8'), name, { mtime, compress: false })
  // yazl answers the archive's final size (@types/yazl leaves the argument out).
  const end = zip.end.bind(zip) as (options: undefined, onSize: (bytes: number) => void) => void
  const bytes = await new Promise<number>((resolve) => end(undefined, resolve))
  zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error))
  zip.outputStream.on('error', (error) =>
    logger.error('a pack import archive stopped while streaming', { pack: pack.id, format: plan.format, error: String(error) }),
  )
  return { bytes, stream: zip.outputStream as Readable }
}

/** One format's archive of a plan that fits. */
export async function writeImport(
  store: Store,
  logger: Logger,
  pack: PackRecord,
  plan: ImportPlan,
  context: ImportContext,
): Promise<ImportArchive> {
  const fileName = importFileName(pack, plan.format)
  const wumpusIds = plan.entries.map((entry) => entry.record._id)
  const text = readme(pack, plan, context.origin)
  if (plan.format === 'mastodon') {
    const mtime = pack.updatedAt
    const entries = plan.entries.map((entry) => ({
      name: `${entry.name}.gif`,
      size: entry.file.bytes,
      mtime,
      read: fileReader(store, entry),
    }))
    // tootctl takes only .png and .gif entries; the README rides along for people.
    const notes = Buffer.from(text, 'utf8')
    entries.push({ name: 'README.txt', size: notes.byteLength, mtime, read: async () => notes })
    const stream = pipeline(Readable.from(tarChunks(entries)), createGzip(), (error) => {
      if (error) logger.error('a pack import archive stopped while streaming', { pack: pack.id, format: plan.format, error: String(error) })
    })
    return { fileName, contentType: 'application/gzip', stream, wumpusIds }
  }
  const texts: [string, string][] =
    plan.format === 'misskey'
      ? [
          ['meta.json', `${JSON.stringify(misskeyMeta(pack, plan, context.origin), null, 2)}\n`],
          ['README.txt', text],
        ]
      : [['README.txt', text]]
  return { fileName, contentType: 'application/zip', ...(await zipArchive(store, logger, pack, plan, texts)), wumpusIds }
}

/** SHA-256 of each Pleroma ZIP made (the same pack and files make the same bytes), so a manifest costs one read. */
const sha256s = new Map<string, string>()
const SHA_CACHE_MAX = 64

async function pleromaZipSha256(store: Store, logger: Logger, pack: PackRecord, plan: ImportPlan, context: ImportContext): Promise<string> {
  const key = [pack.id, pack.updatedAt.getTime(), context.origin, ...plan.entries.map((entry) => `${entry.name}=${entry.file.id}`)].join(
    '|',
  )
  const known = sha256s.get(key)
  if (known) return known
  const { stream } = await writeImport(store, logger, pack, plan, context)
  const hash = createHash('sha256')
  for await (const chunk of stream) hash.update(chunk as Buffer)
  const sha = hash.digest('hex').toUpperCase()
  if (sha256s.size >= SHA_CACHE_MAX) sha256s.delete(sha256s.keys().next().value!)
  sha256s.set(key, sha)
  return sha
}

/**
 * A public or shared pack's Pleroma / Akkoma files: the manifest `pleroma_ctl emoji get-packs -m` reads, the
 * `files` list it points at, and the pack.json Pleroma keeps beside a pack's files.
 */
export async function pleromaFile(
  store: Store,
  logger: Logger,
  pack: PackRecord,
  plan: ImportPlan,
  file: (typeof PLEROMA_FILES)[number],
  context: ImportContext,
): Promise<unknown> {
  if (!plan.fits) throw notFound(plan.message!)
  const files = pleromaFiles(plan)
  if (file === 'files.json') return files
  const src = `${context.origin}${packDownloadPath(pack.id, 'pleroma')}`
  const sha = await pleromaZipSha256(store, logger, pack, plan, context)
  const homepage = `${context.origin}/packs/${encodeURIComponent(pack.id)}`
  const license = packCredit(plan, context.publisher ?? PACK_PUBLISHER)
  const description = pack.description || `${pack.name}: animated emoji from Wumpus Gallery`
  if (file === 'manifest.json') {
    return {
      [pleromaPackName(pack)]: {
        license,
        homepage,
        description,
        src,
        src_sha256: sha,
        // get-packs reads it beside the manifest.
        files: 'files.json',
      },
    }
  }
  return {
    files,
    pack: { license, homepage, description, 'fallback-src': src, 'fallback-src-sha256': sha, 'share-files': true },
  }
}

/** The path of a pack's Pleroma manifest (for the pack's answer). */
export const pleromaManifestPath = (pack: PackRecord) => pleromaFilePath(pack.id, 'manifest.json')

/**
 * Storage benchmark on a large, realistic data folder. Writes a data folder of the store before SQLite
 * (nedb's line format, the format an existing DATA_DIR has) for BENCH_COUNT animations, each with its
 * previews and platform exports (13 file records), then measures the embedded SQLite store on it: the
 * import of that folder, start (cold and warm), memory, list and search pages, updates, download counts,
 * the orphan sweep and close; then the real server process on the imported folder: time to ready, memory
 * at rest, every animation listed, a search, and a restart. Each measurement runs in a fresh child process,
 * so its memory figures are its own.
 *
 *   npm run bench:store                      generate in a temp folder, measure, remove it
 *   npm run bench:store -- generate DIR [--count N] [--updates N] [--orphans N] [--blobs N] [--seed N]
 *   npm run bench:store -- run DIR [--heap MB] [--sweep-budget SECONDS]
 *
 * `run` works on a copy of DIR next to it (the import moves the old files aside). Cold starts drop the
 * page cache first, which needs root. The orphan sweep stops after --sweep-budget seconds (default 120)
 * and its whole time is then estimated; pass more to time it all. The figures of the store before SQLite
 * were taken with this script before that store was removed (see the 2026-11 storage issue's note).
 *
 *   BENCH_STORE=mongo npm run bench:store    the same animations, file records and users in MongoDB
 *
 * On MongoDB (the mongo adapter): over MONGODB_TEST_URI when set (a fresh database, dropped after), else
 * over the in-process wire stand-in (backend/test/support/mongo-wire-server.ts) with STAND_IN_COUNT
 * animations by default (it scans every document for every query). The animations are stored through the
 * adapter's own batch write (as bench:api seeds it), their file records as the adapter's GridFS file
 * documents (no bytes), the users through the store. Issue 35's store-level rows then report what each
 * operation moves on the wire (bench/support/mongo-wire-traffic.ts: commands, documents, KB each way), its
 * time second: the stand-in's times are not MongoDB's speed.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream, writeFileSync, type WriteStream } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { PLATFORM_RULES, PLATFORMS, type Platform } from '../contract/stickers'
import { sweepOrphanFiles } from '../backend/src/orphan-files'
import type { MongoStore } from '../backend/src/store/mongo/open-mongo-store'
import type { Store, WumpusRecord } from '../backend/src/store/port'
import { Database, DATABASE_FILE } from '../backend/src/store/sqlite/database'
import { prefixEnd } from '../backend/src/store/sqlite/wumpus-search'
import { matchesAsPrefix, queryWords } from '../contract/search'
import type { ImportReport } from '../backend/src/store/sqlite/legacy-import'
import { openSqliteStore } from '../backend/src/store/sqlite/open-sqlite-store'
import { freePortRun } from '../backend/test/support/ports'
import { galleryItem, seededRandom, TAGS, VOCABULARY } from './support/gallery-data'
import type { CountingRelay } from './support/mongo-wire-traffic'

/** What the last open imported, when it imported a folder of the store before SQLite. */
let imported: ImportReport | undefined

/** The database the mongo kind opens (runMongo sets it). */
let mongoUnderBench: { uri: string; dbName: string } | undefined

/** The one place that knows how to open each store kind; another adapter is one more case. */
async function openStoreUnderBench(kind: string, dataDir: string): Promise<Store> {
  switch (kind) {
    case 'sqlite':
      return openSqliteStore({ dataDir, onImport: (report) => (imported = report) })
    case 'mongo':
      if (!mongoUnderBench) throw new Error('No MongoDB to open')
      // Imported here: the SQLite measurements' processes load no MongoDB code (their memory and start figures).
      return (await import('../backend/src/store/mongo/open-mongo-store')).openMongoStore(mongoUnderBench)
    default:
      throw new Error(`Unknown store kind: ${kind}`)
  }
}

// ---- Generator ----

interface DataOptions {
  count: number
  /** Whole-record lines appended after the base records, as each download batch writes them. */
  updates: number
  /** File records (with bytes) that no animation uses: what the orphan sweep removes. */
  orphans: number
  /** The newest animations whose files get real (small) bytes in files/; the others have records only. */
  blobs: number
  seed: number
}

const DAY_MS = 24 * 60 * 60 * 1000
/** Fixed, so that every generation with the same options writes the same folder. */
const NEWEST = Date.UTC(2026, 5, 1)
const SPAN_MS = 3 * 365 * DAY_MS
const USERS = 200
const UPLOADERS = 50
const ADMINS = 3

const email = (user: number) => `user${user}@example.com`
const userName = (user: number) => `${VOCABULARY[user % VOCABULARY.length]} fan ${user}`
const date = (ms: number) => ({ $$date: ms })

const hex8 = (value: number) => value.toString(16).padStart(8, '0')

function hex(random: () => number, length: number): string {
  let text = ''
  while (text.length < length) text += hex8(Math.floor(random() * 2 ** 32))
  return text.slice(0, length)
}

/** A 24-hex id whose first 8 characters are the time in seconds (backend/src/store/ids.ts). */
const idAt = (ms: number, random: () => number) => hex8(Math.floor(ms / 1000)) + hex(random, 16)

/** A random stream for each animation, so that any one can be made again (history lines, ids to measure). */
function streamFor(seed: number, index: number): () => number {
  // seededRandom is a plain LCG: neighbouring seeds would give alike streams, so the seed is hashed.
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d)
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b)
  return seededRandom(h ^ (h >>> 16))
}

function fileStem(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

/** Square size, most frames and largest size of each platform's export (contract/stickers.ts rules). */
const EXPORTS: Record<Platform, { size: number; maxFrames: number; maxKb: number }> = {
  discord: { size: 320, maxFrames: 150, maxKb: 500 },
  'discord-emoji': { size: 128, maxFrames: 300, maxKb: 256 },
  telegram: { size: 512, maxFrames: 180, maxKb: 64 },
  'telegram-emoji': { size: 100, maxFrames: 180, maxKb: 64 },
  whatsapp: { size: 512, maxFrames: 300, maxKb: 500 },
  signal: { size: 512, maxFrames: 300, maxKb: 300 },
  line: { size: 270, maxFrames: 20, maxKb: 300 },
  slack: { size: 128, maxFrames: 50, maxKb: 128 },
}

/** A note an export may carry, and the note when a platform has none. */
const NOTES: Record<Platform, [kept: string, absent: string]> = {
  discord: ['24 fps instead of 30 fps to fit 512 KB', 'The animation runs 6 s; Discord allows 5 s'],
  'discord-emoji': ['Fewer colours to fit 256 KiB', 'Could not fit in 256 KiB'],
  telegram: ['2 star shapes were redrawn as paths', 'Telegram does not allow masks'],
  'telegram-emoji': ['2 star shapes were redrawn as paths', 'Telegram does not allow masks'],
  whatsapp: ['Lossy compression (quality 80) to fit 500 KB', 'Could not fit in 500 KB'],
  signal: ['384x384 instead of 512x512 to fit 300 KiB', 'Could not fit in 300 KiB'],
  line: ['Plays once (3 s in all)', 'The animation runs 6 s; LINE allows 4 s in all'],
  slack: ['12 fps so it fits in 50 frames', 'Could not fit in 128 KB'],
}

/** Emoji given to 60% of the animations (one each), the first ones most often. */
const EMOJI = [
  { char: '🎉', name: 'party popper', shortcode: 'tada' },
  { char: '👋', name: 'waving hand', shortcode: 'wave' },
  { char: '💃', name: 'woman dancing', shortcode: 'dancer' },
  { char: '🔥', name: 'fire', shortcode: 'fire' },
  { char: '😂', name: 'face with tears of joy', shortcode: 'joy' },
  { char: '🐸', name: 'frog', shortcode: 'frog' },
  { char: '🌈', name: 'rainbow', shortcode: 'rainbow' },
  { char: '🦄', name: 'unicorn', shortcode: 'unicorn' },
]

/** One animation's record and its 13 file records (3 originals, 3 previews, 7 exports; 1 export is absent). */
function animation(options: DataOptions, index: number, downloads?: number) {
  const random = streamFor(options.seed, index)
  const withBytes = index >= options.count - options.blobs
  const createdAt = NEWEST - Math.floor(((options.count - 1 - index) / options.count) * SPAN_MS)
  const item = galleryItem(random, index)
  const uploader = Math.floor(random() ** 2 * UPLOADERS)
  const stem = fileStem(item.name)
  const files: FileDocument[] = []
  const file = (at: number, contentType: string, filename: string, size: number, purpose: string) => {
    const doc = fileDocument(random, at, contentType, filename, withBytes ? 500 + (size % 3000) : size, email(uploader), purpose)
    files.push(doc)
    return doc
  }
  const uploadedAt = createdAt - 20_000 - Math.floor(random() * 600_000)
  const original = (extension: string, contentType: string, size: number) => {
    const doc = file(uploadedAt, contentType, `${stem}.${extension}`, Math.floor(size), 'animation')
    return { id: doc._id, filename: doc.filename }
  }
  const originals = {
    gif: original('gif', 'image/gif', 150_000 + random() * 1_500_000),
    apng: original('png', 'image/apng', 200_000 + random() * 2_000_000),
    lottie: original('json', 'application/json', 8_000 + random() * 120_000),
  }
  const madeAt = createdAt + 5_000 + Math.floor(random() * 120_000)
  const frames = 24 + Math.floor(random() * 96)
  const animationMs = Math.round((frames / 30) * 1000)
  const made = (filename: string, contentType: string, size: number, frameCount: number, maxKb: number) => {
    const doc = file(madeAt, contentType, filename, Math.floor((0.2 + 0.8 * random()) * maxKb * 1000), 'derived')
    const durationMs = frameCount > 1 ? animationMs : 0
    return { id: doc._id, filename, contentType, bytes: doc.size, width: size, height: size, frames: frameCount, durationMs }
  }
  const previewFrames = Math.min(frames, Math.ceil(animationMs / 50))
  const previews = {
    small: made(`${stem}.preview.webp`, 'image/webp', 300, previewFrames, 80),
    large: made(`${stem}.preview@2x.webp`, 'image/webp', 600, previewFrames, 250),
    still: made(`${stem}.still.webp`, 'image/webp', 600, 1, 30),
  }
  // Telegram's rules refuse most often; one platform has no export in every record.
  const absent: Platform = random() < 0.6 ? 'telegram' : PLATFORMS[Math.floor(random() * PLATFORMS.length)]!
  const exports = PLATFORMS.map((platform) => {
    const [kept, missing] = NOTES[platform]
    if (platform === absent) return { platform, notes: [missing] }
    const { size, maxFrames, maxKb } = EXPORTS[platform]
    const { contentType, extension } = PLATFORM_RULES[platform]
    const exported = made(`${stem}.${extension}`, contentType, size, Math.min(frames, maxFrames), maxKb)
    return { platform, file: exported, notes: random() < 0.3 ? [kept] : [] }
  })
  const record = {
    _id: idAt(createdAt, random),
    name: item.name,
    description: item.description,
    files: originals,
    u_email: email(uploader),
    u_name: userName(uploader),
    tags: item.tags,
    downloads: downloads ?? item.downloads,
    createdAt: date(createdAt),
    updatedAt: date(createdAt),
    derived: { source: originals.lottie.id, version: 1, madeAt: date(madeAt), previews, exports },
    // Drawn last, so the rest of the record is what it was before emoji were generated.
    emoji: random() < 0.6 ? [EMOJI[Math.floor(random() ** 2 * EMOJI.length)]!] : [],
  }
  return { record, files, withBytes }
}

interface FileDocument {
  _id: string
  contentType: string
  filename: string
  size: number
  sha256: string
  createdAt: { $$date: number }
  owner: string
  purpose: string
}

function fileDocument(
  random: () => number,
  at: number,
  contentType: string,
  filename: string,
  size: number,
  owner: string,
  purpose: string,
): FileDocument {
  return { _id: idAt(at, random), contentType, filename, size, sha256: hex(random, 64), createdAt: date(at), owner, purpose }
}

/** Deterministic bytes for a file that gets real content; its record then carries their real hash. */
function bytesOf(doc: FileDocument): Buffer {
  const bytes = Buffer.from(`${doc._id} ${doc.filename}\n`.repeat(Math.ceil(doc.size / 40))).subarray(0, doc.size)
  doc.sha256 = createHash('sha256').update(bytes).digest('hex')
  return bytes
}

/** One data file, written line by line through a stream. */
class LineFile {
  private readonly out: WriteStream
  constructor(file: string) {
    this.out = createWriteStream(file)
  }
  async write(doc: object): Promise<void> {
    if (!this.out.write(`${JSON.stringify(doc)}\n`)) await once(this.out, 'drain')
  }
  async end(): Promise<void> {
    this.out.end()
    await once(this.out, 'finish')
  }
}

async function generate(dir: string, options: DataOptions): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(path.join(dir, 'files'), { recursive: true })
  const open = (name: string) => new LineFile(path.join(dir, `${name}.db`))
  const out = {
    wumpuses: open('wumpuses'),
    files: open('files'),
    users: open('users'),
    sessions: open('sessions'),
    packs: open('packs'),
    audit: open('audit'),
  }
  let fileRecords = 0
  const putFile = async (doc: FileDocument, withBytes: boolean) => {
    fileRecords++
    if (withBytes) await writeFile(path.join(dir, 'files', doc._id), bytesOf(doc))
    await out.files.write(doc)
  }
  await out.wumpuses.write({ $$indexCreated: { fieldName: 'u_email', unique: false, sparse: false } })
  await out.users.write({ $$indexCreated: { fieldName: 'email', unique: true, sparse: false } })

  const downloads = new Float64Array(options.count)
  for (let i = 0; i < options.count; i++) {
    const { record, files, withBytes } = animation(options, i)
    for (const doc of files) await putFile(doc, withBytes)
    await out.wumpuses.write(record)
    downloads[i] = record.downloads
  }
  // History: the newest animations are downloaded most; each batch rewrote the whole record.
  const history = seededRandom(options.seed + 1)
  for (let u = 0; u < options.updates; u++) {
    const index = options.count - 1 - Math.floor(history() ** 3 * options.count)
    downloads[index]! += 1 + Math.floor(history() * 20)
    await out.wumpuses.write(animation(options, index, downloads[index]).record)
  }

  // The other collections come out the same with or without a history.
  const random = seededRandom(options.seed + 3)

  const pick = () => animation(options, Math.floor(random() * options.count)).record
  const timeIn = () => NEWEST - Math.floor(random() * SPAN_MS)
  const uids: string[] = []
  for (let user = 0; user < USERS; user++) {
    const at = timeIn()
    if (user % 10 === 0) uids[user] = hex(random, 28)
    const image = async (kind: string) => {
      const doc = fileDocument(random, at, 'image/png', `${kind}.png`, 1000 + Math.floor(random() * 3000), email(user), 'image')
      await putFile(doc, true)
      return `/api/files/${doc._id}`
    }
    await out.users.write({
      _id: idAt(at, random),
      email: email(user),
      user_name: userName(user),
      role: user < ADMINS ? 'admin' : 'user',
      photo: user % 7 === 0 ? await image('photo') : '',
      cover: user % 21 === 0 ? await image('cover') : '',
      url: user % 3 === 0 ? `https://example.com/~user${user}` : '',
      job: user % 4 === 0 ? 'Animator' : '',
      description: user % 2 === 0 ? `Makes ${VOCABULARY[user % VOCABULARY.length]} wumpuses.` : '',
      createdAt: date(at),
      updatedAt: date(at),
      ...(uids[user] ? { firebaseUid: uids[user] } : {}),
    })
  }
  for (let i = 0; i < 500; i++) {
    const at = NEWEST - Math.floor(random() * 30 * DAY_MS)
    const user = 10 * Math.floor(random() * (USERS / 10))
    await out.sessions.write({
      _id: hex(random, 32),
      email: email(user),
      uid: uids[user],
      createdAt: date(at),
      expiresAt: date(at + 14 * DAY_MS),
    })
  }
  for (let i = 0; i < 20; i++) {
    const at = timeIn()
    const members = [...new Set(Array.from({ length: 3 + Math.floor(random() * 28) }, () => pick()._id))]
    await out.packs.write({
      _id: idAt(at, random),
      name: `${VOCABULARY[i]} pack`,
      description: `Stickers for ${VOCABULARY[i + 20]} days.`,
      coverWumpusId: members[0],
      wumpusIds: members,
      createdBy: email(i % ADMINS),
      createdAt: date(at),
      updatedAt: date(at),
    })
  }
  for (let i = 0; i < 1000; i++) {
    const at = timeIn()
    const target = pick()
    const edit = random() < 0.3
    await out.audit.write({
      _id: idAt(at, random),
      at: date(at),
      actor: email(i % ADMINS),
      action: edit ? 'wumpus.edit' : 'wumpus.publish',
      target: { type: 'wumpus', id: target._id, name: target.name },
      changes: edit ? [{ field: 'name', from: `${target.name} (draft)`, to: target.name }] : [{ field: 'name', to: target.name }],
    })
  }
  for (let i = 0; i < options.orphans; i++) {
    const at = timeIn()
    await putFile(
      fileDocument(random, at, 'image/gif', `unpublished-${i}.gif`, 1000 + Math.floor(random() * 3000), email(i % ADMINS), 'animation'),
      true,
    )
  }
  await Promise.all(Object.values(out).map((file) => file.end()))
  await writeFile(path.join(dir, 'bench.json'), `${JSON.stringify({ ...options, fileRecords })}\n`)
}

// ---- Measurements (in a child process) ----

/** What bench.json in a generated folder holds. */
type DataInfo = DataOptions & { fileRecords: number }

interface Stats {
  p50: number
  p99: number
  max: number
  runs: number
}

function stats(times: number[]): Stats {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1)!, runs: sorted.length }
}

/** CPU time of this process (all its threads) since `since`, in ms: less swayed by other load than wall time. */
const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since)
  return (user + system) / 1000
}

async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now()
  const result = await run()
  return [performance.now() - start, result]
}

async function repeated(runs: number, run: (i: number) => Promise<unknown>): Promise<Stats> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push((await timed(() => run(i)))[0])
  return stats(times)
}

const mb = (bytes: number) => bytes / 2 ** 20

function memoryAtRest() {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  gc?.()
  const usage = process.memoryUsage()
  return { rssMb: mb(usage.rss), heapUsedMb: mb(usage.heapUsed), forcedGc: gc !== undefined }
}

/** Highest RSS of this process so far (the open is what raises it). */
const peakRssMb = () => process.resourceUsage().maxRSS / 1024

function describe(error: unknown) {
  const { name, message, code, stack } = error as { name?: string; message?: string; code?: string; stack?: string }
  return { name, message: message?.slice(0, 300) ?? String(error), code, at: stack?.split('\n')[1]?.trim() }
}

/** Open, first page, memory at rest, close. */
async function measureOpen(kind: string, dir: string) {
  const start = performance.now()
  const cpu = process.cpuUsage()
  try {
    const store = await openStoreUnderBench(kind, dir)
    await store.wumpuses.list({ limit: 24 })
    const openMs = performance.now() - start
    const openCpuMs = cpuMs(cpu)
    const sinceProcessStartMs = performance.now()
    const peak = peakRssMb()
    const rest = memoryAtRest()
    const [closeMs] = await timed(() => store.close())
    const importSummary = imported && {
      imported: imported.imported,
      damagedLines: imported.damaged.length,
      databaseMb: mb((await stat(path.join(dir, DATABASE_FILE))).size),
    }
    return { ok: true as const, openMs, openCpuMs, sinceProcessStartMs, peakRssMb: peak, ...rest, closeMs, import: importSummary }
  } catch (error) {
    return {
      ok: false as const,
      error: describe(error),
      failedAfterMs: performance.now() - start,
      cpuMs: cpuMs(cpu),
      peakRssMb: peakRssMb(),
    }
  }
}

const RARE = 'lantern'
const COMMON = 'happy'
const SHORT_QUERIES = ['a', 'b', 'c', 'd', 'h', 'm', 'p', 's', 'w', 'co', 'da', 'ha', 'pi', 'sl', 'wa', 'ye']

async function measureSearch(store: Store, q: string) {
  const [firstMs, page] = await timed(() => store.wumpuses.list({ limit: 24, q }))
  const again = await repeated(200, () => store.wumpuses.list({ limit: 24, q }))
  const page2 = await repeated(200, () => store.wumpuses.list({ limit: 24, q, cursor: page.nextCursor }))
  return { q, total: page.total, firstMs, again, page2 }
}

async function measureAll(kind: string, dir: string, options: DataInfo, sweepBudgetMs: number) {
  const [openMs, opened] = await timed(() => openStoreUnderBench(kind, dir))
  let store = opened
  const atRest = memoryAtRest()
  const random = seededRandom(options.seed + 2)
  const someIds = (n: number) => Array.from({ length: n }, () => animation(options, Math.floor(random() * options.count)).record._id)

  const first = await store.wumpuses.list({ limit: 24 })
  const listFirstPage = await repeated(1000, () => store.wumpuses.list({ limit: 24 }))
  const listPage2 = await repeated(500, () => store.wumpuses.list({ limit: 24, cursor: first.nextCursor }))
  const tagFirstPage = await repeated(500, () => store.wumpuses.list({ limit: 24, tag: TAGS[0] }))
  // Each query's first answer is uncached; asked again, it may come from a cache.
  const search = {
    rare: await measureSearch(store, RARE),
    common: await measureSearch(store, COMMON),
    oneLetter: await measureSearch(store, 'e'),
  }
  const firsts: number[] = []
  for (const q of SHORT_QUERIES) firsts.push((await timed(() => store.wumpuses.list({ limit: 24, q })))[0])

  const updateIds = someIds(500)
  const names = await Promise.all(updateIds.map(async (id) => (await store.wumpuses.get(id))!.name))
  const update = await repeated(updateIds.length, (i) => store.wumpuses.update(updateIds[i]!, { name: `${names[i]} (edited)` }))
  const batches: number[] = []
  for (let b = 0; b < 5; b++) {
    const counts = new Map(someIds(200).map((id) => [id, 1 + Math.floor(random() * 3)]))
    batches.push((await timed(() => store.wumpuses.addDownloads(counts)))[0])
  }
  const { store: reopened, figures: rows } = await measureRows(store, kind, dir)
  store = reopened
  const sweep = await measureSweep(store, sweepBudgetMs, options.fileRecords)
  const [closeMs] = await timed(() => store.close())
  const floors = measureFloors(dir)
  const backup = await measureBackup(dir)
  return {
    ok: true as const,
    openMs,
    atRest,
    listFirstPage,
    listPage2,
    tagFirstPage: { tag: TAGS[0], ...tagFirstPage },
    search,
    shortQueriesFirstAnswer: { queries: SHORT_QUERIES.join(' '), ...stats(firsts) },
    update,
    addDownloads200: stats(batches),
    sweep,
    rows,
    floors,
    backup,
    closeMs,
    peakRssMb: peakRssMb(),
  }
}

/** The rare filter: the last uploader's animations (uploaders are drawn as random()², so about 1%). */
const RARE_UPLOADER = email(UPLOADERS - 1)
/** The queries of the search rows: one letter, two letters (a prefix), a common word, an emoji. */
const ROW_QUERIES = { 'one letter': 'e', 'two letters': 'wa', 'common word': COMMON, emoji: EMOJI[0]!.char } as const
const ROW_ORDERS = { relevance: undefined, newest: 'new' } as const

/**
 * The rows of issue 35, each with a floor measured by measureFloors on the same data: list, tag,
 * popular with a rare filter, searches (first answer and again, each order on a freshly opened store so
 * both first answers are uncached), a search again after a render result, pack write, favourite
 * toggle, tag counts after a name edit and after a tag edit. Answers the store (reopened) and the figures.
 */
async function measureRows(store: Store, kind: string, dir: string) {
  const figures: Record<string, Stats & { total?: number }> = {}
  const runs = async (label: string, n: number, run: (i: number) => Promise<unknown>) => (figures[label] = await repeated(n, run))
  await runs('list', 300, () => store.wumpuses.list({ limit: 24 }))
  await runs('tag', 300, () => store.wumpuses.list({ limit: 24, tag: TAGS[0] }))
  const rare = await store.wumpuses.list({ limit: 24, sort: 'popular', u_email: RARE_UPLOADER })
  figures['popular, rare filter'] = {
    ...(await repeated(300, () => store.wumpuses.list({ limit: 24, sort: 'popular', u_email: RARE_UPLOADER }))),
    total: rare.total,
  }
  for (const [orderName, sort] of Object.entries(ROW_ORDERS)) {
    await store.close()
    store = await openStoreUnderBench(kind, dir)
    for (const [queryName, q] of Object.entries(ROW_QUERIES)) {
      const [firstMs, page] = await timed(() => store.wumpuses.list({ limit: 24, q, ...(sort ? { sort } : {}) }))
      figures[`search ${queryName} '${q}', ${orderName}: first`] = { ...stats([firstMs]), total: page.total }
      await runs(`search ${queryName} '${q}', ${orderName}: again`, 50, () =>
        store.wumpuses.list({ limit: 24, q, ...(sort ? { sort } : {}) }),
      )
    }
  }
  // A render result (the same derived media made again) between a search and its next answer.
  const rendered = (await store.wumpuses.list({ limit: 24 })).items
  const afterRender: number[] = []
  for (const [i, record] of rendered.entries()) {
    await store.wumpuses.setDerived(record._id, record.files.lottie.id, record.derived ?? null)
    const q = Object.values(ROW_QUERIES)[i % 4]!
    afterRender.push((await timed(() => store.wumpuses.list({ limit: 24, q })))[0])
  }
  figures['search after a render result'] = stats(afterRender)
  const ids = rendered.map((record) => record._id)
  const pack = await store.packs.insert({ name: 'Bench pack', description: '', wumpusIds: ids, createdBy: email(0) })
  await runs('pack write (24 members)', 100, (i) => store.packs.update(pack.id, { wumpusIds: i % 2 ? ids : [...ids].reverse() }))
  await runs('favourite toggle', 200, (i) =>
    i % 2 ? store.favourites.remove(email(1), ids[0]!) : store.favourites.add(email(1), ids[0]!, { max: 1000 }),
  )
  const edited = ids[1]!
  const { name, tags } = (await store.wumpuses.get(edited))!
  const afterName: number[] = []
  const afterTag: number[] = []
  for (let i = 0; i < 30; i++) {
    await store.wumpuses.update(edited, { name: `${name} ${i}` })
    afterName.push((await timed(() => store.wumpuses.listTags()))[0])
    await store.wumpuses.update(edited, { tags: i % 2 ? tags : [...tags, 'bench-tag'] })
    afterTag.push((await timed(() => store.wumpuses.listTags()))[0])
  }
  figures['tag counts after a name edit'] = stats(afterName)
  figures['tag counts after a tag edit'] = stats(afterTag)
  return { store, figures }
}

/**
 * A backup's database part, as the store makes it (SQLite's online backup, 128 pages a turn of the event
 * loop, so requests go on), with the event loop's longest block; beside VACUUM INTO, which copies in one
 * statement that blocks throughout. A backup's files are then copied, or linked from the one before, at
 * the disk's speed.
 */
async function measureBackup(dir: string) {
  const out = `${dir}-backup`
  await rm(out, { recursive: true, force: true })
  await mkdir(out)
  const db = new Database(path.join(dir, DATABASE_FILE))
  try {
    const delay = monitorEventLoopDelay({ resolution: 1 })
    delay.enable()
    const [onlineMs] = await timed(() => db.backup(path.join(out, 'online.sqlite3'), { progress: () => 128 }))
    delay.disable()
    const start = performance.now()
    db.exec(`VACUUM INTO '${path.join(out, 'vacuum.sqlite3').replaceAll("'", "''")}'`)
    const vacuumMs = performance.now() - start
    const bytes = (await stat(path.join(out, 'online.sqlite3'))).size
    const vacuumBytes = (await stat(path.join(out, 'vacuum.sqlite3'))).size
    return { onlineMs, longestBlockMs: delay.max / 1e6, bytes, vacuumMs, vacuumBytes }
  } finally {
    db.close()
    await rm(out, { recursive: true, force: true })
  }
}

/**
 * The floors: raw better-sqlite3 on the closed store's database, the same query or write (the SQL an
 * index-keeping adapter would run, on the schema of both versions).
 */
function measureFloors(dir: string) {
  const db = new Database(path.join(dir, DATABASE_FILE))
  db.pragma('synchronous = FULL')
  const floors: Record<string, Stats> = {}
  const time = (label: string, n: number, run: (i: number) => unknown) => {
    const times: number[] = []
    for (let i = 0; i < n; i++) {
      const start = performance.now()
      run(i)
      times.push(performance.now() - start)
    }
    floors[label] = stats(times)
  }
  const rowsOf = db.prepare<number[]>('SELECT * FROM wumpuses WHERE seq IN (' + Array(24).fill('?').join(', ') + ')')
  const withRows = (seqs: number[]) => rowsOf.all(...seqs, ...Array(24 - seqs.length).fill(0))
  const list = db
    .prepare('SELECT seq FROM wumpuses INDEXED BY wumpuses_newest WHERE remix_of IS NULL ORDER BY created_at DESC, id DESC LIMIT 25')
    .pluck()
  time('list', 300, () => withRows((list.all() as number[]).slice(0, 24)))
  const tag = db
    .prepare('SELECT seq FROM wumpus_facets INDEXED BY wumpus_facets_newest WHERE facet = ? ORDER BY created_at DESC, id DESC LIMIT 25')
    .pluck()
  time('tag', 300, () => withRows((tag.all(`t:${TAGS[0]}`) as number[]).slice(0, 24)))
  const rare = db
    .prepare(
      `SELECT w.seq FROM wumpuses w INDEXED BY wumpuses_popular WHERE w.remix_of IS NULL
       AND EXISTS (SELECT 1 FROM wumpus_facets g WHERE g.facet = ? AND g.seq = w.seq)
       ORDER BY w.downloads DESC, w.created_at DESC, w.id DESC LIMIT 25`,
    )
    .pluck()
  time('popular, rare filter', 300, () => withRows((rare.all(`u:${RARE_UPLOADER}`) as number[]).slice(0, 24)))
  // A search reads its words' postings at least (the prefix range from two letters on): the floor of any order.
  const postings = db.prepare('SELECT seq, fields, created_at FROM wumpus_words WHERE word >= ? AND word < ?').raw()
  const whole = db.prepare('SELECT seq, fields, created_at FROM wumpus_words WHERE word = ?').raw()
  for (const [queryName, q] of Object.entries(ROW_QUERIES)) {
    const words = queryWords(q)
    time(`search ${queryName} '${q}'`, 50, () =>
      words.map((word) => (matchesAsPrefix(word) ? postings.all(word, prefixEnd(word)) : whole.all(word))),
    )
  }
  const ids = db.prepare('SELECT id FROM wumpuses WHERE remix_of IS NULL ORDER BY created_at DESC LIMIT 24').pluck().all() as string[]
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO packs (id, name, description, cover_wumpus_id, wumpus_ids, visibility, created_by, edited_at, created_at, updated_at)
     VALUES (?, 'Floor pack', '', NULL, ?, 'public', ?, '{}', ?, ?)`,
  )
  const clear = db.prepare('DELETE FROM pack_members WHERE pack_id = ?')
  const member = db.prepare('INSERT OR IGNORE INTO pack_members (wumpus_id, pack_id) VALUES (?, ?)')
  const packId = 'f'.repeat(24)
  const writePack = db.transaction((members: string[]) => {
    upsert.run(packId, JSON.stringify(members), email(0), Date.now(), Date.now())
    clear.run(packId)
    for (const id of members) member.run(id, packId)
  })
  time('pack write (24 members)', 100, (i) => writePack(i % 2 ? ids : [...ids].reverse()))
  const favourite = db.prepare('INSERT INTO favourites (email, wumpus_id, favourited_at) VALUES (?, ?, ?)')
  const unfavourite = db.prepare('DELETE FROM favourites WHERE email = ? AND wumpus_id = ?')
  time('favourite toggle', 200, (i) => (i % 2 ? unfavourite.run(email(2), ids[0]) : favourite.run(email(2), ids[0], Date.now())))
  const tagCounts = db.prepare("SELECT facet, count(*) FROM wumpus_facets WHERE facet >= 't:' AND facet < 't;' GROUP BY facet").raw()
  time('tag counts (counted)', 30, () => tagCounts.all())
  const unused = db
    .prepare(
      `SELECT f.id FROM files f WHERE f.created_at < ? AND f.purpose IN ('animation', 'derived')
       AND NOT EXISTS (SELECT 1 FROM wumpus_files c WHERE c.file_id = f.id)`,
    )
    .pluck()
  time('orphan sweep (one query)', 1, () => unused.all(Date.now() - DAY_MS))
  db.close()
  return floors
}

/**
 * The real orphan sweep (backend/src/orphan-files.ts) with the event loop's longest block. When it
 * would run past the budget it is stopped (its next page comes back empty) and its whole time is
 * estimated from the pages done.
 */
async function measureSweep(store: Store, budgetMs: number, totalFiles: number) {
  let pages = 0
  let filesListed = 0
  let stopped = false
  const start = performance.now()
  const cpu = process.cpuUsage()
  const files = new Proxy(store.files, {
    get(target, key) {
      if (key === 'listSweepCandidates' && target.listSweepCandidates)
        return async (options: Parameters<Store['files']['list']>[0]) => {
          if (performance.now() - start > budgetMs) {
            stopped = true
            return { candidates: [] }
          }
          const page = await target.listSweepCandidates!(options)
          pages++
          if (page.last) filesListed += options.limit
          return page
        }
      if (key === 'list')
        return async (options: Parameters<Store['files']['list']>[0]) => {
          if (performance.now() - start > budgetMs) {
            stopped = true
            return []
          }
          const page = await target.list(options)
          pages++
          filesListed += page.length
          return page
        }
      const value: unknown = Reflect.get(target, key)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
  const watched: Store = Object.assign(Object.create(store) as Store, { files })
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const removed = await sweepOrphanFiles(watched)
  // One more turn, so that a block lasting to the end is recorded.
  await new Promise((resolve) => setTimeout(resolve, 20))
  delay.disable()
  const ms = performance.now() - start
  const sweep = { ms, cpuMs: cpuMs(cpu), removed, pages, filesListed, totalFiles, longestBlockMs: delay.max / 1e6 }
  if (!stopped) return { ...sweep, complete: true as const, estimatedFullMs: ms }
  // A page past the last file: what every page costs whatever is left (listing and filtering every file).
  const createdBefore = new Date(Date.now() - DAY_MS)
  const after = { createdAt: createdBefore, id: 'f'.repeat(24) }
  const emptyPages: number[] = []
  for (let i = 0; i < 3; i++) emptyPages.push((await timed(() => store.files.list({ createdBefore, limit: 500, after })))[0])
  const emptyPageMs = stats(emptyPages).p50
  return { ...sweep, complete: false as const, emptyPageMs, estimatedFullMs: estimateFull(sweep, emptyPageMs) }
}

/**
 * A page costs a fixed part (emptyPageMs) plus sorting the files left, which shrink to none by the
 * end: fitted to the pages done, summed over all pages.
 */
function estimateFull(done: { ms: number; pages: number; filesListed: number; totalFiles: number }, emptyPageMs: number): number {
  const doneShare = done.filesListed / done.totalFiles
  const sortingAtStart = (done.ms - done.pages * emptyPageMs) / (done.pages * (1 - doneShare / 2))
  const allPages = Math.ceil(done.totalFiles / (done.filesListed / done.pages))
  return allPages * (emptyPageMs + sortingAtStart / 2)
}

// ---- The server process on the imported folder ----

/** Starts the real server (backend/src/main.ts) on the folder; answers once /ready does, with the time it took. */
async function startServer(dir: string) {
  const port = await freePortRun(1)
  const started = performance.now()
  const proc = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
    cwd: path.resolve(path.dirname(SELF), '..'),
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dir,
      STATIC_DIR: path.join(dir, 'no-build'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
    },
  })
  const base = `http://127.0.0.1:${port}`
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}`)
    const ready = await fetch(`${base}/ready`).then(
      (res) => res.ok,
      () => false,
    )
    if (ready) return { proc, base, readyMs: performance.now() - started }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function stopServer(proc: ReturnType<typeof spawn>): Promise<number> {
  const [ms] = await timed(async () => {
    proc.kill('SIGTERM')
    await once(proc, 'exit')
  })
  return ms
}

/** The server's resident memory, from the system's view of the process. */
async function serverRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
}

async function measureServer(dir: string) {
  const first = await startServer(dir)
  // At rest: after the start's background pass over every animation (for missing previews) has settled.
  await new Promise((resolve) => setTimeout(resolve, 15_000))
  const rssAtRestMb = await serverRssMb(first.proc.pid!)
  let listed = 0
  let pages = 0
  let next: string | undefined = `${first.base}/api/wumpuses?limit=100`
  const [listAllMs] = await timed(async () => {
    while (next) {
      const res = await fetch(next)
      listed += ((await res.json()) as unknown[]).length
      pages++
      const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
      next = link ? new URL(link, first.base).href : undefined
    }
  })
  const [searchMs, search] = await timed(async () => {
    const res = await fetch(`${first.base}/api/wumpuses?q=${COMMON}`)
    return { status: res.status, total: Number(res.headers.get('x-total-count')) }
  })
  const rssAfterListingMb = await serverRssMb(first.proc.pid!)
  const stopMs = await stopServer(first.proc)
  const restart = await startServer(dir)
  const restartStopMs = await stopServer(restart.proc)
  return {
    readyMs: first.readyMs,
    rssAtRestMb,
    listAll: { listed, pages, ms: listAllMs },
    search: { q: COMMON, ...search, ms: searchMs },
    rssAfterListingMb,
    stopMs,
    restartReadyMs: restart.readyMs,
    restartStopMs,
  }
}

// ---- Parent: runs the children and prints the figures ----

const SELF = fileURLToPath(import.meta.url)
const RESULT = 'BENCH-RESULT '

type OpenFigures = Awaited<ReturnType<typeof measureOpen>>
type FullFigures = Awaited<ReturnType<typeof measureAll>>
/** A child that ended without figures (killed, out of memory). */
type Crash = { ok: false; exit: number | string | null; error: { message: string } }

async function child<T>(
  phase: string,
  kind: string,
  dir: string,
  options: DataInfo,
  flags: string[],
  sweepBudgetMs = 0,
): Promise<T | Crash> {
  const args = [...flags, '--expose-gc', '--import', 'tsx', SELF, 'child', phase, kind, dir, JSON.stringify(options), String(sweepBudgetMs)]
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code, signal] = (await once(proc, 'exit')) as [number | null, string | null]
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT))
  if (line) return JSON.parse(line.slice(RESULT.length)) as T
  const lines = stderr.trim().split('\n')
  return { ok: false, exit: code ?? signal, error: { message: (lines.find((l) => /error/i.test(l)) ?? lines.at(-1) ?? '').slice(0, 300) } }
}

function dropCaches(): boolean {
  spawnSync('sync')
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3')
    return true
  } catch {
    return false
  }
}

async function folderSizes(dir: string) {
  const sizes: Record<string, number> = {}
  for (const name of await readdir(dir)) if (name.endsWith('.db')) sizes[name] = (await stat(path.join(dir, name))).size
  return { bytes: sizes, filesInFolder: (await readdir(path.join(dir, 'files'))).length }
}

function printLoadAtStart(loadavg: number[]): void {
  console.log(`load average at start: ${loadavg.map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores)`)
}

async function run(dir: string, kinds: string[], heapMb: number | undefined, sweepBudgetMs: number) {
  const options = JSON.parse(await readFile(path.join(dir, 'bench.json'), 'utf8')) as DataInfo
  const flags = heapMb ? [`--max-old-space-size=${heapMb}`] : []
  const machine = {
    loadavg: os.loadavg(),
    cpus: os.cpus().length,
    memoryMb: mb(os.totalmem()),
    node: process.version,
    flags: flags.join(' '),
  }
  const data = { dir, ...options, ...(await folderSizes(dir)) }
  printLoadAtStart(machine.loadavg)
  console.log(`data: ${dir}: ${options.count} animations, ${options.updates} update lines, ${data.filesInFolder} files in files/`)
  for (const [name, bytes] of Object.entries(data.bytes)) console.log(`  ${name.padEnd(12)} ${(bytes / 1e6).toFixed(1).padStart(7)} MB`)
  const results: Record<string, unknown> = {}
  for (const kind of kinds) {
    const work = `${dir}.${kind}-run`
    await rm(work, { recursive: true, force: true })
    await cp(dir, work, { recursive: true })
    dropCaches()
    // The first open imports the folder of the store before SQLite.
    const importing = await child<OpenFigures>('open', kind, work, options, flags)
    const cold = dropCaches()
      ? await child<OpenFigures>('open', kind, work, options, flags)
      : 'cold not measurable (cannot drop the page cache)'
    const warm = await child<OpenFigures>('open', kind, work, options, flags)
    const full = warm.ok ? await child<FullFigures>('measure', kind, work, options, flags, sweepBudgetMs) : undefined
    const server = warm.ok ? await measureServer(work) : undefined
    await rm(work, { recursive: true, force: true })
    results[kind] = { importing, cold, warm, full, server }
    printTable(kind, [
      ...startRows('first start: import of the older folder (open + first page)', importing),
      ...startRows('start cold (open + first page)', cold),
      ...startRows('start warm (open + first page)', warm),
      ...fullRows(full),
      ...serverRows(server),
    ])
  }
  const loadavgAtEnd = os.loadavg()
  console.log(`\nload average at end: ${loadavgAtEnd.map((l) => l.toFixed(2)).join(' ')}`)
  console.log(JSON.stringify({ bench: 'store', machine: { ...machine, loadavgAtEnd }, data, results }))
}

const ms = (value: number) => `${value < 10 ? value.toFixed(3) : value.toFixed(0)} ms`
const p = (s: Stats) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)} (${s.runs} runs)`
const mib = (value: number) => `${value.toFixed(0)} MiB`

function startRows(label: string, figures: OpenFigures | Crash | string): string[][] {
  if (typeof figures === 'string') return [[label, figures]]
  if (!figures.ok) {
    const after =
      'failedAfterMs' in figures ? ` after ${ms(figures.failedAfterMs)} (CPU ${ms(figures.cpuMs)}), peak RSS ${mib(figures.peakRssMb)}` : ''
    return [[label, `FAILED${after}: ${JSON.stringify(figures.error)}`]]
  }
  return [
    [label, `${ms(figures.openMs)} (CPU ${ms(figures.openCpuMs)}; from process start ${ms(figures.sinceProcessStartMs)})`],
    ['  peak RSS during open', mib(figures.peakRssMb)],
    ['  at rest after gc: RSS / heap used', `${mib(figures.rssMb)} / ${mib(figures.heapUsedMb)}`],
    ['  close (nothing written)', ms(figures.closeMs)],
    ...(figures.import
      ? [
          [
            '  imported',
            `${Object.entries(figures.import.imported)
              .map(([name, n]) => `${n} ${name}`)
              .join(', ')}; ${figures.import.damagedLines} damaged lines; database ${figures.import.databaseMb.toFixed(0)} MB`,
          ],
        ]
      : []),
  ]
}

function serverRows(server: Awaited<ReturnType<typeof measureServer>> | undefined): string[][] {
  if (!server) return []
  return [
    ['server (main.ts): start to ready', ms(server.readyMs)],
    ['  RSS at rest, 15 s after ready', mib(server.rssAtRestMb)],
    [`  every animation listed (${server.listAll.pages} pages of 100)`, `${server.listAll.listed} in ${ms(server.listAll.ms)}`],
    [`  search '${server.search.q}'`, `${server.search.status}, ${server.search.total} matches in ${ms(server.search.ms)}`],
    ['  RSS after listing everything', mib(server.rssAfterListingMb)],
    ['  stop (SIGTERM to exit)', ms(server.stopMs)],
    ['  restart to ready', ms(server.restartReadyMs)],
  ]
}

function fullRows(full: FullFigures | Crash | undefined): string[][] {
  if (!full) return []
  if (!full.ok) return [['measurements', `FAILED: ${JSON.stringify(full.error)}`]]
  const { search, sweep, shortQueriesFirstAnswer: short, addDownloads200: downloads } = full
  const searchRows = (label: string, s: typeof search.rare) => [
    [`search ${label} '${s.q}' (${s.total} matches): first`, ms(s.firstMs)],
    ['  again', p(s.again)],
    ['  page 2', p(s.page2)],
  ]
  return [
    ['list first page (24)', p(full.listFirstPage)],
    ['list page 2 (cursor)', p(full.listPage2)],
    [`tag filter first page (${full.tagFirstPage.tag})`, p(full.tagFirstPage)],
    ...searchRows('rare word', search.rare),
    ...searchRows('common word', search.common),
    ...searchRows('one letter', search.oneLetter),
    [`search first answers, ${short.runs} other 1-2 letter queries`, `p50 ${ms(short.p50)}, max ${ms(short.max)}`],
    ['updateWumpus (name), call to acknowledgement', p(full.update)],
    ['addDownloads, 200 ids', `p50 ${ms(downloads.p50)}, max ${ms(downloads.max)} (${downloads.runs} batches)`],
    [
      `orphan sweep (${sweep.removed} removed, ${sweep.filesListed} of ${sweep.totalFiles} files)`,
      sweep.complete
        ? `${ms(sweep.ms)} (CPU ${ms(sweep.cpuMs)})`
        : `stopped after ${ms(sweep.ms)} (CPU ${ms(sweep.cpuMs)}); whole sweep estimated ${ms(sweep.estimatedFullMs)} (a page costs at least ${ms(sweep.emptyPageMs)})`,
    ],
    ['  event loop longest block during the sweep', ms(sweep.longestBlockMs)],
    ['close (after the writes above)', ms(full.closeMs)],
    [
      `backup, database part (online, 128 pages a turn): ${mib(full.backup.bytes / 2 ** 20)}`,
      `${ms(full.backup.onlineMs)}, event loop longest block ${ms(full.backup.longestBlockMs)}`,
    ],
    [`  VACUUM INTO (floor; blocks throughout): ${mib(full.backup.vacuumBytes / 2 ** 20)}`, ms(full.backup.vacuumMs)],
    ...issueRows(full),
    ['peak RSS of the measuring process', mib(full.peakRssMb)],
  ]
}

/** Issue 35's rows: the store's figure beside its floor (raw better-sqlite3, measureFloors). */
function issueRows(full: FullFigures): string[][] {
  // The floor whose label (without its parenthesis) the row's label starts with, the longest such.
  const floorOf = (label: string) => {
    const key = Object.keys(full.floors)
      .filter((floor) => label.startsWith(floor.replace(/ \(.*\)$/, '')))
      .sort((a, b) => b.length - a.length)[0]
    return key ? ` | floor ${key}: p50 ${ms(full.floors[key]!.p50)}` : ''
  }
  const rows = Object.entries(full.rows).map(([label, s]) => [
    `${label}${s.total === undefined ? '' : ` (${s.total} matches)`}`,
    `${s.runs === 1 ? ms(s.p50) : p(s)}${floorOf(label)}`,
  ])
  const sweep = full.sweep
  return [
    ['-- issue 35 rows (store | floor: raw better-sqlite3, same query) --', ''],
    ...rows,
    [`orphan sweep`, `${ms(sweep.estimatedFullMs)}${floorOf('orphan sweep')}`],
  ]
}

function printTable(kind: string, rows: string[][]) {
  const width = Math.max(...rows.map(([label]) => label!.length))
  console.log(`\nstore: ${kind}`)
  for (const [label, value] of rows) console.log(`  ${label!.padEnd(width)}  ${value}`)
}

// ---- MongoDB: what each operation moves on the wire ----

/**
 * The stand-in evaluates every query with mingo over every document, on this process's thread: about 0.1
 * s a search at 5,000 animations, and each file the orphan sweep checks scans every animation.
 */
const STAND_IN_COUNT = 4000
/** Pages of 500 file records the orphan sweep is followed for (the whole sweep is estimated from them). */
const MONGO_SWEEP_PAGES = 2
/**
 * On the stand-in, the file records of the newest animations only: it checks each insert against every
 * stored document of a unique index, so 52,000 file documents take it most of an hour. The sweep's rows
 * are per page; its whole-sweep estimate counts every animation's file records.
 */
const STAND_IN_FILE_ANIMATIONS = 200

/** MongoDB's modules, loaded by runMongo only: the SQLite measurements' processes load no MongoDB code. */
async function loadMongo() {
  const [driver, files, wire, traffic] = await Promise.all([
    import('mongodb'),
    import('../backend/src/store/mongo/files'),
    import('../backend/test/support/mongo-wire-server'),
    import('./support/mongo-wire-traffic'),
  ])
  return {
    MongoClient: driver.MongoClient,
    ObjectId: driver.ObjectId,
    BUCKET: files.BUCKET,
    startMongoWireServer: wire.startMongoWireServer,
    startCountingRelay: traffic.startCountingRelay,
  }
}
type MongoModules = Awaited<ReturnType<typeof loadMongo>>

/** The generator's values with their nedb dates ({$$date: ms}) as Dates: what the store holds. */
function revived<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value), (_key, raw: unknown) =>
    raw && typeof raw === 'object' && '$$date' in raw ? new Date((raw as { $$date: number }).$$date) : raw,
  ) as T
}

/** A file record as the adapter's GridFS file document (MongoFiles.put), without chunks: its bytes are never read here. */
const gridFile = (doc: FileDocument, { ObjectId }: MongoModules) => ({
  _id: new ObjectId(doc._id),
  length: doc.size,
  chunkSize: 255 * 1024,
  uploadDate: new Date(doc.createdAt.$$date),
  filename: doc.filename,
  metadata: { contentType: doc.contentType, filename: doc.filename, sha256: doc.sha256, owner: doc.owner, purpose: doc.purpose },
})

/**
 * The generator's animations through the adapter's batch write (records as they are, with their counts:
 * MongoWumpuses.restore, as bench:api seeds), their file records and unused uploads as GridFS file
 * documents, the users through the store. Answers how many file records.
 */
async function fillMongo(options: DataOptions, allFiles: boolean, mongo: MongoModules): Promise<{ fileRecords: number; stored: number }> {
  const store = (await openStoreUnderBench('mongo', '')) as MongoStore
  const client = await mongo.MongoClient.connect(mongoUnderBench!.uri)
  const files = client.db(mongoUnderBench!.dbName).collection(`${mongo.BUCKET}.files`)
  let fileRecords = 0
  let stored = 0
  try {
    let records: WumpusRecord[] = []
    let fileDocs: ReturnType<typeof gridFile>[] = []
    for (let i = 0; i < options.count; i++) {
      const made = animation(options, i)
      records.push(revived<WumpusRecord>(made.record))
      fileRecords += made.files.length
      if (allFiles || i >= options.count - STAND_IN_FILE_ANIMATIONS) fileDocs.push(...made.files.map((doc) => gridFile(doc, mongo)))
      if (records.length === 1000 || i === options.count - 1) {
        await store.wumpuses.restore(records)
        if (fileDocs.length > 0) await files.insertMany(fileDocs, { ordered: false })
        stored += fileDocs.length
        records = []
        fileDocs = []
      }
    }
    const random = seededRandom(options.seed + 3)
    const orphans = Array.from({ length: options.orphans }, (_, i) =>
      gridFile(
        fileDocument(
          random,
          NEWEST - Math.floor(random() * SPAN_MS),
          'image/gif',
          `unpublished-${i}.gif`,
          2000,
          email(i % ADMINS),
          'animation',
        ),
        mongo,
      ),
    )
    if (orphans.length > 0) await files.insertMany(orphans)
    for (let user = 0; user < USERS; user++) await store.users.upsert(email(user), { user_name: userName(user) })
    return { fileRecords: fileRecords + orphans.length, stored: stored + orphans.length }
  } finally {
    await client.close()
    await store.close()
  }
}

interface WireRow {
  runs: number
  /** Per operation. */
  commands: number
  documents: number
  kbIn: number
  kbOut: number
  p50Ms: number
  total?: number
  note?: string
}

/** Runs `run` `runs` times and answers what one run moved on the wire, on average, and its median time. */
async function onWire(relay: CountingRelay, runs: number, run: (i: number) => Promise<unknown>): Promise<WireRow> {
  await relay.take()
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push((await timed(() => run(i)))[0])
  const { commands, documents, bytesIn, bytesOut } = await relay.take()
  return {
    runs,
    commands: commands / runs,
    documents: documents / runs,
    kbIn: bytesIn / 1024 / runs,
    kbOut: bytesOut / 1024 / runs,
    p50Ms: stats(times).p50,
  }
}

/** Issue 35's store-level rows on MongoDB: per operation, its first answer (uncached) and again. */
async function measureMongoRows(relay: CountingRelay, totalFiles: number, again: number) {
  const rows: Record<string, WireRow> = {}
  let store = await openStoreUnderBench('mongo', '')
  const firstAndAgain = async (label: string, run: () => Promise<{ total: number }>) => {
    let total: number | undefined
    const first = await onWire(relay, 1, async () => (total = (await run()).total))
    rows[`${label}: first`] = { ...first, total }
    rows[`${label}: again`] = await onWire(relay, again, run)
  }
  await firstAndAgain('list page', () => store.wumpuses.list({ limit: 24 }))
  const first = await store.wumpuses.list({ limit: 24 })
  rows['list page 2 (cursor)'] = await onWire(relay, again, () => store.wumpuses.list({ limit: 24, cursor: first.nextCursor }))
  await firstAndAgain(`tag filter (${TAGS[0]})`, () => store.wumpuses.list({ limit: 24, tag: TAGS[0] }))
  await firstAndAgain('popular, rare filter', () => store.wumpuses.list({ limit: 24, sort: 'popular', u_email: RARE_UPLOADER }))
  for (const [orderName, sort] of Object.entries(ROW_ORDERS)) {
    // Each order on a freshly opened store: both first answers are uncached.
    await store.close()
    store = await openStoreUnderBench('mongo', '')
    for (const [queryName, q] of Object.entries(ROW_QUERIES)) {
      await firstAndAgain(`search ${queryName} '${q}', ${orderName}`, () =>
        store.wumpuses.list({ limit: 24, q, ...(sort ? { sort } : {}) }),
      )
    }
  }
  const ids = first.items.map((record) => record._id)
  const pack = await store.packs.insert({ name: 'Bench pack', description: '', wumpusIds: ids, createdBy: email(0) })
  rows['pack write (24 members)'] = await onWire(relay, again, (i) =>
    store.packs.update(pack.id, { wumpusIds: i % 2 ? ids : [...ids].reverse() }),
  )
  rows['favourite toggle'] = await onWire(relay, again * 2, (i) =>
    i % 2 ? store.favourites.remove(email(1), ids[0]!) : store.favourites.add(email(1), ids[0]!, { max: 1000 }),
  )
  rows['tag counts'] = await onWire(relay, again, () => store.wumpuses.listTags())
  rows['emoji counts'] = await onWire(relay, again, () => store.wumpuses.listEmoji())
  rows['counts check (after start, hourly)'] = await onWire(relay, 1, () => store.wumpuses.correctCounts!())
  rows['orphan sweep'] = await mongoSweep(store, relay, totalFiles)
  await store.close()
  return rows
}

/** The real orphan sweep, followed for MONGO_SWEEP_PAGES pages: per page of 500 file records, and the whole sweep estimated. */
async function mongoSweep(store: Store, relay: CountingRelay, totalFiles: number): Promise<WireRow> {
  let pages = 0
  let listed = 0
  const files = Object.assign(Object.create(store.files) as Store['files'], {
    listSweepCandidates: async (options: Parameters<NonNullable<Store['files']['listSweepCandidates']>>[0]) => {
      if (pages === MONGO_SWEEP_PAGES) return { candidates: [] }
      pages++
      const page = await store.files.listSweepCandidates!(options)
      // Full pages only are followed (the stand-in holds more file records than they list).
      if (page.last) listed += options.limit
      return page
    },
  })
  const watched: Store = Object.assign(Object.create(store) as Store, { files })
  const row = await onWire(relay, 1, () => sweepOrphanFiles(watched, { batch: 500 }))
  const perPage = (value: number) => (value / Math.max(1, listed)) * 500
  const wholePages = totalFiles / 500
  return {
    runs: pages,
    commands: perPage(row.commands),
    documents: perPage(row.documents),
    kbIn: perPage(row.kbIn),
    kbOut: perPage(row.kbOut),
    p50Ms: row.p50Ms / Math.max(1, pages),
    note:
      `a page of 500 file records (${listed} followed); whole sweep of ${totalFiles} estimated at ` +
      `${Math.round(perPage(row.commands) * wholePages)} commands, ${((perPage(row.kbIn + row.kbOut) * wholePages) / 1024).toFixed(1)} MB`,
  }
}

async function runMongo(options: DataOptions) {
  const realUri = process.env.MONGODB_TEST_URI
  const mongo = await loadMongo()
  const wire = realUri ? undefined : await mongo.startMongoWireServer()
  const relay = await mongo.startCountingRelay(realUri ?? wire!.uri)
  mongoUnderBench = { uri: relay.uri, dbName: `wumpus_bench_store_${hex(seededRandom(Date.now() % 2 ** 31), 8)}` }
  const where = realUri ? `MongoDB at MONGODB_TEST_URI, database ${mongoUnderBench.dbName}` : 'the in-process wire stand-in'
  printLoadAtStart(os.loadavg())
  try {
    const [fillMs, { fileRecords, stored }] = await timed(() => fillMongo(options, realUri !== undefined, mongo))
    const storedFiles =
      stored === fileRecords ? '' : ` (${stored} stored: those of the newest ${STAND_IN_FILE_ANIMATIONS} animations and the unused ones)`
    console.log(
      `data: ${options.count} animations, ${fileRecords} file records${storedFiles}, ${USERS} users on ${where} (filled in ${(fillMs / 1000).toFixed(1)} s)`,
    )
    const rows = await measureMongoRows(relay, fileRecords, realUri ? 50 : 5)
    const width = Math.max(...Object.entries(rows).map(([label, row]) => label.length + (row.total === undefined ? 0 : 16)))
    console.log(`\nstore: mongo, on ${where}; per operation (averaged over its runs): commands, documents answered, KB each way`)
    if (!realUri)
      console.log("  times are the stand-in's (mingo scanning every document, no indexes, in this process), not MongoDB's speed")
    console.log(`  ${'operation'.padEnd(width)}  runs  commands  documents   KB in  KB out     ms p50`)
    for (const [label, row] of Object.entries(rows)) {
      const name = `${label}${row.total === undefined ? '' : ` (${row.total} matches)`}`
      const figures = [
        String(row.runs).padStart(4),
        row.commands.toFixed(1).padStart(8),
        row.documents.toFixed(1).padStart(9),
        row.kbIn.toFixed(1).padStart(6),
        row.kbOut.toFixed(1).padStart(6),
        ms(row.p50Ms).padStart(10),
      ]
      console.log(`  ${name.padEnd(width)}  ${figures.join('  ')}${row.note ? `  ${row.note}` : ''}`)
    }
    console.log(
      JSON.stringify({
        bench: 'store',
        store: realUri ? 'mongo' : 'mongo-stand-in',
        data: { ...options, fileRecords, storedFileRecords: stored },
        rows,
      }),
    )
  } finally {
    if (realUri) {
      const client = await mongo.MongoClient.connect(realUri)
      await client.db(mongoUnderBench.dbName).dropDatabase()
      await client.close()
    }
    await relay.close()
    await wire?.close()
  }
}

// ---- Command line ----

function flag(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? Number(args[at + 1]) : fallback
}

const argv = process.argv.slice(2)
// Without a command (npm run bench:store -- --count N), everything is an option.
const command = argv[0]?.startsWith('--') ? undefined : argv[0]
const args = command === undefined ? argv : argv.slice(1)
const mongoMode = process.env.BENCH_STORE === 'mongo'
const count = Number(process.env.BENCH_COUNT ?? (mongoMode && !process.env.MONGODB_TEST_URI ? STAND_IN_COUNT : 100_000))
const dataOptions = (): DataOptions => ({
  count: flag(args, 'count', count),
  updates: flag(args, 'updates', 0),
  orphans: flag(args, 'orphans', 20),
  blobs: flag(args, 'blobs', 24),
  seed: flag(args, 'seed', 2026),
})
const runOptions = () => {
  const at = args.indexOf('--kinds')
  const kinds = at >= 0 ? args[at + 1]!.split(',') : ['sqlite']
  const heap = flag(args, 'heap', 0)
  return [kinds, heap || undefined, flag(args, 'sweep-budget', 120) * 1000] as const
}

if (command === 'child') {
  const [phase, kind, dir, options, budget] = args as [string, string, string, string, string]
  const figures =
    phase === 'open' ? await measureOpen(kind, dir) : await measureAll(kind, dir, JSON.parse(options) as DataInfo, Number(budget))
  console.log(RESULT + JSON.stringify(figures))
} else if (command === 'generate') {
  const started = performance.now()
  await generate(path.resolve(args[0]!), dataOptions())
  console.log(`generated ${args[0]} in ${((performance.now() - started) / 1000).toFixed(1)} s`, await folderSizes(path.resolve(args[0]!)))
} else if (command === 'run') {
  await run(path.resolve(args[0]!), ...runOptions())
} else if (mongoMode) {
  await runMongo(dataOptions())
} else {
  const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'wumpus-bench-store-')), 'data')
  try {
    await generate(dir, dataOptions())
    await run(dir, ...runOptions())
  } finally {
    await rm(path.dirname(dir), { recursive: true, force: true })
  }
}

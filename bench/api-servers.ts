// Child process of bench/api.ts: the real app on a store holding BENCH_COUNT animations, and a bare Koa
// endpoint answering the plain list's first page from memory. Prints the URLs and the requests to make as
// one JSON line.
//  - Embedded store (default): SQLite, default 100,000 animations, written as an older data folder's file
//    and imported and opened as at a start.
//  - BENCH_STORE=mongo: the mongo adapter, over MONGODB_TEST_URI (a fresh database, dropped at the end) or
//    else over the in-process wire-protocol stand-in (backend/test/support/mongo-wire-server.ts; default
//    STAND_IN_COUNT animations, see bench/api.ts). BENCH_SEARCH_MAX_AGE_MS sets the adapter's search cache age
//    (0: no search cache). With the stand-in, GET /bench-commands answers the commands it ran since the last call.
import { randomBytes } from 'node:crypto'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Koa from 'koa'
import { MongoClient, type Document } from 'mongodb'
import type { Platform } from '../contract/stickers'
import { createApp } from '../backend/src/app'
import { createRouteDeps } from '../backend/src/composition'
import { loadConfig } from '../backend/src/config'
import { createLogger } from '../backend/src/logger'
import { newId } from '../backend/src/store/ids'
import { openMongoStore, type MongoStore } from '../backend/src/store/mongo/open-mongo-store'
import type { Store, WumpusRecord } from '../backend/src/store/port'
import { openSqliteStore } from '../backend/src/store/sqlite/open-sqlite-store'
import { startMongoWireServer, type MongoWireServer } from '../backend/test/support/mongo-wire-server'
import { galleryItem, searchQueries, seededRandom, TAGS } from './support/gallery-data'

/**
 * The stand-in scans every document for every query (mingo, no indexes): a search costs it about 0.1 s at
 * 5,000 animations, and the whole benchmark about five minutes.
 */
const STAND_IN_COUNT = 5000
const MONGO = process.env.BENCH_STORE === 'mongo'
const REAL_MONGO_URI = MONGO ? process.env.MONGODB_TEST_URI : undefined
const COUNT = Number(process.env.BENCH_COUNT ?? (MONGO && !REAL_MONGO_URI ? STAND_IN_COUNT : 100_000))
const SEARCH_MAX_AGE_MS = process.env.BENCH_SEARCH_MAX_AGE_MS === undefined ? undefined : Number(process.env.BENCH_SEARCH_MAX_AGE_MS)

const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-bench-'))
// The search limit (120 a minute per address) would answer most of the search cases' requests with 429.
const config = loadConfig({ DATA_DIR: dataDir, STATIC_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_FACTOR: '10000' })
const random = seededRandom(2026)

/**
 * What the stand-in ran for the app's requests (answered or given up by the client): commands by name, the
 * documents it answered to finds and aggregations (and their getMores), and the scans for search candidates (a find on the
 * words' filter without an order) with their documents.
 */
const emptyTally = () => ({ requests: 0, byName: {} as Record<string, number>, findDocs: 0, scans: 0, scanDocs: 0 })
let tally = emptyTally()
const scanCursors = new Set<string>()
const count = (command: Document, reply: Document) => {
  const name = Object.keys(command)[0]!
  tally.byName[name] = (tally.byName[name] ?? 0) + 1
  const cursor = reply.cursor as { firstBatch?: Document[]; nextBatch?: Document[]; id?: unknown } | undefined
  if (name !== 'find' && name !== 'getMore' && name !== 'aggregate') return
  // A search's $facet answers one document holding its page.
  const docs = (cursor?.firstBatch ?? cursor?.nextBatch ?? []).reduce(
    (sum, doc) => sum + (Array.isArray(doc.page) ? doc.page.length : 1),
    0,
  )
  tally.findDocs += docs
  const filter = command.filter as Document | undefined
  if (name === 'find' && command.find === 'wumpuses' && filter?.searchPrefixes && !command.sort) {
    tally.scans++
    tally.scanDocs += docs
    if (String(cursor?.id) !== '0') scanCursors.add(String(cursor?.id))
  } else if (name === 'getMore' && scanCursors.has(String(command.getMore))) {
    tally.scanDocs += docs
    if (String(cursor?.id) === '0') scanCursors.delete(String(command.getMore))
  }
}
let wire: MongoWireServer | undefined
const dbName = `wumpus_bench_${randomBytes(4).toString('hex')}`
const openStore = async (): Promise<Store> => {
  // Its import report would go to stdout, where bench/api.ts reads this process's one line.
  if (!MONGO) return openSqliteStore({ dataDir, onImport: () => undefined })
  wire ??= REAL_MONGO_URI ? undefined : await startMongoWireServer({ onCommand: count })
  return openMongoStore({ uri: REAL_MONGO_URI ?? wire!.uri, dbName, searchMaxAgeMs: SEARCH_MAX_AGE_MS })
}

// The records first, each naming files of its own that the benchmark never reads (a file belongs to one
// animation only); once the store is open, the newest (the one the download case fetches) gets stored files.
const unreadRef = (i: number, slot: number, filename: string) => ({ id: (i * 3 + slot).toString(16).padStart(24, '0'), filename })
const filesOf = (i: number) => ({ gif: unreadRef(i, 0, 'a.gif'), apng: unreadRef(i, 1, 'a.png'), lottie: unreadRef(i, 2, 'a.json') })
const start = Date.UTC(2025, 0, 1)
/**
 * Made exports, as the derived-media service stores them: two records in three have a Discord file, one
 * in three a Slack file too (the fits filter's facets); none has Telegram.
 */
const derivedOf = (i: number, lottieId: string): Pick<WumpusRecord, 'derived'> => {
  if (i % 3 === 0) return {}
  const file = (slot: number) => ({
    id: (COUNT * 3 + i * 2 + slot).toString(16).padStart(24, '0'),
    filename: 'a.png',
    contentType: 'image/apng',
    bytes: 1000,
    width: 320,
    height: 320,
    frames: 30,
    durationMs: 1000,
  })
  const slack = i % 3 === 1 ? [{ platform: 'slack' as Platform, file: file(1), notes: [] }] : []
  const exports = [{ platform: 'discord' as Platform, file: file(0), notes: [] }, ...slack]
  return { derived: { source: lottieId, version: 1, madeAt: new Date(start), exports } }
}
const recordOf = (i: number): WumpusRecord => {
  const time = start + i * 1000
  const files = filesOf(i)
  const maker = { u_email: `maker${i % 50}@example.com`, u_name: `Maker ${i % 50}` }
  return {
    _id: newId(time),
    ...galleryItem(random, i),
    files,
    ...maker,
    ...derivedOf(i, files.lottie.id),
    createdAt: new Date(time),
    updatedAt: new Date(time),
  }
}

if (MONGO) {
  // Stored as the adapter stores its own writes, 1,000 at a time; then opened again as at a start.
  const seeding = (await openStore()) as MongoStore
  let batch: WumpusRecord[] = []
  for (let i = 0; i < COUNT; i++) {
    batch.push(recordOf(i))
    if (batch.length === 1000 || i === COUNT - 1) {
      await seeding.wumpuses.restore(batch)
      batch = []
    }
  }
  await seeding.close()
} else {
  // The data file of the store before SQLite (nedb's line format, dates as {"$$date": ms}), imported at open.
  const out = createWriteStream(path.join(dataDir, 'wumpuses.db'))
  for (let i = 0; i < COUNT; i++) {
    const line = JSON.stringify(recordOf(i), function (this: Record<string, unknown>, key, value: unknown) {
      const raw = this[key]
      return raw instanceof Date ? { $$date: raw.getTime() } : value
    })
    if (!out.write(`${line}\n`)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}
const started = performance.now()
const store = await openStore()
const openMs = performance.now() - started
const newest = (await store.wumpuses.list({ limit: 1 })).items[0]!
const ref = async (filename: string) => ({
  id: (await store.files.put({ bytes: new TextEncoder().encode('x'.repeat(20_000)), contentType: 'image/gif', filename })).id,
  filename,
})
const newestFiles = { gif: await ref('a.gif'), apng: await ref('a.png'), lottie: await ref('a.json') }
await store.wumpuses.update(newest._id, { files: newestFiles })
// Its exports were made from the Lottie it had: they stay its own.
if (newest.derived) await store.wumpuses.setDerived(newest._id, newestFiles.lottie.id, { ...newest.derived, source: newestFiles.lottie.id })

const listen = (app: Koa) =>
  new Promise<string>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
  })

const logger = createLogger('silent')
// The real app, timed on the server: from a request's arrival to its last byte handed to the socket.
// GET /bench-times answers the times since the last call (and forgets them).
let times: number[] = []
const deps = createRouteDeps({ config, store, logger })
const { downloads } = deps
const handle = createApp(deps).callback()
// Both answer once no request is in flight, so that what a run left queued (the server can be seconds
// behind the client) counts neither before nor after it.
let inFlight = 0
const drained = async () => {
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5))
}
const timed = createServer(async (req, res) => {
  if (req.url === '/bench-times') {
    await drained()
    res.end(JSON.stringify(times))
    times = []
    return
  }
  if (req.url === '/bench-commands') {
    await drained()
    res.end(JSON.stringify(wire ? tally : null))
    tally = emptyTally()
    return
  }
  const started = performance.now()
  inFlight++
  tally.requests++
  res.once('close', () => inFlight--)
  res.once('finish', () => times.push(performance.now() - started))
  void handle(req, res)
})
const realUrl = await new Promise<string>((resolve) =>
  timed.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(timed.address() as AddressInfo).port}`)),
)
const firstPage = await (await fetch(`${realUrl}/api/wumpuses`)).json()
const bare = new Koa()
bare.use((ctx) => {
  ctx.body = firstPage
})
const bareUrl = await listen(bare)

// Search: many different queries, so most miss the server's page cache (500 pages).
const searchPaths = searchQueries(random, 3000).map((q) => `/api/wumpuses?q=${encodeURIComponent(q)}`)
// Tag filter: every tag, newest and most downloaded first, its first five pages (following the Link header).
const tagPaths: string[] = []
for (const tag of TAGS) {
  for (const sort of ['new', 'popular']) {
    let next: string | undefined = `/api/wumpuses?tag=${tag}&sort=${sort}`
    for (let page = 0; page < 5 && next; page++) {
      tagPaths.push(next)
      const res: Response = await fetch(realUrl + next)
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    }
  }
}
// Fits filter: each platform (Telegram fits none), newest and most downloaded first, its first five pages;
// and with a tag (two filters: one pass over the smaller), first pages.
const fitsPaths: string[] = []
for (const fits of ['discord', 'slack', 'telegram']) {
  for (const sort of ['new', 'popular']) {
    let next: string | undefined = `/api/wumpuses?fits=${fits}&sort=${sort}`
    for (let page = 0; page < 5 && next; page++) {
      fitsPaths.push(next)
      const res: Response = await fetch(realUrl + next)
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    }
  }
}
const fitsTagPaths = TAGS.map((tag) => `/api/wumpuses?tag=${tag}&fits=slack`)
// Search pages: the first 20 different queries (the common words come first), best match and newest
// first, their first five pages: what a store's kept matches serve (next pages, other orders).
const searchPagePaths: string[] = []
for (const q of [...new Set(searchQueries(seededRandom(7), 200))].slice(0, 20)) {
  for (const sort of ['', '&sort=new']) {
    let next: string | undefined = `/api/wumpuses?q=${encodeURIComponent(q)}${sort}`
    for (let page = 0; page < 5 && next; page++) {
      searchPagePaths.push(next)
      const res: Response = await fetch(realUrl + next)
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    }
  }
}
const filePath = `/api/files/${newestFiles.gif.id}/a.gif`

process.on('SIGTERM', async () => {
  await downloads.close()
  if (REAL_MONGO_URI) {
    const client = await MongoClient.connect(REAL_MONGO_URI)
    await client.db(dbName).dropDatabase()
    await client.close()
  }
  await store.close()
  await wire?.close()
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
})
console.log(
  JSON.stringify({
    ...{ realUrl, bareUrl: `${bareUrl}/`, items: firstPage.length, count: COUNT, openMs },
    ...{ storeKind: MONGO ? (REAL_MONGO_URI ? 'mongo' : 'mongo-stand-in') : 'sqlite', searchMaxAgeMs: SEARCH_MAX_AGE_MS },
    ...{ searchPaths, searchPagePaths, tagPaths, fitsPaths, fitsTagPaths, filePath },
  }),
)

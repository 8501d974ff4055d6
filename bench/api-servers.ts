// Child process of bench/api.ts: the real app on an embedded store holding BENCH_COUNT animations
// (default 100,000, written as the store's data file and opened as at a start), and a bare Koa endpoint
// answering the plain list's first page from memory. Prints the URLs and the requests to make as one
// JSON line.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Koa from 'koa'
import { createApp } from '../backend/src/app'
import { loadConfig } from '../backend/src/config'
import { createLogger } from '../backend/src/logger'
import { DownloadCounter } from '../backend/src/services/download-counts'
import { newId } from '../backend/src/store/ids'
import { openEmbeddedStore } from '../backend/src/store/embedded'
import { galleryItem, searchQueries, seededRandom, TAGS } from './support/gallery-data'

const COUNT = Number(process.env.BENCH_COUNT ?? 100_000)

const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-bench-'))
const config = loadConfig({ DATA_DIR: dataDir, STATIC_DIR: dataDir, LOG_LEVEL: 'silent' })
const random = seededRandom(2026)

// The files of the newest record (the one the download case fetches), then the records as the data file
// holds them. A file belongs to one animation only, so the others name files of their own that the
// benchmark never reads.
let store = await openEmbeddedStore({ dataDir })
const ref = async (filename: string) => ({
  id: (await store.putFile({ bytes: new TextEncoder().encode('x'.repeat(20_000)), contentType: 'image/gif', filename })).id,
  filename,
})
const newestFiles = { gif: await ref('a.gif'), apng: await ref('a.png'), lottie: await ref('a.json') }
const unreadRef = (i: number, slot: number, filename: string) => ({ id: (i * 3 + slot).toString(16).padStart(24, '0'), filename })
const filesOf = (i: number) =>
  i === COUNT - 1 ? newestFiles : { gif: unreadRef(i, 0, 'a.gif'), apng: unreadRef(i, 1, 'a.png'), lottie: unreadRef(i, 2, 'a.json') }
await store.close()
/**
 * Made exports, as the derived-media service stores them: two records in three have a Discord file, one
 * in three a Slack file too (the fits filter's facets); none has Telegram.
 */
const derivedOf = (i: number, lottieId: string) => {
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
  const slack = i % 3 === 1 ? [{ platform: 'slack', file: file(1), notes: [] }] : []
  const exports = [{ platform: 'discord', file: file(0), notes: [] }, ...slack]
  return { derived: { source: lottieId, version: 1, madeAt: { $$date: start }, exports } }
}
const out = createWriteStream(path.join(dataDir, 'wumpuses.db'))
const start = Date.UTC(2025, 0, 1)
for (let i = 0; i < COUNT; i++) {
  const time = start + i * 1000
  const date = { $$date: time }
  const files = filesOf(i)
  const maker = { u_email: `maker${i % 50}@example.com`, u_name: `Maker ${i % 50}` }
  const fields = { ...galleryItem(random, i), files, ...maker, ...derivedOf(i, files.lottie.id) }
  const line = JSON.stringify({ _id: newId(time), ...fields, createdAt: date, updatedAt: date })
  if (!out.write(`${line}\n`)) await once(out, 'drain')
}
out.end()
await once(out, 'finish')
const started = performance.now()
store = await openEmbeddedStore({ dataDir })
const openMs = performance.now() - started

const listen = (app: Koa) =>
  new Promise<string>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
  })

const logger = createLogger('silent')
const downloads = new DownloadCounter(store, { logger })
// The real app, timed on the server: from a request's arrival to its last byte handed to the socket.
// GET /bench-times answers the times since the last call (and forgets them).
let times: number[] = []
const handle = createApp({ config, store, logger, downloads }).callback()
const timed = createServer((req, res) => {
  if (req.url === '/bench-times') {
    res.end(JSON.stringify(times))
    times = []
    return
  }
  const started = performance.now()
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
const filePath = `/api/files/${newestFiles.gif.id}/a.gif`

process.on('SIGTERM', async () => {
  await downloads.close()
  await store.close()
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
})
console.log(
  JSON.stringify({
    ...{ realUrl, bareUrl: `${bareUrl}/`, items: firstPage.length, count: COUNT, openMs },
    ...{ searchPaths, tagPaths, fitsPaths, fitsTagPaths, filePath },
  }),
)

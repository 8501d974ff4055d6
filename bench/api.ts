// npm run bench:api — the gallery API on the embedded (SQLite) store holding 100,000 animations
// (BENCH_COUNT), measured with autocannon:
//  - the plain list's first page against a bare Koa endpoint answering the same JSON from memory;
//  - word searches (3,000 different queries as people type them) and tag filters (every tag, newest and
//    most downloaded first, first five pages), at 50 connections: aim p99 under 25 ms;
//  - search pages: 20 common queries, best match and newest first, first five pages each (50 connections);
//  - the fits filter (each platform, both orders, five pages) and fits with a tag, at 50 connections;
//  - a file served as a view and as a counted download (?download=1).
//
// BENCH_STORE=mongo npm run bench:api — the same on the mongo adapter: over MONGODB_TEST_URI when set (a
// fresh database, dropped at the end), else over the in-process wire-protocol stand-in
// (backend/test/support/mongo-wire-server.ts) with 5,000 animations by default. The stand-in has no
// indexes: it evaluates every query with mingo over every document, on the same thread as the app, so its
// times say nothing of MongoDB's speed (every find costs a scan there, a page from an index costs little on
// a server). What its figures do show is the adapter's behaviour: the commands and documents each request
// costs (printed per case: finds, documents returned, and the scans for search candidates), and the effect
// of the adapter's search cache (compare BENCH_SEARCH_MAX_AGE_MS=0, which keeps no searches).
import { spawn } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'

const DURATION = Number(process.env.BENCH_SECONDS ?? 10)

const servers = spawn(process.execPath, ['--import', 'tsx', new URL('./api-servers.ts', import.meta.url).pathname], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
// Also when a case fails: the servers' process would outlive this one.
process.once('exit', () => servers.kill('SIGTERM'))
const line = await new Promise<string>((resolve) => createInterface({ input: servers.stdout }).once('line', resolve))
const {
  realUrl,
  bareUrl,
  items,
  count,
  openMs,
  storeKind,
  searchMaxAgeMs,
  searchPaths,
  searchPagePaths,
  tagPaths,
  fitsPaths,
  fitsTagPaths,
  filePath,
} = JSON.parse(line) as {
  realUrl: string
  storeKind: 'sqlite' | 'mongo' | 'mongo-stand-in'
  searchMaxAgeMs?: number
  bareUrl: string
  items: number
  count: number
  openMs: number
  searchPaths: string[]
  searchPagePaths: string[]
  tagPaths: string[]
  fitsPaths: string[]
  fitsTagPaths: string[]
  filePath: string
}

interface Figures {
  rps: number
  p50: number
  p99: number
  /** On the server, without the wait in the client's queue: p50 and p99 in ms. */
  server?: { p50: number; p99: number }
  /** With the stand-in: what each request cost it on average. */
  commands?: string
}

interface Tally {
  requests: number
  byName: Record<string, number>
  findDocs: number
  scans: number
  scanDocs: number
}

/** The stand-in's commands since the last call, per request (undefined on other stores). */
const commandsPer = async (): Promise<string | undefined> => {
  const tally = (await (await fetch(new URL('/bench-commands', realUrl))).json()) as Tally | null
  const requests = tally?.requests ?? 0
  if (!tally || requests === 0) return undefined
  const per = (n: number) => (n / requests).toFixed(n / requests < 10 ? 2 : 0)
  const finds = (tally.byName.find ?? 0) + (tally.byName.getMore ?? 0)
  const scans = tally.scans > 0 ? `, ${per(tally.scans)} scans (${Math.round(tally.scanDocs / tally.scans)} documents each)` : ''
  return `stand-in per request: ${per(finds)} finds+getMores, ${per(tally.findDocs)} documents${scans}`
}

/** Runs autocannon on one URL, or on paths picked at random for every request. */
const measure = async (url: string, connections: number, paths?: string[]): Promise<Figures> => {
  const requests: autocannon.Request[] | undefined = paths && [
    { setupRequest: (request) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)]! }) },
  ]
  // The stand-in answers a search in about 0.1 s (a scan of every document), so 50 connections wait seconds in its queue.
  const timeout = storeKind === 'mongo-stand-in' ? 60 : undefined
  await autocannon({ url, connections, duration: 2, requests, timeout }) // warm-up
  const timesUrl = new URL('/bench-times', url).href
  if (url.startsWith(realUrl)) await Promise.all([fetch(timesUrl), commandsPer()])
  const result = await autocannon({ url, connections, duration: DURATION, requests, timeout })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  const figures: Figures = { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
  if (url.startsWith(realUrl)) {
    const times = ((await (await fetch(timesUrl)).json()) as number[]).sort((a, b) => a - b)
    figures.server = { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! }
    figures.commands = await commandsPer()
  }
  return figures
}

const show = (label: string, figures: Figures) =>
  console.log(
    `${label.padEnd(52)} ${figures.rps.toFixed(0).padStart(6)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms` +
      (figures.server ? ` (on the server: p50 ${figures.server.p50.toFixed(2)} ms, p99 ${figures.server.p99.toFixed(2)} ms)` : '') +
      (figures.commands ? `\n${''.padEnd(53)}${figures.commands}` : ''),
  )

/** Each different search once, one at a time, before anything is cached: what a first search costs. */
const cold = async (paths: string[]) => {
  await commandsPer()
  const times: number[] = []
  for (const path of new Set(paths)) {
    const started = performance.now()
    const res = await fetch(realUrl + path)
    await res.arrayBuffer()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!.toFixed(1)
  const commands = await commandsPer()
  return `${times.length} searches, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms${commands ? `\n${''.padEnd(53)}${commands}` : ''}`
}

const firstSearches = await cold(searchPaths)
const bare = await measure(bareUrl, 10)
const plain = await measure(`${realUrl}/api/wumpuses`, 10)
const search = await measure(realUrl, 50, searchPaths)
const searchPages = await measure(realUrl, 50, searchPagePaths)
const tags = await measure(realUrl, 50, tagPaths)
const fits = await measure(realUrl, 50, fitsPaths)
const fitsTag = await measure(realUrl, 50, fitsTagPaths)
const plain50 = await measure(`${realUrl}/api/wumpuses`, 50)
// Twice each, alternating, keeping the better run: the two differ by little, and the machine's load by more.
const better = (a: Figures, b: Figures) => (a.rps >= b.rps ? a : b)
const viewFirst = await measure(realUrl + filePath, 10)
const downloadFirst = await measure(`${realUrl}${filePath}?download=1`, 10)
const view = better(viewFirst, await measure(realUrl + filePath, 10))
const download = better(downloadFirst, await measure(`${realUrl}${filePath}?download=1`, 10))
servers.kill('SIGTERM')

const storeName = {
  sqlite: 'Embedded store (SQLite)',
  mongo: 'MongoDB (MONGODB_TEST_URI)',
  'mongo-stand-in': 'mongo adapter over the in-process stand-in (behaviour, not MongoDB speed)',
}[storeKind]
const searchCache = storeKind === 'sqlite' ? '' : `, search cache ${searchMaxAgeMs ?? 'default'} ms`
console.log(`${storeName} with ${count} animations (opened in ${(openMs / 1000).toFixed(1)} s${searchCache}), ${DURATION} s per case`)
show('bare Koa, same JSON from memory (10 connections)', bare)
show(`GET /api/wumpuses first page, ${items} items (10 conn.)`, plain)
console.log(`ratio plain list / bare: ${(plain.rps / bare.rps).toFixed(2)} (aim: at least 0.70)`)
console.log(`first time, one by one: ${firstSearches}`)
show(`search, ${new Set(searchPaths).size} different queries (50 conn.)`, search)
show(`search pages, ${searchPagePaths.length} (20 queries, 2 orders, 5 pages; 50 conn.)`, searchPages)
show(`tag filter, ${tagPaths.length} different pages (50 conn.)`, tags)
show(`fits filter, ${fitsPaths.length} different pages (50 conn.)`, fits)
show(`fits and tag, ${fitsTagPaths.length} different pages (50 conn.)`, fitsTag)
show('GET /api/wumpuses first page (50 conn.)', plain50)
console.log(
  `p99 aim under 25 ms: search ${search.p99 < 25 ? 'yes' : 'NO'}, tag filter ${tags.p99 < 25 ? 'yes' : 'NO'} (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: other processes share them)`,
)
show('a 20 KB file as a view (10 conn., better of 2)', view)
show('the same file as a counted download (better of 2)', download)
console.log(`download / view rate: ${(download.rps / view.rps).toFixed(2)}`)

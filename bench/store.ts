/**
 * Times listWumpuses on the embedded store with 10,000 records.
 * Run: npm run bench:store
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Datastore from '@seald-io/nedb'
import { openEmbeddedStore } from '../backend/src/store/embedded'
import type { Store } from '../backend/src/store/port'

const COUNT = 10_000
const RUNS = 2_000

function fileRef(i: number, ext: string) {
  return { id: i.toString(16).padStart(24, '0'), filename: `wumpus-${i}.${ext}` }
}

async function p50(run: () => Promise<unknown>, runs = RUNS): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(200, runs); i++) await run() // warm up
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    await run()
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return { p50: times[Math.floor(runs / 2)]!, p99: times[Math.floor(runs * 0.99)]! }
}

async function deepCursor(store: Store, pages: number): Promise<string> {
  let cursor: string | undefined
  for (let i = 0; i < pages; i++) cursor = (await store.listWumpuses({ limit: 24, cursor })).nextCursor
  return cursor!
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'wumpus-bench-'))
try {
  let store = await openEmbeddedStore({ dataDir })
  const base = Date.UTC(2025, 0, 1)
  let start = Date.now()
  for (let i = 0; i < COUNT; i++) {
    await store.insertWumpus({
      name: `Wumpus ${i}`,
      description: 'A bouncing wumpus with a long enough description to look like real data.',
      files: { gif: fileRef(i, 'gif'), apng: fileRef(i, 'png'), lottie: fileRef(i, 'json') },
      u_email: `user${i % 50}@example.com`,
      u_name: `User ${i % 50}`,
      createdAt: new Date(base + Math.floor(i / 3) * 1000), // ties on purpose
    })
  }
  console.log(`insert ${COUNT}: ${Date.now() - start} ms`)
  await store.close()
  start = Date.now()
  store = await openEmbeddedStore({ dataDir })
  console.log(`reopen with ${COUNT}: ${Date.now() - start} ms`)

  const deep = await deepCursor(store, 300)
  const results: Record<string, { p50: number; p99: number }> = {
    'first page (24 of 10k)': await p50(() => store.listWumpuses({ limit: 24 })),
    'deep page (after 300 pages)': await p50(() => store.listWumpuses({ limit: 24, cursor: deep })),
    'first page by uploader (24 of 200)': await p50(() => store.listWumpuses({ limit: 24, u_email: 'user7@example.com' })),
    'page of 100': await p50(() => store.listWumpuses({ limit: 100 })),
    countWumpuses: await p50(() => store.countWumpuses()),
  }
  const someId = (await store.listWumpuses({ limit: 1, cursor: deep })).items[0]!._id
  results.getWumpus = await p50(() => store.getWumpus(someId))
  for (const [name, { p50: median, p99 }] of Object.entries(results)) {
    console.log(`${name}: p50 ${median.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms`)
  }
  await store.close()

  // For comparison: what a plain nedb sorted query costs (it sorts every document each time).
  const raw = new Datastore({ filename: path.join(dataDir, 'wumpuses.db') })
  await raw.loadDatabaseAsync()
  const naive = await p50(() => raw.findAsync({}).sort({ createdAt: -1, _id: -1 }).limit(24), 50)
  console.log(`plain nedb sort + limit 24 (not used): p50 ${naive.p50.toFixed(3)} ms`)
} finally {
  await rm(dataDir, { recursive: true, force: true })
}

// The review queue's cost (issue 37): the first page (24, oldest first) of GET /api/submissions?state=waiting
// and a page deep in by cursor, with BENCH_COUNT waiting submissions (default 10,000) and as many decided
// ones beside them, on the embedded store (SQLite, with its query plan) and on MongoDB through the in-process
// wire stand-in (its time is the stand-in's, not a real server's: what matters there is the index the query
// sorts by, STATE_OLDEST_FIRST in store/mongo/submissions.ts; seeding 20,000 through the stand-in takes about
// 7 minutes here, so it runs only with BENCH_MONGO=1). Median of 50 reads each.
// Run: npm run bench:submissions
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openMongoStore } from '../backend/src/store/mongo/open-mongo-store'
import type { NewSubmission, Store } from '../backend/src/store/port'
import { Database, DATABASE_FILE } from '../backend/src/store/sqlite/database'
import { openSqliteStore } from '../backend/src/store/sqlite/open-sqlite-store'
import { startMongoWireServer } from '../backend/test/support/mongo-wire-server'

const COUNT = Number(process.env.BENCH_COUNT ?? 10_000)
const LIMIT = 24
const RUNS = 50

const submission = (i: number, start: number): NewSubmission => ({
  u_email: `maker${i % 500}@example.com`,
  u_name: `Maker ${i % 500}`,
  name: `Waving Friend ${i}`,
  description: 'A friendly wave for every chat, submitted for review',
  tags: ['wave', 'happy'],
  emoji: [{ char: '👋', name: 'waving hand', shortcode: 'wave' }],
  keywords: ['hello'],
  licence: 'CC-BY-4.0',
  credit: `Maker ${i % 500}`,
  source: '',
  original: true,
  sensitive: false,
  file: { id: (i + 1).toString(16).padStart(24, '0'), filename: 'wave.json' },
  createdAt: new Date(start + i * 1000),
})

async function seed(store: Store): Promise<void> {
  const start = Date.UTC(2026, 0, 1)
  for (let from = 0; from < COUNT * 2; from += 200) {
    const made = await Promise.all(Array.from({ length: 200 }, (_, k) => store.submissions.insert(submission(from + k, start))))
    // Every other one decided: the queue's state filter has to skip them.
    await Promise.all(
      made
        .filter((_, k) => k % 2 === 1)
        .map((s) => store.submissions.update(s.id, { state: 'refused', note: 'No' }, { whileStates: ['waiting'] })),
    )
  }
}

async function median(read: () => Promise<unknown>): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    await read()
    times.push(performance.now() - t0)
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!
}

async function measure(kind: string, store: Store): Promise<void> {
  const t0 = performance.now()
  await seed(store)
  const seeded = performance.now() - t0
  const first = await store.submissions.listByState('waiting', { limit: LIMIT })
  let cursor = first.nextCursor
  for (let i = 0; i < 100 && cursor; i++) cursor = (await store.submissions.listByState('waiting', { limit: LIMIT, cursor })).nextCursor
  const firstMs = await median(() => store.submissions.listByState('waiting', { limit: LIMIT }))
  const deepMs = await median(() => store.submissions.listByState('waiting', { limit: LIMIT, cursor }))
  const mineMs = await median(() => store.submissions.listBySubmitter('maker7@example.com', { limit: LIMIT }))
  console.log(
    `${kind}: ${COUNT} waiting + ${COUNT} refused (seeded in ${(seeded / 1000).toFixed(1)} s); queue first page ${firstMs.toFixed(2)} ms, ` +
      `page 101 by cursor ${deepMs.toFixed(2)} ms; one submitter's first page ${mineMs.toFixed(2)} ms (median of ${RUNS})`,
  )
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-submissions-'))
try {
  const sqlite = await openSqliteStore({ dataDir })
  await measure('sqlite', sqlite)
  await sqlite.close()
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true })
  const plan = db
    .prepare("EXPLAIN QUERY PLAN SELECT * FROM submissions WHERE state = 'waiting' ORDER BY created_at, id LIMIT 25")
    .all()
    .map((row) => (row as { detail: string }).detail)
  console.log(`sqlite queue plan: ${plan.join('; ')}`)
  db.close()
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}

if (process.env.BENCH_MONGO === '1') {
  const wire = await startMongoWireServer()
  const mongo = await openMongoStore({ uri: wire.uri, dbName: 'bench_submissions' })
  await measure('mongo (wire stand-in)', mongo)
  await mongo.close()
  await wire.close()
}

// Child process of bench/api.ts: the real app on an embedded store holding 10,000 animations, and a
// bare Koa endpoint answering the same first page from memory. Prints both URLs as one JSON line.
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Koa from 'koa'
import { createApp } from '../backend/src/app'
import { loadConfig } from '../backend/src/config'
import { createLogger } from '../backend/src/logger'
import { openEmbeddedStore } from '../backend/src/store/embedded'

const COUNT = Number(process.env.BENCH_COUNT ?? 10_000)

const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-bench-'))
const config = loadConfig({ DATA_DIR: dataDir, STATIC_DIR: dataDir, LOG_LEVEL: 'silent' })
const store = await openEmbeddedStore({ dataDir })
// A file belongs to one animation only; the list never reads the files, so each record names its own ids.
const ref = (i: number, slot: number, filename: string) => ({ id: (i * 3 + slot).toString(16).padStart(24, '0'), filename })
const start = Date.UTC(2025, 0, 1)
for (let i = 0; i < COUNT; i++) {
  await store.insertWumpus({
    name: `Benchmark Wumpus ${i}`,
    description: 'A wumpus stored to measure the gallery list under load.',
    files: { gif: ref(i, 0, 'a.gif'), apng: ref(i, 1, 'a.png'), lottie: ref(i, 2, 'a.json') },
    u_email: `maker${i % 50}@example.com`,
    u_name: `Maker ${i % 50}`,
    createdAt: new Date(start + i * 1000),
  })
}

const listen = (app: Koa) =>
  new Promise<string>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
  })

const realUrl = await listen(createApp({ config, store, logger: createLogger('silent') }))
const firstPage = await (await fetch(`${realUrl}/api/wumpuses`)).json()
const bare = new Koa()
bare.use((ctx) => {
  ctx.body = firstPage
})
const bareUrl = await listen(bare)

process.on('SIGTERM', async () => {
  await store.close()
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
})
console.log(JSON.stringify({ realUrl: `${realUrl}/api/wumpuses`, bareUrl: `${bareUrl}/`, items: firstPage.length, count: COUNT }))

// npm run bench:colour-slots — the main thread while GET /api/wumpus/{id}/colours answers for animations
// whose colour slots are not stored yet (as after an upgrade): a 2 MB Lottie of 19,000 colours, within every
// upload cap. Prints each answer's time and the event loop's longest delay (perf_hooks monitorEventLoopDelay)
// during it: the first GET after the start, the same again, then another animation; and the delay of 2 s of
// nothing, for the machine's own noise. It runs unchanged on an older checkout, for a before and after.
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createApp } from '../backend/src/app'
import { createRouteDeps } from '../backend/src/composition'
import { loadConfig } from '../backend/src/config'
import { createLogger } from '../backend/src/logger'
import { inspectMedia } from '../backend/src/media/inspect/inspect'
import { closeRenderPool } from '../backend/src/media/render/render-pool'
import { openSqliteStore } from '../backend/src/store/sqlite/open-sqlite-store'

const LAYERS = 500
const KEYFRAMES = 38

/** LAYERS rectangles, each filled with a colour animated through KEYFRAMES colours of its own. */
function manyColoursLottie(): Uint8Array {
  let state = 7
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648).toFixed(6)
  const fill = () => ({
    ty: 'fl',
    o: { a: 0, k: 100 },
    c: {
      a: 1,
      k: Array.from({ length: KEYFRAMES }, (_, t) => ({
        t,
        s: [Number(random()), Number(random()), Number(random()), 1],
        i: { x: [0.5], y: [1] },
        o: { x: [0.5], y: [0] },
      })),
    },
  })
  const layers = Array.from({ length: LAYERS }, (_, i) => ({
    ty: 4,
    ind: i + 1,
    ip: 0,
    op: KEYFRAMES,
    st: 0,
    ks: { o: { a: 0, k: 100 }, r: { a: 0, k: 0 }, p: { a: 0, k: [160, 160] }, a: { a: 0, k: [0, 0] }, s: { a: 0, k: [100, 100] } },
    shapes: [{ ty: 'rc', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [20 + (i % 200), 20 + (i % 100)] }, r: { a: 0, k: 0 } }, fill()],
  }))
  return new TextEncoder().encode(JSON.stringify({ v: '5.7.4', fr: 30, ip: 0, op: KEYFRAMES, w: 320, h: 320, layers }))
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-colours-'))
const store = await openSqliteStore({ dataDir })
const deps = createRouteDeps({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), store, logger: createLogger('silent') })
const server = createApp(deps).listen(0, '127.0.0.1')
await new Promise((resolve) => server.once('listening', resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

try {
  const bytes = manyColoursLottie()
  inspectMedia(bytes, 'lottie') // within every upload cap, or this throws
  const put = (filename: string, contentType: string, content: Uint8Array) =>
    store.files.put({ bytes: content, contentType, filename, purpose: 'animation' })
  const ref = (file: { id: string; filename: string }) => ({ id: file.id, filename: file.filename })
  /** An animation of that Lottie, as stored before colour slots were kept. */
  const animation = async () => {
    const [gif, apng, lottie] = await Promise.all([
      put('a.gif', 'image/gif', new TextEncoder().encode('GIF89a')),
      put('a.png', 'image/apng', new TextEncoder().encode('PNG')),
      put('a.json', 'application/json', bytes),
    ])
    const files = { gif: ref(gif), apng: ref(apng), lottie: ref(lottie) }
    return store.wumpuses.insert({ name: 'Many Colours', description: 'Colours', u_email: 'maker@example.com', u_name: 'Maker', files })
  }
  const [first, second] = [await animation(), await animation()]
  // The first request of a process loads and compiles what it needs (fetch, the router): not measured.
  await (await fetch(`${url}/api/wumpus/${first._id}`)).arrayBuffer()
  console.log(`A Lottie of ${(bytes.length / 1e6).toFixed(2)} MB, ${LAYERS * KEYFRAMES} colours, no colour slots stored:`)
  // What a busy machine's scheduling costs the loop anyway (2 shared cores here: 15-20 ms).
  const idle = monitorEventLoopDelay({ resolution: 5 })
  idle.enable()
  await new Promise((resolve) => setTimeout(resolve, 2000))
  idle.disable()
  console.log(`  ${'nothing asked, 2 s'.padEnd(36)} event loop delay max ${Math.round(idle.max / 1e6)} ms`)
  const runs = [
    ['first GET after the start', first._id],
    ['the same animation again', first._id],
    ['another animation', second._id],
  ] as const
  for (const [label, id] of runs) {
    const delay = monitorEventLoopDelay({ resolution: 5 })
    delay.enable()
    const started = performance.now()
    const res = await fetch(`${url}/api/wumpus/${id}/colours`)
    const { slots } = (await res.json()) as { slots: unknown[] }
    const ms = performance.now() - started
    delay.disable()
    console.log(
      `  ${label.padEnd(36)} ${res.status}, ${slots.length} slots in ${String(Math.round(ms)).padStart(5)} ms; event loop delay max ${Math.round(delay.max / 1e6)} ms`,
    )
  }
} finally {
  server.close()
  await deps.downloads.close()
  await closeRenderPool()
  await store.close()
  rmSync(dataDir, { recursive: true, force: true })
}

// npm run bench:players — which Lottie player costs a page least while the gallery's cards play, measured on the
// 12 demo mascots without the app: a static page (bench/support/lottie-players-page.ts, bundled with esbuild)
// shows them in a 4x3 grid of 300x300 CSS px boxes, all on screen (1280x1000), and plays them looping with one of
//   - lottie-web's light SVG build (what the app uses, through lottie-react), with and without subframes
//     (without, it draws only the animation's own frames: 30 a second here, not one per display frame);
//   - lottie-web's light canvas build, canvas sized for the device pixel ratio, with and without subframes;
//   - @lottiefiles/dotlottie-web (ThorVG in WASM drawing on a canvas), with and without frame interpolation,
//     on the main thread (DotLottie) and in a web worker (DotLottieWorker, on an OffscreenCanvas);
//   - none: the empty boxes, the reference.
// For each, at device pixel ratio 1 and 2: the CPU 4x slower (CDP), the page loaded, all 12 playing, a 10 s window
// of the main thread's busy time (Performance.getMetrics: all, script, layout, style, the rest) in ms a second,
// and the frames the players drew (distinct frames per card a second); then the rate of requestAnimationFrame
// callbacks on the main thread (3 s, still slowed: how many frames the page itself gets), and a 5 s window at full
// speed: main thread, and CPU all Chromium's processes used (workers, raster and compositing run off the main
// thread; not measured slowed, as Chromium's throttler keeps the slowed thread's CPU busy). A saturated main thread
// draws fewer frames, so the table also divides the time (above the empty page's) by the frames drawn: ms a frame.
// Bytes: each player alone, bundled and minified with esbuild, gzip; dotLottie adds its WASM (gzip).
// Fidelity: two mascots stopped at one frame in each player (1x), screenshots against the server's own render of
// that frame (ThorVG, backend/src/media/render/render-lottie.ts) over white: mean absolute difference in 0-255 levels.
// Images in bench-results/lottie-players/.
// RUNS (default 3) runs of every setting, interleaved, medians printed; PLAYERS (keys, comma-separated) picks a few;
// WINDOW_MS (default 10000) shortens the slowed window for a quick try. The machine's CPU and load are printed first.
import { mkdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import type { Browser, CDPSession } from 'playwright-core'
import sharp from 'sharp'
import { freePortRun } from '../backend/test/support/ports'
import { demoMascots } from '../backend/src/media/demo/demo-set'
import { lottieBytes } from '../backend/src/media/encode/lottie-json'
import { renderLottie } from '../backend/src/media/render/render-lottie'
import { launchBrowser, newContext } from '../e2e/support/browser'
import { chromiumCpuMs, cpuMsBetween, kb, median, pad, pageMetrics, sum } from './support/cdp-figures'
import type { PlayerName } from './support/lottie-players-page'

const RUNS = Number(process.env.RUNS ?? 3)
const WINDOW_MS = Number(process.env.WINDOW_MS ?? 10_000)
const SETTLE_MS = 2_000
const RAF_WINDOW_MS = 3_000
const FULL_SPEED_WINDOW_MS = 5_000
const VIEWPORT = { width: 1280, height: 1000 }
const CPU_SLOWDOWN = 4
const READY_TIMEOUT_MS = 120_000
const DPRS = [1, 2]
const CARDS = 12
const BOX_PX = 300
/** Mascots (slugs) and the frame compared with the server's render. */
const FIDELITY = { slugs: ['dancing-wumpus', 'cheering-wumpus'], frame: 20 }

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const resultsDir = path.join(root, 'bench-results', 'lottie-players')

interface Setting {
  key: string
  label: string
  player: PlayerName
  /** lottie-web: subframes; dotLottie: frame interpolation. */
  subframe: boolean
}

const ALL_SETTINGS: Setting[] = [
  { key: 'none', label: 'none (empty boxes)', player: 'none', subframe: true },
  { key: 'svg', label: 'lottie-web SVG', player: 'svg', subframe: true },
  { key: 'svg-nosub', label: 'lottie-web SVG, no subframe', player: 'svg', subframe: false },
  { key: 'canvas', label: 'lottie-web canvas', player: 'canvas', subframe: true },
  { key: 'canvas-nosub', label: 'lottie-web canvas, no subframe', player: 'canvas', subframe: false },
  { key: 'dotlottie', label: 'dotLottie', player: 'dotlottie', subframe: true },
  { key: 'dotlottie-noint', label: 'dotLottie, no interpolation', player: 'dotlottie', subframe: false },
  { key: 'worker', label: 'dotLottie worker', player: 'dotlottie-worker', subframe: true },
  { key: 'worker-noint', label: 'dotLottie worker, no interp.', player: 'dotlottie-worker', subframe: false },
]
const picked = process.env.PLAYERS?.split(',').map((key) => key.trim())
const SETTINGS = picked ? ALL_SETTINGS.filter((setting) => picked.includes(setting.key)) : ALL_SETTINGS
if (SETTINGS.length === 0) throw new Error(`PLAYERS matches none of ${ALL_SETTINGS.map((s) => s.key).join(', ')}`)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const gzipBytes = (bytes: Uint8Array) => gzipSync(bytes).length

const benchStarted = performance.now()
const [load1, load5, load15] = os.loadavg().map((load) => load.toFixed(2))
console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, load average ${load1} ${load5} ${load15} at start`,
)

// The demo set: the mascots' Lottie JSON as the server stores it (numbers rounded), without rendering anything.
const mascots = demoMascots().map((mascot) => {
  const bytes = lottieBytes(mascot.lottie)
  const lottie = JSON.parse(new TextDecoder().decode(bytes)) as { fr: number; ip: number; op: number; layers: unknown[] }
  return { slug: mascot.slug, bytes, lottie }
})
if (mascots.length !== CARDS) throw new Error(`the demo set has ${mascots.length} mascots, the page shows ${CARDS}`)
console.log(`\nThe demo set: ${CARDS} Lottie JSONs`)
console.log(`${'mascot'.padEnd(20)}${pad('fps', 5)}${pad('frames', 8)}${pad('layers', 8)}${pad('KB', 7)}${pad('KB gzip', 9)}`)
for (const { slug, bytes, lottie } of mascots) {
  console.log(
    `${slug.padEnd(20)}${pad(lottie.fr, 5)}${pad(lottie.op - lottie.ip, 8)}${pad(lottie.layers.length, 8)}${pad(kb(bytes.length), 7)}${pad(kb(gzipBytes(bytes)), 9)}`,
  )
}
console.log(
  `${'all'.padEnd(41)}${pad(kb(sum(mascots.map((m) => m.bytes.length))), 7)}${pad(kb(sum(mascots.map((m) => gzipBytes(m.bytes)))), 9)}`,
)

// What each player costs to download: the player alone, bundled and minified, gzip.
async function bundle(contents: string): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.contents
}
const wasmPath = path.join(root, 'node_modules/@lottiefiles/dotlottie-web/dist/dotlottie-player.wasm')
const wasm = readFileSync(wasmPath)
const playerBytes: Record<PlayerName, { js: number; wasm: number }> = {
  none: { js: 0, wasm: 0 },
  svg: { js: gzipBytes(await bundle(`export { default } from 'lottie-web/build/player/lottie_light'`)), wasm: 0 },
  canvas: { js: gzipBytes(await bundle(`export { default } from 'lottie-web/build/player/lottie_light_canvas'`)), wasm: 0 },
  dotlottie: { js: gzipBytes(await bundle(`export { DotLottie } from '@lottiefiles/dotlottie-web'`)), wasm: gzipBytes(wasm) },
  'dotlottie-worker': {
    js: gzipBytes(await bundle(`export { DotLottieWorker } from '@lottiefiles/dotlottie-web'`)),
    wasm: gzipBytes(wasm),
  },
}
const totalBytes = (player: PlayerName) => playerBytes[player].js + playerBytes[player].wasm

// The page, one chunk per player.
const page = await build({
  entryPoints: { page: path.join(root, 'bench/support/lottie-players-page.ts') },
  bundle: true,
  splitting: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outdir: path.join(root, '.tmp/lottie-players'),
  write: false,
  logLevel: 'silent',
})
const files = new Map<string, { type: string; body: Uint8Array }>()
for (const file of page.outputFiles) files.set(`/${path.basename(file.path)}`, { type: 'text/javascript', body: file.contents })
mascots.forEach(({ bytes }, card) => files.set(`/lottie/${card}.json`, { type: 'application/json', body: bytes }))
files.set('/dotlottie-player.wasm', { type: 'application/wasm', body: wasm })
const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Lottie players</title>
<style>
  body { margin: 0; background: #fff; }
  #grid { display: grid; grid-template-columns: repeat(4, ${BOX_PX}px); grid-auto-rows: ${BOX_PX}px; gap: 10px; padding: 10px; }
  .box { width: ${BOX_PX}px; height: ${BOX_PX}px; overflow: hidden; background: #fff; }
  .box canvas { display: block; width: ${BOX_PX}px; height: ${BOX_PX}px; }
</style></head>
<body><div id="grid" data-cards="${CARDS}"></div><script type="module" src="/page.js"></script></body></html>`
files.set('/', { type: 'text/html; charset=utf-8', body: new TextEncoder().encode(html) })

const port = await freePortRun(1)
const server: Server = createServer((request, response) => {
  const file = files.get(new URL(request.url ?? '/', 'http://localhost').pathname)
  if (!file) return response.writeHead(404).end()
  response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body)
})
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
const baseURL = `http://127.0.0.1:${port}`
const browser = await launchBrowser()

interface Run {
  /** Main thread, CPU 4x slower, ms a second. */
  busy: number
  script: number
  layout: number
  style: number
  /** The rest of busy: paint, compositing commits, garbage collection, event dispatch. */
  other: number
  /** Distinct frames drawn a second, per card (mean of the 12). */
  drawn: number
  /** requestAnimationFrame callbacks a second on the (slowed) main thread. */
  raf: number
  /** Main thread at full speed, ms a second. */
  busyFullSpeed: number
  /** All Chromium's processes at full speed, ms of CPU a second. */
  chromium: number
  /** Distinct frames drawn a second per card at full speed. */
  drawnFullSpeed: number
}

async function openPage(browser: Browser, deviceScaleFactor: number, query: string, slowdown: number) {
  const context = await newContext(browser, baseURL, { viewport: VIEWPORT, deviceScaleFactor, serviceWorkers: 'block' })
  const tab = await context.newPage()
  const errors: string[] = []
  tab.on('pageerror', (error) => errors.push(error.message))
  tab.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
  const cdp = await context.newCDPSession(tab)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown })
  await cdp.send('Performance.enable')
  await tab.goto(`/?${query}`)
  await tab.waitForFunction(() => window.benchPage?.ready || window.benchPage?.error, undefined, { timeout: READY_TIMEOUT_MS })
  const error = await tab.evaluate(() => window.benchPage.error)
  if (error || errors.length) throw new Error(`${query}: ${[error, ...errors].filter(Boolean).join('; ')}`)
  return { context, tab, cdp }
}

const queryOf = (setting: Setting) => `player=${setting.player}&subframe=${setting.subframe ? 1 : 0}`

async function measure(browser: Browser, browserCdp: CDPSession, setting: Setting, deviceScaleFactor: number): Promise<Run> {
  const { context, tab, cdp } = await openPage(browser, deviceScaleFactor, queryOf(setting), CPU_SLOWDOWN)
  try {
    await sleep(SETTLE_MS)
    const drawn = () => tab.evaluate(() => window.benchPage.drawn.reduce((a, b) => a + b, 0))
    const before = await pageMetrics(cdp)
    const drawnBefore = await drawn()
    const started = performance.now()
    await sleep(WINDOW_MS)
    const after = await pageMetrics(cdp)
    const drawnAfter = await drawn()
    const seconds = (performance.now() - started) / 1000
    // The protocol's durations are seconds.
    const perSecond = (name: string) => ((after[name]! - before[name]!) * 1000) / seconds
    const busy = perSecond('TaskDuration')
    const script = perSecond('ScriptDuration')
    const layout = perSecond('LayoutDuration')
    const style = perSecond('RecalcStyleDuration')
    const raf = await tab.evaluate((ms) => window.benchPage.rafRate(ms), RAF_WINDOW_MS)

    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    await sleep(1000)
    const fullBefore = await pageMetrics(cdp)
    const cpuBefore = await chromiumCpuMs(browserCdp)
    const fullDrawnBefore = await drawn()
    const fullStarted = performance.now()
    await sleep(FULL_SPEED_WINDOW_MS)
    const fullAfter = await pageMetrics(cdp)
    const cpuAfter = await chromiumCpuMs(browserCdp)
    const fullDrawnAfter = await drawn()
    const fullSeconds = (performance.now() - fullStarted) / 1000
    return {
      busy,
      script,
      layout,
      style,
      other: busy - script - layout - style,
      drawn: (drawnAfter - drawnBefore) / seconds / CARDS,
      raf,
      busyFullSpeed: ((fullAfter.TaskDuration! - fullBefore.TaskDuration!) * 1000) / fullSeconds,
      chromium: cpuMsBetween(cpuBefore, cpuAfter) / fullSeconds,
      drawnFullSpeed: (fullDrawnAfter - fullDrawnBefore) / fullSeconds / CARDS,
    }
  } finally {
    await context.close()
  }
}

/** Mean absolute difference (0-255, RGB) of a screenshot and straight-alpha RGBA drawn over white, and the share of pixels off by more than 32 in a channel. */
async function difference(png: Buffer, rgba: Uint8Array, size: number): Promise<{ mean: number; off: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  if (info.width !== size || info.height !== size) throw new Error(`screenshot is ${info.width}x${info.height}, not ${size}x${size}`)
  let total = 0
  let off = 0
  for (let pixel = 0; pixel < size * size; pixel++) {
    const alpha = rgba[pixel * 4 + 3]! / 255
    let worst = 0
    for (let channel = 0; channel < 3; channel++) {
      const reference = rgba[pixel * 4 + channel]! * alpha + 255 * (1 - alpha)
      const diff = Math.abs(data[pixel * 3 + channel]! - reference)
      total += diff
      worst = Math.max(worst, diff)
    }
    if (worst > 32) off++
  }
  return { mean: total / (size * size * 3), off: off / (size * size) }
}

async function overWhitePng(rgba: Uint8Array, size: number): Promise<Buffer> {
  return sharp(Buffer.from(rgba), { raw: { width: size, height: size, channels: 4 } })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer()
}

type Fidelity = Map<string, Record<string, { mean: number; off: number }>>

async function fidelity(browser: Browser): Promise<Fidelity> {
  mkdirSync(resultsDir, { recursive: true })
  const cards = FIDELITY.slugs.map((slug) => {
    const card = mascots.findIndex((mascot) => mascot.slug === slug)
    if (card < 0) throw new Error(`no demo mascot ${slug}`)
    return card
  })
  const references = new Map<number, Uint8Array>()
  for (const card of cards) {
    const { lottie, slug } = mascots[card]!
    const rendered = await renderLottie(lottie, { size: BOX_PX, fps: lottie.fr })
    const frame = rendered.frames[FIDELITY.frame]
    if (!frame) throw new Error(`${slug} has no frame ${FIDELITY.frame}`)
    references.set(card, frame)
    await sharp(await overWhitePng(frame, BOX_PX)).toFile(path.join(resultsDir, `${slug}-${FIDELITY.frame}-server.png`))
  }
  const result: Fidelity = new Map()
  const players: PlayerName[] = ['svg', 'canvas', 'dotlottie', 'dotlottie-worker']
  for (const player of players) {
    const { context, tab } = await openPage(browser, 1, `player=${player}&frame=${FIDELITY.frame}`, 1)
    try {
      await sleep(500)
      const scores: Record<string, { mean: number; off: number }> = {}
      for (const card of cards) {
        const png = await tab.locator(`#box-${card}`).screenshot()
        await sharp(png).toFile(path.join(resultsDir, `${mascots[card]!.slug}-${FIDELITY.frame}-${player}.png`))
        scores[mascots[card]!.slug] = await difference(png, references.get(card)!, BOX_PX)
      }
      result.set(player, scores)
    } finally {
      await context.close()
    }
  }
  return result
}

try {
  console.log(`\nPage served at ${baseURL}; each setting: ${RUNS} runs, interleaved`)
  const browserCdp = await browser.newBrowserCDPSession()
  const runs = new Map<string, Run[]>()
  const runKey = (setting: Setting, dpr: number) => `${setting.key}@${dpr}`
  for (let run = 1; run <= RUNS; run++) {
    for (const dpr of DPRS) {
      for (const setting of SETTINGS) {
        const result = await measure(browser, browserCdp, setting, dpr)
        const list = runs.get(runKey(setting, dpr)) ?? []
        list.push(result)
        runs.set(runKey(setting, dpr), list)
        console.log(
          `run ${run}, ${dpr}x, ${setting.label}: main thread ${result.busy.toFixed(0)} ms/s (script ${result.script.toFixed(0)}), ${result.drawn.toFixed(1)} frames/s a card, rAF ${result.raf.toFixed(0)}/s; full speed ${result.busyFullSpeed.toFixed(0)} ms/s, all Chromium ${result.chromium.toFixed(0)} ms/s, ${result.drawnFullSpeed.toFixed(1)} frames/s a card`,
        )
      }
    }
  }

  let scores: Fidelity | null = null
  try {
    scores = await fidelity(browser)
  } catch (error) {
    console.warn(`Fidelity check failed: ${String(error)}`)
  }

  console.log(
    `\nPlayer bytes (alone, esbuild-minified, gzip; KB = 1000 bytes): ${(['svg', 'canvas', 'dotlottie', 'dotlottie-worker'] as const)
      .map(
        (player) => `${player} ${kb(playerBytes[player].js)}${playerBytes[player].wasm ? ` + WASM ${kb(playerBytes[player].wasm)}` : ''}`,
      )
      .join(', ')}`,
  )
  for (const dpr of DPRS) {
    const reference = runs.get(runKey(ALL_SETTINGS[0]!, dpr))
    const ref = (key: keyof Run) => (reference ? median(reference.map((run) => run[key])) : 0)
    console.log(
      `\n${CARDS} cards playing at ${dpr}x (${VIEWPORT.width}x${VIEWPORT.height}), ${WINDOW_MS / 1000} s windows; ms a second, median of ${RUNS} runs.`,
    )
    console.log(
      `${''.padEnd(39)}${`CPU ${CPU_SLOWDOWN}x slower: main thread`.padEnd(44)}${'frames/s'.padEnd(11)}ms/frame  ${'full speed: main'.padEnd(24)}all Chromium`,
    )
    console.log(
      `${'player'.padEnd(31)}${pad('KB gz', 8)}${pad('busy', 7)}${pad('script', 8)}${pad('layout', 8)}${pad('style', 7)}${pad('other', 7)}${pad('per card', 10)}${pad('card', 6)}${pad('rAF', 5)}${pad('main', 9)}${pad('busy', 8)}${pad('card fps', 10)}${pad('ms/frame', 10)}${pad('CPU', 7)}${pad('ms/frame', 10)}`,
    )
    for (const setting of SETTINGS) {
      const list = runs.get(runKey(setting, dpr))!
      const m = (key: keyof Run) => median(list.map((run) => run[key]))
      // Per card and per frame drawn, above the empty page.
      const perCard = reference ? ((m('busy') - ref('busy')) / CARDS).toFixed(1) : '-'
      const perFrame = (ms: number, drawn: number) => (reference && drawn > 0 ? (ms / (drawn * CARDS)).toFixed(2) : '-')
      console.log(
        `${setting.label.padEnd(31)}${pad(kb(totalBytes(setting.player)), 8)}${pad(m('busy').toFixed(0), 7)}${pad(m('script').toFixed(0), 8)}${pad(m('layout').toFixed(0), 8)}${pad(m('style').toFixed(0), 7)}${pad(m('other').toFixed(0), 7)}${pad(perCard, 10)}${pad(m('drawn').toFixed(1), 6)}${pad(m('raf').toFixed(0), 5)}${pad(perFrame(m('busy') - ref('busy'), m('drawn')), 9)}${pad(m('busyFullSpeed').toFixed(0), 8)}${pad(m('drawnFullSpeed').toFixed(1), 10)}${pad(perFrame(m('busyFullSpeed') - ref('busyFullSpeed'), m('drawnFullSpeed')), 10)}${pad(m('chromium').toFixed(0), 7)}${pad(perFrame(m('chromium') - ref('chromium'), m('drawnFullSpeed')), 10)}`,
      )
    }
  }
  console.log(
    'per card: (busy - none) / cards. card: distinct frames drawn a second per card (the animations have 30). rAF: main-thread frames a second. ms/frame: (ms - none) / frames drawn by all cards.',
  )
  if (scores) {
    console.log(
      `\nFidelity: frame ${FIDELITY.frame} at 1x against the server's ThorVG render, over white: mean absolute difference (0-255) / pixels off by > 32`,
    )
    console.log(`${'player'.padEnd(20)}${FIDELITY.slugs.map((slug) => pad(slug, 22)).join('')}`)
    for (const [player, byMascot] of scores) {
      console.log(
        `${player.padEnd(20)}${FIDELITY.slugs.map((slug) => pad(`${byMascot[slug]!.mean.toFixed(2)} / ${(byMascot[slug]!.off * 100).toFixed(1)}%`, 22)).join('')}`,
      )
    }
    console.log(`Images: ${path.relative(root, resultsDir)}/`)
  }
  const [endLoad1, endLoad5] = os.loadavg().map((load) => load.toFixed(2))
  console.log(`\nThe bench took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s; load average now ${endLoad1} ${endLoad5}`)
} finally {
  await browser.close()
  await new Promise((resolve) => server.close(resolve))
}

// npm run bench:grid — what scrolling the home gallery costs a phone, in a real Chromium on the built app and
// the real server with the demo set (card previews made):
// 1. bytes: a phone (375x812 at 3x, empty cache, no service worker) opens /, waits until it is interactive and
//    the network is quiet, then scrolls each of the 12 cards to the middle of the screen, waiting each time
//    until its animation has loaded. Every byte on the wire, by kind, first visit against scrolling, per card,
//    and the biggest responses.
// 2. main thread: all 12 cards on screen at once (1280x2400 at 1x), CPU 4x slower, over a 10 s window once the
//    page is quiet: busy ms per second (script, layout, style), with reduced motion as the reference. Then a
//    second window at full speed: main thread again and the CPU all of Chromium's processes used (decoding,
//    raster and compositing run off the main thread). Not under throttling: Chromium's throttler keeps the
//    throttled thread's CPU busy (about 600 ms/s on an idle page here).
// Aims: scrolling costs a phone little more than each card's first frame and its animation's own bytes; while
// the cards play, the main thread has room left for the visitor's taps even on a 4x slower CPU.
// RUNS (default 3) runs of each, medians printed. The bytes do not depend on the machine; the CPU figures do
// (its model and load average are printed first).
import os from 'node:os'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { launchBrowser, newContext, PHONE } from '../e2e/support/browser'
import { chromiumCpuMs, cpuMsBetween, kb, median, pad, pageMetrics, sum } from './support/cdp-figures'
import { RESOURCE_KINDS, watchNetwork, type LoggedResponse, type ResourceKind } from './support/network-log'
import { buildAndServe, waitForDerivedMedia } from './support/serve-build'

const RUNS = Number(process.env.RUNS ?? 3)
const CARDS = 12
const WINDOW_MS = 10_000
const ALL_ON_SCREEN = { width: 1280, height: 2400 }
const CPU_SLOWDOWN = 4
const INTERACTIVE_TIMEOUT_MS = 120_000

const benchStarted = performance.now()
const [load1, load5, load15] = os.loadavg().map((load) => load.toFixed(2))
console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, load average ${load1} ${load5} ${load15} at start`,
)

const server = await buildAndServe()
await waitForDerivedMedia(server.baseURL)
const readyS = (performance.now() - benchStarted) / 1000
const browser = await launchBrowser()

async function appInteractive(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0, undefined, {
    timeout: INTERACTIVE_TIMEOUT_MS,
  })
}

function warnAboutWorkers(page: Page): void {
  page.on('worker', (worker) => console.warn(`  (a worker started: ${worker.url()}; its own requests are not counted)`))
}

// 1. Bytes.
interface ScrollRun {
  firstVisit: LoggedResponse[]
  scrolling: LoggedResponse[]
}

async function scrollRun(browser: Browser): Promise<ScrollRun> {
  const context = await newContext(browser, server.baseURL, {
    viewport: PHONE,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  })
  try {
    const page = await context.newPage()
    warnAboutWorkers(page)
    const network = await watchNetwork(await context.newCDPSession(page))
    await page.goto('/')
    await appInteractive(page)
    await network.quiet()
    const visited = network.responses.length
    const cards = page.locator('main li').filter({ has: page.locator('h2') })
    const count = await cards.count()
    if (count !== CARDS) console.warn(`  (the gallery shows ${count} cards, not ${CARDS})`)
    for (let i = 0; i < count; i++) {
      await cards.nth(i).evaluate((card) => card.scrollIntoView({ block: 'center', behavior: 'instant' }))
      network.touch()
      await network.quiet()
    }
    return { firstVisit: network.responses.slice(0, visited), scrolling: network.responses.slice(visited) }
  } finally {
    await context.close()
  }
}

// 2. Main thread.
interface CpuRun {
  onScreen: number
  /** Main thread at 4x slower CPU, ms a second. */
  busy: number
  script: number
  layout: number
  style: number
  /** The rest of busy: paint, compositing commits, garbage collection, parsing. */
  other: number
  /** Main thread at full speed, ms a second. */
  busyFullSpeed: number
  /** Every Chromium process (browser, renderer, GPU) at full speed, ms of CPU a second. */
  chromium: number
}

/** The page's main thread over one window: ms a second busy in all, in script, layout and style. */
async function mainThread(cdp: CDPSession) {
  const before = await pageMetrics(cdp)
  const started = performance.now()
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS))
  const after = await pageMetrics(cdp)
  const seconds = (performance.now() - started) / 1000
  // The protocol's durations are seconds.
  const perSecond = (name: string) => ((after[name]! - before[name]!) * 1000) / seconds
  const busy = perSecond('TaskDuration')
  const script = perSecond('ScriptDuration')
  const layout = perSecond('LayoutDuration')
  const style = perSecond('RecalcStyleDuration')
  return { busy, script, layout, style, other: busy - script - layout - style }
}

async function cpuRun(browser: Browser, browserCdp: CDPSession, reducedMotion: boolean): Promise<CpuRun> {
  const context = await newContext(browser, server.baseURL, {
    viewport: ALL_ON_SCREEN,
    deviceScaleFactor: 1,
    serviceWorkers: 'block',
  })
  try {
    const page = await context.newPage()
    warnAboutWorkers(page)
    if (reducedMotion) await page.emulateMedia({ reducedMotion: 'reduce' })
    const cdp = await context.newCDPSession(page)
    const network = await watchNetwork(cdp)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await cdp.send('Performance.enable')
    await page.goto('/')
    await appInteractive(page)
    await network.quiet()
    // Cards animate while at least half of their picture is on screen: count the cards wholly on screen.
    const onScreen = await page.evaluate(
      () =>
        [...document.querySelectorAll('main li')].filter((card) => {
          const box = card.getBoundingClientRect()
          return card.querySelector('h2') && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight
        }).length,
    )
    const throttled = await mainThread(cdp)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const cpuBefore = await chromiumCpuMs(browserCdp)
    const started = performance.now()
    const fullSpeed = await mainThread(cdp)
    const cpuAfter = await chromiumCpuMs(browserCdp)
    const seconds = (performance.now() - started) / 1000
    const chromium = cpuMsBetween(cpuBefore, cpuAfter) / seconds
    return { onScreen, ...throttled, busyFullSpeed: fullSpeed.busy, chromium }
  } finally {
    await context.close()
  }
}

const byKind = (responses: LoggedResponse[], kind: ResourceKind) => sum(responses.filter((r) => r.kind === kind).map((r) => r.bytes))

try {
  console.log(`Built and serving in ${readyS.toFixed(0)} s (previews made)`)
  const scrollRuns: ScrollRun[] = []
  for (let run = 1; run <= RUNS; run++) {
    const started = performance.now()
    const result = await scrollRun(browser)
    scrollRuns.push(result)
    const firstVisit = sum(result.firstVisit.map((r) => r.bytes))
    const scrolling = sum(result.scrolling.map((r) => r.bytes))
    console.log(
      `scroll run ${run}: first visit ${kb(firstVisit)} KB (${result.firstVisit.length} responses), scrolling ${kb(scrolling)} KB (${result.scrolling.length}), ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
  }

  const cpuRuns = { motion: [] as CpuRun[], reduced: [] as CpuRun[] }
  const browserCdp = await browser.newBrowserCDPSession()
  for (let run = 1; run <= RUNS; run++) {
    for (const reduced of [false, true]) {
      const result = await cpuRun(browser, browserCdp, reduced)
      cpuRuns[reduced ? 'reduced' : 'motion'].push(result)
      console.log(
        `cpu run ${run}${reduced ? ', reduced motion' : ''}: ${result.onScreen} cards on screen, main thread ${result.busy.toFixed(0)} ms/s at 4x slower CPU, ${result.busyFullSpeed.toFixed(0)} ms/s at full speed, all Chromium ${result.chromium.toFixed(0)} ms/s`,
      )
    }
  }

  // The summary.
  const phases = ['firstVisit', 'scrolling'] as const
  console.log(
    `\n1. Scroll bytes: phone ${PHONE.width}x${PHONE.height} at 3x, empty cache, service workers blocked, ${CARDS} cards scrolled to; KB = 1000 bytes on the wire, median of ${RUNS} runs (medians do not add up)`,
  )
  console.log(`${'kind'.padEnd(12)}${pad('first visit', 13)}${pad('scrolling', 11)}${pad('total', 9)}`)
  for (const kind of [...RESOURCE_KINDS, 'all'] as const) {
    const of = (responses: LoggedResponse[]) => (kind === 'all' ? sum(responses.map((r) => r.bytes)) : byKind(responses, kind))
    const [firstVisit, scrolling] = phases.map((phase) => median(scrollRuns.map((run) => of(run[phase]))))
    const total = median(scrollRuns.map((run) => of([...run.firstVisit, ...run.scrolling])))
    console.log(`${kind.padEnd(12)}${pad(kb(firstVisit!), 13)}${pad(kb(scrolling!), 11)}${pad(kb(total), 9)}`)
  }
  const scrollBytes = median(scrollRuns.map((run) => sum(run.scrolling.map((r) => r.bytes))))
  console.log(`per card (scrolling / ${CARDS} cards): ${kb(scrollBytes / CARDS)} KB`)
  console.log('The 10 biggest responses (run 1):')
  const first = scrollRuns[0]!
  const biggest = [
    ...first.firstVisit.map((r) => ({ ...r, phase: 'first visit' })),
    ...first.scrolling.map((r) => ({ ...r, phase: 'scrolling' })),
  ]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 10)
  for (const r of biggest) {
    const url = new URL(r.url)
    console.log(`  ${pad(kb(r.bytes), 7)} KB  ${r.kind.padEnd(10)} ${r.phase.padEnd(12)} ${url.pathname}${url.search}`)
  }

  console.log(
    `\n2. Main thread while the cards play: ${ALL_ON_SCREEN.width}x${ALL_ON_SCREEN.height} at 1x, ${WINDOW_MS / 1000} s windows once quiet, ms per second, median of ${RUNS} runs`,
  )
  console.log(`${''.padEnd(26)}${`CPU ${CPU_SLOWDOWN}x slower: main thread`.padEnd(41)}full speed: main  all Chromium`)
  console.log(
    `${''.padEnd(16)}${pad('on screen', 10)}${pad('busy', 7)}${pad('script', 8)}${pad('layout', 8)}${pad('style', 7)}${pad('other', 7)}${pad('busy', 10)}${pad('CPU', 14)}`,
  )
  for (const [label, runs] of [
    ['animated', cpuRuns.motion],
    ['reduced motion', cpuRuns.reduced],
  ] as const) {
    const m = (key: keyof CpuRun) => median(runs.map((run) => run[key])).toFixed(0)
    console.log(
      `${label.padEnd(16)}${pad(m('onScreen'), 10)}${pad(m('busy'), 7)}${pad(m('script'), 8)}${pad(m('layout'), 8)}${pad(m('style'), 7)}${pad(m('other'), 7)}${pad(m('busyFullSpeed'), 10)}${pad(m('chromium'), 14)}`,
    )
  }
  const [endLoad1, endLoad5] = os.loadavg().map((load) => load.toFixed(2))
  console.log(
    `\nThe bench took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s (build, server and previews ${readyS.toFixed(0)} s); load average now ${endLoad1} ${endLoad5}`,
  )
} finally {
  await browser.close()
  await server.stop()
}

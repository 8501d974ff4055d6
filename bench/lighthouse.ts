// npm run bench:lighthouse — Lighthouse 12 (system Chromium) on / and /about, mobile and desktop, three
// runs each: prints the medians and every audit that failed in any run.
// Aims (mobile): performance ≥ 95 (LCP ≤ 2.0 s, TBT ≤ 150 ms, CLS ≤ 0.02); accessibility, best practices
// and SEO 100; desktop performance 100.
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS } from '../e2e/support/browser'
import { freePortRun } from '../backend/test/support/ports'
import { buildAndServe, waitForDerivedMedia } from './support/serve-build'

const RUNS = Number(process.env.RUNS ?? 3)
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const METRICS = [
  ['FCP', 'first-contentful-paint', 's'],
  ['LCP', 'largest-contentful-paint', 's'],
  ['TBT', 'total-blocking-time', 'ms'],
  ['CLS', 'cumulative-layout-shift', ''],
  ['SI', 'speed-index', 's'],
  ['weight', 'total-byte-weight', 'KB'],
  ['main-thread work', 'mainthread-work-breakdown', 's'],
  ['JS boot-up', 'bootup-time', 's'],
] as const

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const format = (value: number, unit: string) =>
  unit === 's'
    ? `${(value / 1000).toFixed(2)} s`
    : unit === 'ms'
      ? `${Math.round(value)} ms`
      : unit === 'KB'
        ? `${Math.round(value / 1024)} KB`
        : value.toFixed(3)

const server = await buildAndServe()
// Measure the gallery as visitors see it once the card previews exist (made in the background after start).
await waitForDerivedMedia(server.baseURL)
const debuggingPort = await freePortRun(1)
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debuggingPort}`],
  // Playwright turns the back/forward cache off; Lighthouse's bf-cache audit must see the app's own answer.
  ignoreDefaultArgs: ['--disable-back-forward-cache'],
})
try {
  for (const path of ['/', '/about']) {
    for (const formFactor of ['mobile', 'desktop'] as const) {
      const scores = new Map<string, number[]>(CATEGORIES.map((id) => [id, []]))
      const metrics = new Map<string, number[]>(METRICS.map(([name]) => [name, []]))
      const failing = new Map<string, string[]>()
      for (let run = 0; run < RUNS; run++) {
        const result = await lighthouse(
          server.baseURL + path,
          { port: debuggingPort, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
          formFactor === 'desktop' ? desktopConfig : undefined,
        )
        const lhr = result!.lhr
        if (lhr.runtimeError)
          failing.set('runtime error', [...(failing.get('runtime error') ?? []), `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`])
        for (const id of CATEGORIES) {
          scores.get(id)!.push(Math.round((lhr.categories[id]?.score ?? 0) * 100))
          for (const ref of lhr.categories[id]!.auditRefs) {
            const audit = lhr.audits[ref.id]!
            const fails =
              audit.score !== null && audit.score < 0.9 && !['informative', 'notApplicable', 'manual'].includes(audit.scoreDisplayMode)
            if (fails)
              failing.set(`${id}: ${audit.id}`, [...(failing.get(`${id}: ${audit.id}`) ?? []), String(audit.displayValue ?? audit.score)])
          }
        }
        for (const [name, id] of METRICS) metrics.get(name)!.push(lhr.audits[id]!.numericValue ?? NaN)
        const bfcache = lhr.audits['bf-cache']
        if (bfcache && bfcache.score !== 1) failing.set('back/forward cache', [String(bfcache.displayValue ?? 'not eligible')])
      }
      const categoryLine = CATEGORIES.map((id) => `${id} ${median(scores.get(id)!)} (${scores.get(id)!.join(', ')})`).join(' · ')
      const metricLine = METRICS.map(([name, , unit]) => `${name} ${format(median(metrics.get(name)!), unit)}`).join(' · ')
      console.log(`${path} ${formFactor}, median of ${RUNS}: ${categoryLine}`)
      console.log(`    ${metricLine}`)
      for (const [audit, values] of failing) console.log(`    failed ${values.length}/${RUNS}: ${audit} (${values.join(', ')})`)
    }
  }
} finally {
  await browser.close()
  await server.stop()
}

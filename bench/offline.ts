// npm run bench:offline — time from navigation to the first gallery card on screen, online (warm: the
// service worker installed, caches filled) and offline, median of several runs in a real Chromium.
import { launchBrowser, newContext } from '../e2e/support/browser'
import { buildAndServe } from './support/serve-build'

const RUNS = Number(process.env.BENCH_RUNS ?? 9)

const server = await buildAndServe()
const browser = await launchBrowser()
try {
  const context = await newContext(browser, server.baseURL)
  // performance.now() is measured from the navigation's start: record it when the first card appears.
  // (A string, not a function: tsx rewrites functions in ways a page cannot run.)
  await context.addInitScript(`
    new MutationObserver((_, observer) => {
      if (document.querySelector('ul[aria-label="Animations"] li')) {
        window.firstCardMs = performance.now()
        observer.disconnect()
      }
    }).observe(document, { childList: true, subtree: true })
  `)
  const page = await context.newPage()
  await page.goto('/')
  await page.evaluate(() => navigator.serviceWorker.ready)
  await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)

  const measure = async (): Promise<number[]> => {
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      await page.goto('/')
      times.push(
        await page
          .waitForFunction(() => (window as unknown as { firstCardMs?: number }).firstCardMs)
          .then((h) => h.jsonValue() as Promise<number>),
      )
    }
    return times
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

  const online = await measure()
  await context.setOffline(true)
  const offline = await measure()
  console.log(`Navigation to first gallery card, median of ${RUNS} runs (service worker installed):`)
  console.log(`  online (warm): ${median(online).toFixed(0)} ms   [${online.map((t) => t.toFixed(0)).join(', ')}]`)
  console.log(`  offline:       ${median(offline).toFixed(0)} ms   [${offline.map((t) => t.toFixed(0)).join(', ')}]`)
} finally {
  await browser.close()
  await server.stop()
}

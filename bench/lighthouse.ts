// npm run bench:lighthouse — Lighthouse 12 (system Chromium) on / and /about, mobile and desktop.
// Aim: performance ≥ 95 on mobile; accessibility, best practices and SEO 100.
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS } from '../e2e/support/browser'
import { freePortRun } from '../backend/test/support/ports'
import { buildAndServe, waitForDerivedMedia } from './support/serve-build'

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const server = await buildAndServe()
// Measure the gallery as visitors see it once the card previews exist (made in the background after start).
await waitForDerivedMedia(server.baseURL)
const debuggingPort = await freePortRun(1)
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debuggingPort}`],
})
try {
  console.log('page        form factor  performance  accessibility  best-practices  seo')
  for (const path of ['/', '/about']) {
    for (const formFactor of ['mobile', 'desktop'] as const) {
      const result = await lighthouse(
        server.baseURL + path,
        { port: debuggingPort, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
        formFactor === 'desktop' ? desktopConfig : undefined,
      )
      const categories = result!.lhr.categories
      const score = (id: string) => String(Math.round((categories[id]?.score ?? 0) * 100)).padStart(3)
      console.log(`${path.padEnd(12)}${formFactor.padEnd(13)}${score('performance').padStart(11)}${score('accessibility').padStart(15)}${score('best-practices').padStart(16)}${score('seo').padStart(5)}`)
      for (const id of CATEGORIES) {
        const failing = categories[id]!.auditRefs
          .map((ref) => result!.lhr.audits[ref.id]!)
          .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'notApplicable')
        for (const audit of failing) console.log(`    ${id}: ${audit.id} (${audit.displayValue ?? audit.score})`)
      }
    }
  }
} finally {
  await browser.close()
  await server.stop()
}

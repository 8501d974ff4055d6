// npm run bench:bundle — the JavaScript the home route loads in a real browser before it is interactive
// (entry plus the chunks it pulls in, up to the app's `app-interactive` mark), its gzip size against the
// budget, which packages make it up (from the source maps), and what loads after (offline, install, update).
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { launchBrowser } from '../e2e/support/browser'
import { buildAndServe } from './support/serve-build'

const BUDGET_KB = 130

const server = await buildAndServe({ sourcemap: true })
const browser = await launchBrowser()
try {
  const page = await browser.newPage()
  await page.goto(server.baseURL + '/')
  await page.getByRole('list', { name: 'Animations' }).getByRole('listitem').first().waitFor()
  await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0)
  await page.waitForLoadState('networkidle')
  // Plain data out of the page (tsx names functions, and those names do not exist in the browser).
  const { interactiveAt, loaded } = await page.evaluate(() => ({
    interactiveAt: performance.getEntriesByName('app-interactive')[0]!.startTime,
    loaded: performance.getEntriesByType('resource').map((entry) => ({ url: entry.name, startTime: entry.startTime })),
  }))
  const js = loaded
    .map(({ url, startTime }) => ({ pathname: new URL(url).pathname, startTime }))
    .filter(({ pathname }) => pathname.startsWith('/assets/') && pathname.endsWith('.js'))
  const before = js.filter((entry) => entry.startTime < interactiveAt).map((entry) => entry.pathname)
  const after = js.filter((entry) => entry.startTime >= interactiveAt).map((entry) => entry.pathname)
  const scripts = new Set(before)

  let totalGzip = 0
  let totalRaw = 0
  const packages = new Map<string, number>()
  console.log('Scripts the home route loads before it is interactive:')
  for (const pathname of [...scripts].sort()) {
    const file = path.join(server.staticDir, pathname)
    const code = readFileSync(file)
    const gzip = gzipSync(code).length
    totalGzip += gzip
    totalRaw += code.length
    console.log(
      `  ${pathname.padEnd(48)} ${(code.length / 1024).toFixed(1).padStart(7)} KB  ${(gzip / 1024).toFixed(1).padStart(6)} KB gzip`,
    )
    // Vite's own helper chunks (preload-helper) have no source map.
    if (!existsSync(`${file}.map`)) continue
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] }
    map.sources.forEach((source, i) => {
      const name = packageOf(source)
      packages.set(name, (packages.get(name) ?? 0) + (map.sourcesContent?.[i]?.length ?? 0))
    })
  }
  const sourceTotal = [...packages.values()].reduce((a, b) => a + b, 0)
  console.log(
    `Total: ${(totalRaw / 1024).toFixed(1)} KB, ${(totalGzip / 1024).toFixed(1)} KB gzip (budget ${BUDGET_KB} KB gzip): ${totalGzip / 1024 <= BUDGET_KB ? 'within' : 'OVER'}`,
  )
  console.log('Packages in it (share of source bytes):')
  for (const [name, size] of [...packages].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${name.padEnd(36)} ${((size / sourceTotal) * 100).toFixed(1).padStart(5)} %`)
  }
  const forbidden = [...packages.keys()].filter(
    (name) => name.startsWith('firebase') || name.startsWith('@firebase/') || name === 'lottie-web',
  )
  console.log(
    forbidden.length === 0 ? 'Neither the Firebase SDK nor lottie-web is in it.' : `NOT ALLOWED in the home route: ${forbidden.join(', ')}`,
  )
  const deferred = after.map((pathname) => gzipSync(readFileSync(path.join(server.staticDir, pathname))).length)
  console.log(
    `Loaded after the page is interactive (offline, install, update code): ${after.length} files, ${(deferred.reduce((a, b) => a + b, 0) / 1024).toFixed(1)} KB gzip`,
  )
  for (const pathname of after) console.log(`  ${pathname}`)
} finally {
  await browser.close()
  await server.stop()
}

function packageOf(source: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)
  if (match) return match[1]!
  if (source.includes('/contract/')) return '(our contract/)'
  if (source.includes('/app/')) return '(our app/)'
  return `(other: ${source.split('/').slice(-2).join('/')})`
}

import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorBody } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'
import { LOCKED_DOWN_CSP } from './middleware'

const INLINE = "document.documentElement.dataset.theme = 'dark'"
let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
  const root = server.config.staticDir
  mkdirSync(path.join(root, 'assets'), { recursive: true })
  writeFileSync(
    path.join(root, 'index.html'),
    `<!doctype html><title>Wumpus</title><script>${INLINE}</script><script type="module" src="/assets/app-abc123.js"></script>`,
  )
  writeFileSync(path.join(root, 'assets', 'app-abc123.js'), 'console.log(1)')
  writeFileSync(path.join(root, 'sw.js'), 'self')
})
afterAll(() => server.close())

const get = (p: string, headers: Record<string, string> = {}) => fetch(server.url + p, { headers })

describe('serving the built app', () => {
  it("serves index.html for page navigations to the app's pages, and with 404 to any other path", async () => {
    const pages = ['/', '/about', '/packs/', '/signIn', '/dashboard/my-packs/0123456789abcdef01234567']
    for (const [p, status] of [
      ...pages.map((p) => [p, 200] as const),
      ['/no/such/page', 404] as const,
      ['/dashboard/nope', 404] as const,
      // Pages about one thing answer 404 when it is not there for a visitor (link-preview-pages.test.ts).
      ['/wumpus/0123456789abcdef01234567/remix', 404] as const,
      ['/profile/ana@studio.gallery', 404] as const,
    ]) {
      const res = await get(p, { accept: 'text/html' })
      expect(res.status, p).toBe(status)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(await res.text()).toContain('<title>Wumpus</title>')
    }
  })

  it("allows the page's own inline script, and no other, in the CSP", async () => {
    // The hashes are read when the app is built, so this uses a fresh app on the same folder.
    const { createHash } = await import('node:crypto')
    const again = await startTestServer({ STATIC_DIR: server.config.staticDir })
    const csp = (await fetch(again.url + '/', { headers: { accept: 'text/html' } })).headers.get('content-security-policy')!
    await again.close()
    const hash = createHash('sha256').update(INLINE).digest('base64')
    expect(csp).toMatch(new RegExp(`script-src 'self' https://apis.google.com 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`))
  })

  it('sends the page policy with pages and the service worker only, a short locked-down one with everything else', async () => {
    const pageHeaders = [
      'content-security-policy',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'permissions-policy',
    ]
    const page = await get('/', { accept: 'text/html' })
    const worker = await get('/sw.js', { 'service-worker': 'script' })
    for (const res of [page, worker]) {
      for (const name of pageHeaders) expect(res.headers.get(name), name).toBeTruthy()
      expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'")
    }
    for (const res of [await get('/assets/app-abc123.js'), await get('/api/wumpuses?limit=1'), await get('/api/no-such-thing')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('content-security-policy')).toBe(LOCKED_DOWN_CSP)
      for (const name of pageHeaders.slice(1)) expect(res.headers.get(name), name).toBeNull()
    }
  })

  it('caches hashed assets forever and revalidates the service worker', async () => {
    const asset = await get('/assets/app-abc123.js')
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect((await get('/sw.js')).headers.get('cache-control')).toBe('no-cache')
  })

  it('answers 304 for an unchanged file', async () => {
    const first = await get('/assets/app-abc123.js')
    const again = await get('/assets/app-abc123.js', { 'if-none-match': first.headers.get('etag')! })
    expect(again.status).toBe(304)
  })

  it('answers a missing asset with 404 rather than the page', async () => {
    const res = await get('/assets/missing.js')
    expect(res.status).toBe(404)
    expect(errorBody(await res.json()).error.code).toBe('NOT_FOUND')
  })

  it('never serves files outside its folder', async () => {
    // The static folder sits inside the data folder, next to the signing secret.
    for (const p of ['/..%2Fjwt-secret', '/%2e%2e/jwt-secret', '/assets/..%2f..%2fjwt-secret', '/..\\jwt-secret']) {
      for (const accept of ['*/*', 'text/html']) {
        const res = await get(p, { accept })
        expect(await res.text()).not.toContain(server.config.jwtSecret)
      }
      expect((await get(p)).status).toBe(404)
    }
  })

  it('answers unknown non-page requests with 404', async () => {
    expect((await get('/no/such/thing', { accept: 'application/json' })).status).toBe(404)
  })

  it('does not answer API paths with the page', async () => {
    const res = await get('/api/nothing-here', { accept: 'text/html' })
    expect(res.status).toBe(404)
    expect(errorBody(await res.json()).error.code).toBe('NOT_FOUND')
  })
})

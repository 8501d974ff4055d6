import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { packListPath } from '../../../contract/api-paths'
import { HOME_EMOJI_CHIPS, HOME_TAG_CHIPS } from '../../../contract/limits'
import { ROUTE_MODULES_FILE, SSR_ANSWERS_ELEMENT_ID, SSR_MODULES_ELEMENT_ID, type ApiAnswers, type SsrRequest } from '../../../contract/ssr'
import { RATE_LIMITS } from './rate-limit'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

// The middleware is tested with a stand-in for the built app's renderer (e2e/server-rendering.test.ts
// runs the real one): it records what it was asked and renders the answers it got as plain markup.
const RENDERER = `
export async function renderPage(request) {
  globalThis.ssrCalls.push(request)
  if (globalThis.ssrFails) throw new Error('the render broke')
  const list = Object.entries(request.answers).find(([path]) => path.startsWith('/api/wumpuses?'))?.[1]
  // A name starting "Unescaped:" stands for a future bug that lets a value into the markup as it is.
  const markup = (name) => (name.startsWith('Unescaped:') ? name.slice('Unescaped:'.length) : name.replace(/</g, '&lt;'))
  const names = (list ? JSON.parse(list.body) : []).map((w) => '<li class="card">' + markup(w.name) + '</li>').join('')
  const head = request.url === '/' ? '<link rel="preload" href="/first.webp" as="image"/>' : ''
  const routeIds = request.url.startsWith('/packs') ? ['__root__', '/packs/'] : ['__root__', '/']
  return { html: '<main><h1>Page ' + request.url + '</h1><ul>' + names + '</ul></main>', head, title: 'Title of ' + request.url, routeIds }
}`
const TEMPLATE = `<!doctype html><html><head><meta charset="UTF-8" /><title>Wumpus Gallery</title><link rel="stylesheet" href="/assets/app.css"></head>
<body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>`
const CSS = '.card{color:red}.never-used-rule{color:blue}h1{margin:0}'

declare global {
  var ssrCalls: SsrRequest[]
  var ssrFails: boolean
}

let server: TestServer
let built: string
beforeAll(async () => {
  built = mkdtempSync(path.join(tmpdir(), 'wumpus-ssr-build-'))
  mkdirSync(path.join(built, 'static', 'assets'), { recursive: true })
  writeFileSync(path.join(built, 'static', 'index.html'), TEMPLATE)
  writeFileSync(path.join(built, 'static', 'assets', 'app.css'), CSS)
  mkdirSync(path.join(built, 'ssr'))
  writeFileSync(path.join(built, 'ssr', 'entry-server.js'), RENDERER)
  writeFileSync(path.join(built, 'ssr', ROUTE_MODULES_FILE), JSON.stringify({ '/packs/': ['/assets/packs.js', '/assets/cards.js'] }))
  globalThis.ssrCalls = []
  server = await startTestServer({ STATIC_DIR: path.join(built, 'static'), SSR_DIR: path.join(built, 'ssr') })
  // The pages without an id are rendered as the server starts.
  await vi.waitFor(() => expect(globalThis.ssrCalls.map((call) => call.url)).toEqual(['/', '/about', '/packs']))
})
afterAll(async () => {
  await server.close()
  rmSync(built, { recursive: true, force: true })
})
beforeEach(() => {
  globalThis.ssrCalls = []
  globalThis.ssrFails = false
})

const page = (p: string, headers: Record<string, string> = {}) => fetch(server.url + p, { headers: { accept: 'text/html', ...headers } })

function answersIn(html: string): ApiAnswers {
  const match = new RegExp(`<script type="application/json" id="${SSR_ANSWERS_ELEMENT_ID}">(.*?)</script>`, 's').exec(html)
  return JSON.parse(match![1]!) as ApiAnswers
}

describe('server-rendered public pages', () => {
  it('renders the home page with the first gallery page and the tag and emoji chips, exactly as the API answers them, and carries those answers', async () => {
    await addWumpus(server.store, {
      name: 'Rendered Wumpus',
      tags: ['hello'],
      emoji: [{ char: '👋', name: 'waving hand', shortcode: 'wave' }],
    })
    const res = await page('/')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const html = await res.text()
    expect(html).toContain('<div id="root"><main><h1>Page /</h1><ul><li class="card">Rendered Wumpus</li>')
    expect(html).toContain('<title>Title of /</title>')
    // Its scripts start loading once it has painted (the markup already holds the page), in their order.
    expect(html).not.toContain('<script type="module"')
    expect(html).toContain(`requestAnimationFrame(function(){setTimeout(function(){["/assets/app.js"].forEach(`)
    // The page's preloads come first in the head, before its stylesheet and scripts.
    expect(html).toContain('<head><meta charset="UTF-8" /><link rel="preload" href="/first.webp" as="image"/><title>')

    const answers = answersIn(html)
    expect(Object.keys(answers)).toEqual([
      '/api/wumpuses?limit=24',
      `/api/tags?limit=${HOME_TAG_CHIPS}`,
      `/api/emoji?limit=${HOME_EMOJI_CHIPS}`,
    ])
    expect(JSON.parse(answers[`/api/emoji?limit=${HOME_EMOJI_CHIPS}`]!.body)).toContainEqual({
      char: '👋',
      name: 'waving hand',
      shortcode: 'wave',
      count: 1,
    })
    for (const [apiPath, answer] of Object.entries(answers)) {
      const api = await fetch(server.url + apiPath)
      expect(answer.body).toBe(await api.text())
      expect(answer.headers['X-Total-Count']).toBe(api.headers.get('x-total-count'))
    }
    expect(globalThis.ssrCalls).toEqual([{ url: '/', answers }])
  })

  it('styles the first paint with the stylesheet itself, with no inlined copy of it', async () => {
    const html = await (await page('/')).text()
    // One ordinary stylesheet before the React tree (whose style elements must come later): nothing to switch
    // on after the first paint, which would style every element a second time.
    const link = /<link rel="stylesheet" href="\/assets\/app.css"[^>]*>/.exec(html)![0]
    expect(link).not.toContain('media=')
    expect(html.indexOf(link)).toBeLessThan(html.indexOf('<div id="root">'))
    expect(html).not.toContain('<style>')
    expect(html).not.toContain('<noscript>')
  })

  it("allows only the template's own inline scripts, never one that rendered content carries", async () => {
    await addWumpus(server.store, { name: 'Unescaped:<script>alert("injected")</script>' })
    const res = await page('/')
    const html = await res.text()
    const csp = res.headers.get('content-security-policy')!
    const allowed = (script: string) => csp.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`)
    const inline = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((match) => match[1]!)
    expect(inline).toContain('alert("injected")')
    expect(allowed('alert("injected")')).toBe(false)
    // The other is the template's: the loader of the module scripts.
    const own = inline.filter((script) => script !== 'alert("injected")')
    expect(own).toHaveLength(1)
    expect(own[0]).toContain('/assets/app.js')
    for (const script of own) expect(allowed(script)).toBe(true)
  })

  it('keeps hostile text from closing the answers script', async () => {
    await addWumpus(server.store, { name: 'Evil</script><script>alert(1)</script>' })
    const html = await (await page('/')).text()
    expect(html).not.toContain('<script>alert(1)')
    expect(JSON.parse(answersIn(html)['/api/wumpuses?limit=24']!.body)[0].name).toBe('Evil</script><script>alert(1)</script>')
  })

  it("keeps text with a replacement pattern ($', $`, $&) as it is, and the page whole", async () => {
    const description = "Costs $' or $` or $& or $$, as typed"
    await addWumpus(server.store, { name: 'Dollar Wumpus', description })
    const html = await (await page('/')).text()
    expect(JSON.parse(answersIn(html)['/api/wumpuses?limit=24']!.body)[0].description).toBe(description)
    expect(html.match(/<div id="root">/g)).toHaveLength(1)
    expect(html.match(/<\/html>/g)).toHaveLength(1)
  })

  it('renders the home page for a search in its URL (what its form sends without JavaScript), once per search', async () => {
    await addWumpus(server.store, { name: 'Searched Moon Wumpus' })
    await addWumpus(server.store, { name: 'Other Wumpus' })
    // As the browser sends it before the app runs: empty fields, and a value the app's router reads as a number.
    const html = await (await page('/?q=moon&sort=&fits=')).text()
    expect(html).toContain('<h1>Page /?q=moon&sort=&fits=</h1><ul><li class="card">Searched Moon Wumpus</li></ul>')
    const answers = answersIn(html)
    expect(Object.keys(answers)).toEqual([
      '/api/wumpuses?limit=24&q=moon',
      `/api/tags?limit=${HOME_TAG_CHIPS}`,
      `/api/emoji?limit=${HOME_EMOJI_CHIPS}`,
    ])
    expect(answers['/api/wumpuses?limit=24&q=moon']!.body).toBe(await (await fetch(server.url + '/api/wumpuses?limit=24&q=moon')).text())
    // The same search written otherwise is the same page.
    await page('/?q=moon')
    expect(globalThis.ssrCalls.map((call) => call.url)).toEqual(['/?q=moon&sort=&fits='])
    expect(Object.keys(answersIn(await (await page('/?q=42&tag=Night')).text()))[0]).toBe('/api/wumpuses?limit=24&q=42&tag=night')
  })

  it('counts a search in the URL against the search limit, and past it serves the app shell (whose own search hears 429)', async () => {
    const factor = 0.05
    const limited = await startTestServer({
      STATIC_DIR: server.config.staticDir,
      SSR_DIR: server.config.ssrDir,
      RATE_LIMIT_FACTOR: String(factor),
    })
    const home = (p: string) => fetch(limited.url + p, { headers: { accept: 'text/html' } })
    try {
      const allowed = Math.round(RATE_LIMITS.search.perIp * factor)
      for (let i = 0; i < allowed; i++) expect(await (await home(`/?q=moon${i}`)).text()).toContain(`<h1>Page /?q=moon${i}</h1>`)
      expect(await (await home('/?q=moon')).text()).toBe(TEMPLATE)
      // The home page without a search is not a search.
      expect(await (await home('/?sort=popular')).text()).toContain('<h1>Page /?sort=popular</h1>')
      expect((await fetch(limited.url + '/api/wumpuses?q=moon')).status).toBe(429)
    } finally {
      await limited.close()
    }
  })

  it('renders a page once until the gallery changes, and answers 304 to a matching ETag', async () => {
    await addWumpus(server.store, { name: 'Cached Wumpus' })
    const first = await page('/')
    const etag = first.headers.get('etag')!
    const again = await page('/')
    expect(again.headers.get('etag')).toBe(etag)
    // The cached page keeps its inline scripts' hashes in the CSP.
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'))
    const unchanged = await page('/', { 'if-none-match': etag })
    expect(unchanged.status).toBe(304)
    expect(globalThis.ssrCalls.length).toBe(1)

    await addWumpus(server.store, { name: 'Newer Wumpus' })
    const changed = await page('/', { 'if-none-match': etag })
    expect(changed.status).toBe(200)
    expect(await changed.text()).toContain('Newer Wumpus')
    expect(globalThis.ssrCalls.length).toBe(2)
  })

  it('renders the about page without API answers', async () => {
    const html = await (await page('/about')).text()
    expect(html).toContain('<h1>Page /about</h1>')
    expect(html).toContain('<title>Title of /about</title>')
    expect(answersIn(html)).toEqual({})
  })

  it('renders /packs and a pack anyone may open with their API answers as a visitor gets them, and the pack as last edited', async () => {
    const wumpus = await addWumpus(server.store, { name: 'Packed Wumpus' })
    const pack = await server.store.packs.insert({
      name: 'Rendered Pack',
      description: 'For the page test',
      wumpusIds: [wumpus._id],
      createdBy: 'admin@example.com',
    })
    const list = await page('/packs')
    expect(list.headers.get('cache-control')).toBe('no-cache')
    const listAnswers = answersIn(await list.text())
    // The path the app asks for (contract/api-paths.ts), as the API answers it.
    expect(Object.keys(listAnswers)).toEqual([packListPath()])
    const api = await fetch(server.url + packListPath())
    expect(listAnswers[packListPath()]!.body).toBe(await api.text())
    expect(listAnswers[packListPath()]!.headers['X-Total-Count']).toBe(api.headers.get('x-total-count'))

    const opened = await page(`/packs/${pack.id}`)
    expect(opened.status).toBe(200)
    expect(opened.headers.get('cache-control')).toBe('no-cache')
    const html = await opened.text()
    expect(html).toContain(`<h1>Page /packs/${pack.id}</h1>`)
    expect(answersIn(html)[`/api/packs/${pack.id}`]!.body).toBe(await (await fetch(`${server.url}/api/packs/${pack.id}`)).text())
    // Its link preview, as the app shell for the page has it without a server build.
    expect(html).toMatch(/<meta property="og:title" content="Rendered Pack" ?\/?>/)
    expect(html).toContain('<title>Rendered Pack · Wumpus Gallery</title>')
    expect(html).toMatch(new RegExp(`<meta property="og:url" content="${server.url}/packs/${pack.id}" ?/?>`))
    const etag = opened.headers.get('etag')!
    expect((await page(`/packs/${pack.id}`, { 'if-none-match': etag })).status).toBe(304)

    // A pack's edit does not move the gallery's revision: the page follows the pack itself.
    await server.store.packs.update(pack.id, { name: 'Renamed Pack' })
    const renamed = await page(`/packs/${pack.id}`, { 'if-none-match': etag })
    expect(renamed.status).toBe(200)
    expect(JSON.parse(answersIn(await renamed.text())[`/api/packs/${pack.id}`]!.body).name).toBe('Renamed Pack')
  })

  it("lists the scripts of the page's route chunks for the loader to ask for with the entry, by the route ids the render matched", async () => {
    const modulesIn = (html: string) =>
      new RegExp(`<script type="application/json" id="${SSR_MODULES_ELEMENT_ID}">(.*?)</script>`).exec(html)?.[1]
    const packs = await page('/packs')
    const html = await packs.text()
    expect(JSON.parse(modulesIn(html)!)).toEqual(['/assets/packs.js', '/assets/cards.js'])
    // The loader (the same on every page, so allowed by its hash) turns the list into modulepreloads.
    const loader = [...html.matchAll(/<script>([^<]*)<\/script>/g)]
      .map((match) => match[1]!)
      .find((script) => script.includes(SSR_MODULES_ELEMENT_ID))!
    expect(loader).toContain("l.rel='modulepreload'")
    expect(packs.headers.get('content-security-policy')).toContain(`'sha256-${createHash('sha256').update(loader).digest('base64')}'`)
    // A route the build lists nothing for (the home page is in the entry) has no list.
    expect(modulesIn(await (await page('/')).text())).toBeUndefined()
  })

  it('renders a pack shared by link for anyone (kept by no shared cache), never a private one or an unknown id', async () => {
    const wumpus = await addWumpus(server.store, { name: 'Personal Wumpus' })
    const personal = (visibility: 'link' | 'private') =>
      server.store.packs.insert({
        name: `A ${visibility} pack`,
        description: '',
        wumpusIds: [wumpus._id],
        createdBy: 'owner@example.com',
        visibility,
      })
    const shared = await personal('link')
    const res = await page(`/packs/${shared.id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(answersIn(await res.text())[`/api/packs/${shared.id}`]!.headers['Cache-Control']).toBe('private, no-store')

    const kept = await personal('private')
    globalThis.ssrCalls = []
    for (const p of [`/packs/${kept.id}`, '/packs/0123456789abcdef01234567', '/packs/not-an-id']) {
      const shell = await page(p)
      // The app shell (the link previews answer these pages with 404), never rendered.
      expect(shell.status, p).toBe(404)
      const body = await shell.text()
      expect(body).not.toContain('A private pack')
      expect(body).toContain('<div id="root"></div>')
    }
    expect(await (await page(`/packs/${shared.id}?from=chat`)).text()).toContain('<div id="root"></div>')
    expect(globalThis.ssrCalls).toEqual([])
  })

  it('serves the app shell when rendering fails, for other pages, and for pages with a query string', async () => {
    await addWumpus(server.store) // a gallery change: no page is cached
    globalThis.ssrFails = true
    const failed = await page('/about')
    expect(failed.status).toBe(200)
    expect(await failed.text()).toBe(TEMPLATE)
    globalThis.ssrFails = false
    for (const p of ['/signIn', '/?utm_source=chat', '/?q=moon&utm_source=chat', '/about?q=moon']) {
      expect(await (await page(p)).text()).toBe(TEMPLATE)
    }
    expect(globalThis.ssrCalls.map((call) => call.url)).toEqual(['/about'])
  })

  it('serves the app shell when there is no server-rendering build', async () => {
    const bare = await startTestServer({ STATIC_DIR: server.config.staticDir, SSR_DIR: path.join(built, 'nothing-here') })
    try {
      expect(await (await fetch(bare.url + '/', { headers: { accept: 'text/html' } })).text()).toBe(TEMPLATE)
    } finally {
      await bare.close()
    }
  })
})

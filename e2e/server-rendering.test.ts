import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { createAccount, signInToken, startSignedIn, uniqueEmail } from './support/accounts'
import { CHROMIUM_ARGS, launchBrowser, newContext, PHONE } from './support/browser'

const baseURL = inject('baseURL')
let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

const cards = (page: Page) => page.getByRole('list', { name: 'Animations' }).getByRole('listitem')

const webpSources = (html: string) =>
  [...html.matchAll(/<source type="image\/webp"(?: media="[^"]*")? srcSet="([^"]*)"/gi)].map((match) => match[1])

async function gallery() {
  const res = await fetch(`${baseURL}/api/wumpuses?limit=24`)
  return {
    total: Number(res.headers.get('x-total-count')),
    items: (await res.json()) as { _id: string; name: string; gif: string; preview?: { still: string } }[],
  }
}

interface PackListed {
  id: string
  name: string
}
interface PackOpened extends PackListed {
  items: { _id: string; name: string }[]
}

async function publicPacks() {
  const res = await fetch(`${baseURL}/api/packs`)
  return (await res.json()) as PackListed[]
}

async function firstPack() {
  const [first] = await publicPacks()
  return (await (await fetch(`${baseURL}/api/packs/${first!.id}`)).json()) as PackOpened
}

/** React text as the browser reads it (React puts `<!-- -->` between adjacent texts). */
const textOf = (html: string) => html.replace(/<!-- -->/g, '')

/**
 * Opens a server-rendered page and waits until the app has hydrated it; answers the errors (a script the
 * Content Security Policy refused among them, even one caught) and the API reads seen.
 */
async function hydrate(page: Page, path: string) {
  const problems: string[] = []
  const apiReads: string[] = []
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content Security Policy refused ${event.violatedDirective} in ${event.sourceFile}`),
    ),
  )
  page.on('console', (message: ConsoleMessage) => message.type() === 'error' && problems.push(message.text()))
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.startsWith('/api/') && !pathname.startsWith('/api/files/')) apiReads.push(request.url())
  })
  await page.goto(path)
  await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0)
  return { problems, apiReads }
}

/** The app's one stylesheet, an ordinary render-blocking link (no media switch). */
const STYLESHEET = /<link rel="stylesheet" crossorigin href="\/assets\/[^"]+\.css">/

describe('server-rendered public pages', () => {
  it('answers / with the heading, the count, the tag chips and the first page of cards already in the HTML', async () => {
    const { total, items } = await gallery()
    const res = await fetch(baseURL + '/', { headers: { accept: 'text/html' } })
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const html = await res.text()
    expect(html.replace(/<!-- -->/g, '')).toContain(`${total} wumpus animation in 3 format</h1>`)
    for (const item of items) expect(html).toContain(`>${item.name}</h2>`)
    const [topTag] = (await (await fetch(`${baseURL}/api/tags?limit=1`)).json()) as { tag: string }[]
    expect(html).toContain(topTag!.tag)
    // The largest paint, the first card's image, is in the markup with a high fetch priority.
    expect(html).toMatch(
      new RegExp(`<img[^>]*src="${items[0]!.gif}"[^>]*fetchpriority="high"|<img[^>]*fetchpriority="high"[^>]*src="${items[0]!.gif}"`, 'i'),
    )
    // Styled by the stylesheet itself from the first paint (render-blocking, no inlined part to restyle after).
    expect(html).toMatch(STYLESHEET)
  })

  it('starts the cards on their still frame, as the first render in the browser does, so hydration matches', async () => {
    // The previews are made in the background after the server starts (and after each publish by other
    // tests); the page follows them. Wait until the first card has its own.
    let html = ''
    let firstStill = ''
    await vi.waitFor(
      async () => {
        const { items } = await gallery()
        const first = items[0]
        expect(first?.preview).toBeDefined()
        firstStill = first!.preview!.still
        html = await (await fetch(baseURL + '/', { headers: { accept: 'text/html' } })).text()
        expect(html.toLowerCase()).toContain(`srcset="${firstStill.toLowerCase()} 2x"`)
        // One WebP source per card with its previews (the others show their GIF until theirs are made).
        expect(webpSources(html)).toHaveLength(items.filter((item) => item.preview).length)
      },
      { timeout: 150_000, interval: 1000 },
    )
    // Each names the card's still at 2x.
    for (const srcset of webpSources(html)) expect(srcset).toMatch(/^\S+\.webp 2x$/)
    // The first card's still is asked for first of all: its preload leads the head, before every script.
    const head = html.slice(0, html.indexOf('</head>'))
    const preload = head.indexOf(`<link rel="preload" href="${firstStill}" as="image" type="image/webp" fetchPriority="high"/>`)
    expect(preload).toBeGreaterThan(0)
    expect(preload).toBeLessThan(head.indexOf('<script'))
  }, 180_000)

  it('shows the gallery and the about page with JavaScript off', async () => {
    const { total, items } = await gallery()
    const context = await newContext(browser, baseURL, { javaScriptEnabled: false, viewport: PHONE })
    const page = await context.newPage()
    await page.goto('/')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${total} wumpus animation in 3 format`)
    expect(await cards(page).count()).toBe(items.length)
    expect(await cards(page).first().getByRole('heading').isVisible()).toBe(true)
    await page.goto('/about')
    expect(await page.title()).toBe('About · Wumpus Gallery')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('About Wumpus Gallery')
    await context.close()
  })

  it('hydrates without asking the API again and without a hydration error, then navigates in the page', async () => {
    const context = await newContext(browser, baseURL, { serviceWorkers: 'block' })
    const page = await context.newPage()
    const problems: string[] = []
    const apiReads: string[] = []
    page.on('console', (message: ConsoleMessage) => message.type() === 'error' && problems.push(message.text()))
    page.on('pageerror', (error) => problems.push(error.message))
    page.on('request', (request) => {
      const { pathname } = new URL(request.url())
      if (pathname.startsWith('/api/') && !pathname.startsWith('/api/files/')) apiReads.push(request.url())
    })
    await page.goto('/')
    await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0)
    expect(apiReads, apiReads.join()).toEqual([])
    expect(problems).toEqual([])

    // The hydrated page is the app: the nav link changes the page without loading a new document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }))
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click()
    await page.getByRole('heading', { level: 1, name: 'About Wumpus Gallery' }).waitFor()
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true)
    await context.close()
  })

  it("paints the first card's image before hydrating (React would hold a slow phone's main thread first)", async () => {
    const context = await newContext(browser, baseURL, { serviceWorkers: 'block', viewport: PHONE })
    const page = await context.newPage()
    let releaseImage = () => {}
    const imageHeld = new Promise<void>((resolve) => (releaseImage = resolve))
    let imageAsked = false
    // Every image is held: the first card's is its still, or its GIF while its previews are being made.
    await page.route(/\/api\/files\//, async (route) => {
      imageAsked = true
      await imageHeld
      await route.continue()
    })
    const hydrated = () =>
      page.evaluate(() => Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')))
    await page.goto('/', { waitUntil: 'domcontentloaded' })
    // The scripts have run; the first card's image is on its way, so React waits for it.
    await page.waitForFunction(() => performance.getEntriesByName('hydration-waits-for-images').length > 0)
    expect(imageAsked).toBe(true)
    expect(await hydrated()).toBe(false)
    releaseImage()
    await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0)
    expect(await hydrated()).toBe(true)
    await context.close()
  })

  it('hydrates without an error for someone who chose the dark theme (the server renders the light one)', async () => {
    const context = await newContext(browser, baseURL, { serviceWorkers: 'block', colorScheme: 'dark' })
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'))
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto('/')
    await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0)
    await page.getByRole('button', { name: 'Switch to light theme' }).waitFor()
    expect(problems).toEqual([])
    await context.close()
  })

  it('sends a search the app tidies (too long, spaced) to its tidied URL, which renders and hydrates without an error', async () => {
    const long = 'w'.repeat(120)
    const tidied = `/?q=${'w'.repeat(100)}`
    // 121 UTF-16 units whose 100th is the first half of an emoji: the cut leaves that emoji out whole.
    const longEmoji = `a${'😀'.repeat(60)}`
    const tidiedEmoji = `/?q=${encodeURIComponent(`a${'😀'.repeat(49)}`)}`
    // The page the router would tidy is not rendered (it would be empty, and kept for the tidied URL too): it redirects.
    for (const [asked, to] of [
      [`/?q=${long}`, tidied],
      [`/?q=${encodeURIComponent(longEmoji)}`, tidiedEmoji],
      ['/?q=%20%20zebra%20', '/?q=zebra'],
      // What the search form sends without JavaScript: its empty fields too.
      ['/?q=zebra&sort=&fits=', '/?q=zebra'],
    ]) {
      const res = await fetch(`${baseURL}${asked}`, { headers: { accept: 'text/html' }, redirect: 'manual' })
      expect([res.status, res.headers.get('location')]).toEqual([302, to])
    }
    const html = await (await fetch(`${baseURL}${tidied}`, { headers: { accept: 'text/html' } })).text()
    expect(html).toContain(`No animations match`)

    const context = await newContext(browser, baseURL, { serviceWorkers: 'block', viewport: PHONE })
    for (const [asked, to] of [
      [`/?q=${long}`, tidied],
      [`/?q=${encodeURIComponent(longEmoji)}`, tidiedEmoji],
    ]) {
      const page = await context.newPage()
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(error.message))
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()))
      await page.goto(asked!)
      await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0)
      expect(new URL(page.url()).search).toBe(to!.slice(1))
      await page.getByRole('heading', { name: /^No animations match/ }).waitFor()
      expect(problems, asked).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width)
      await page.close()
    }
    await context.close()
  })

  it('answers /packs and a pack page with their content already in the HTML', async () => {
    const packs = await publicPacks()
    expect(packs.length).toBeGreaterThan(0)
    const list = await fetch(`${baseURL}/packs`, { headers: { accept: 'text/html' } })
    expect(list.headers.get('cache-control')).toBe('no-cache')
    const listHtml = textOf(await list.text())
    expect(listHtml).toContain('Sticker packs</h1>')
    expect(listHtml).toContain('<title>Sticker packs · Wumpus Gallery</title>')
    for (const pack of packs) expect(listHtml).toMatch(new RegExp(`<h2[^>]*>${pack.name}</h2>`))
    expect(listHtml).toMatch(STYLESHEET)

    const pack = await firstPack()
    const res = await fetch(`${baseURL}/packs/${pack.id}`, { headers: { accept: 'text/html' } })
    expect(res.status).toBe(200)
    const html = textOf(await res.text())
    expect(html).toMatch(new RegExp(`<h1[^>]*>${pack.name}</h1>`))
    expect(html).toContain(`<title>${pack.name} · Wumpus Gallery</title>`)
    // Its link preview, as the app shell for the page had it.
    expect(html).toMatch(new RegExp(`<meta property="og:title" content="${pack.name}" ?/?>`))
    expect(html).toContain('Download for your chat app</h2>')
    for (const item of pack.items) expect(html).toContain(`>${item.name}</h2>`)
  })

  it('shows /packs and a pack page with JavaScript off', async () => {
    const pack = await firstPack()
    const context = await newContext(browser, baseURL, { javaScriptEnabled: false, viewport: PHONE })
    const page = await context.newPage()
    await page.goto('/packs')
    await page.getByRole('heading', { level: 1, name: 'Sticker packs' }).waitFor()
    await page.getByRole('link', { name: `Open pack: ${pack.name}` }).click()
    await page.getByRole('heading', { level: 1, name: pack.name }).waitFor()
    const stickers = page.getByRole('list', { name: `Stickers in ${pack.name}` }).getByRole('heading', { level: 2 })
    expect(await stickers.allTextContents()).toEqual(pack.items.map((item) => item.name))
    await context.close()
  })

  it('hydrates /packs and a pack page without asking the API again and without a hydration error, on a phone and in the dark theme', async () => {
    const pack = await firstPack()
    for (const options of [{ viewport: PHONE, isMobile: true, hasTouch: true }, { colorScheme: 'dark' as const }]) {
      const context = await newContext(browser, baseURL, { serviceWorkers: 'block', ...options })
      if (options.colorScheme) await context.addInitScript(() => localStorage.setItem('theme', 'dark'))
      for (const path of ['/packs', `/packs/${pack.id}`]) {
        const page = await context.newPage()
        const { problems, apiReads } = await hydrate(page, path)
        expect(apiReads, `${path}: ${apiReads.join()}`).toEqual([])
        expect(problems, path).toEqual([])
        await page.close()
      }
      // The hydrated list is the app: opening a pack changes the page without loading a new document.
      const page = await context.newPage()
      await hydrate(page, '/packs')
      await page.evaluate(() => Object.assign(window, { sameDocument: true }))
      await page.getByRole('link', { name: `Open pack: ${pack.name}` }).click()
      await page.getByRole('heading', { level: 1, name: pack.name }).waitFor()
      expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true)
      await context.close()
    }
  })

  it("asks for /packs' and a pack page's route chunks together with the entry, not once the entry has run and found them", async () => {
    const pack = await firstPack()
    const context = await newContext(browser, baseURL, { serviceWorkers: 'block' })
    for (const path of ['/packs', `/packs/${pack.id}`]) {
      const html = await (await fetch(baseURL + path, { headers: { accept: 'text/html' } })).text()
      const listed = JSON.parse(/<script type="application\/json" id="ssr-modules">(.*?)<\/script>/.exec(html)?.[1] ?? '[]') as string[]
      expect(listed.length, path).toBeGreaterThan(0)
      // The entry's scripts, which the page's loader adds once it has painted: the entry runs once all have arrived.
      const entry = JSON.parse(/setTimeout\(function\(\)\{(\[[^\]]*\])\.forEach/.exec(html)![1]!) as string[]
      const page = await context.newPage()
      // The modulepreloads added, per task: a MutationObserver's callback runs once after each task.
      await page.addInitScript(() => {
        const batches: string[][] = []
        Object.assign(window, { preloadBatches: batches })
        new MutationObserver((records) => {
          const added = records.flatMap((record) => [...record.addedNodes])
          const preloads = added.filter((node): node is HTMLLinkElement => node instanceof HTMLLinkElement && node.rel === 'modulepreload')
          if (preloads.length > 0) batches.push(preloads.map((link) => new URL(link.href).pathname))
        }).observe(document, { childList: true, subtree: true })
      })
      const { problems } = await hydrate(page, path)
      expect(problems, path).toEqual([])
      const timings = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
          path: new URL(e.name).pathname,
          startTime: e.startTime,
          responseEnd: e.responseEnd,
        })),
      )
      const arrived = (script: string) => timings.find((t) => t.path === script)?.responseEnd ?? NaN
      const entryArrived = Math.max(...entry.map(arrived))
      expect(entryArrived, `${path}: the entry's scripts ${entry.join()}`).not.toBeNaN()
      // The loader appends a modulepreload for each in the tasks right after the one that adds the entry's scripts,
      // so each is asked for before the entry can run. (Start times are not compared with the entry's arrival: on a
      // busy machine a request made then can start a few ms after the entry's last script arrived.) A few a task:
      // each request costs the main thread a little, and fifty in one task kept a slow phone's taps waiting.
      const preloaded = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => new URL(link.href).pathname),
      )
      const batches = await page.evaluate(() => (window as unknown as { preloadBatches: string[][] }).preloadBatches)
      const loaderBatches = batches.map((batch) => batch.filter((module) => listed.includes(module))).filter((batch) => batch.length > 0)
      expect(loaderBatches.flat().sort(), path).toEqual([...listed].sort())
      expect(
        Math.max(...loaderBatches.map((batch) => batch.length)),
        `${path}: the loader's modulepreloads in one task`,
      ).toBeLessThanOrEqual(6)
      for (const module of listed) {
        expect(
          timings.find((t) => t.path === module),
          `${path}: ${module} loaded`,
        ).toBeDefined()
        expect(preloaded, `${path}: ${module} preloaded by the loader`).toContain(module)
      }
      await page.close()
    }
    await context.close()
  })

  it('hydrates /, /packs and a pack page without zod or the report form: read answers are trusted, the form loads when asked for', async () => {
    const pack = await firstPack()
    const context = await newContext(browser, baseURL, { serviceWorkers: 'block' })
    for (const path of ['/', '/packs', `/packs/${pack.id}`]) {
      const page = await context.newPage()
      const { problems } = await hydrate(page, path)
      expect(problems, path).toEqual([])
      const scripts = await page.evaluate(() => {
        const interactiveAt = performance.getEntriesByName('app-interactive')[0]!.startTime
        return performance
          .getEntriesByType('resource')
          .filter((entry) => entry.startTime < interactiveAt && /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
          .map((entry) => new URL(entry.name).pathname)
      })
      expect(scripts.length, path).toBeGreaterThan(0)
      for (const script of scripts) {
        const code = await (await fetch(baseURL + script)).text()
        // zod's core names its schema classes so; the report form's text is in its own chunk.
        expect(code, `${path}: ${script}`).not.toContain('$ZodObject')
        expect(code, `${path}: ${script}`).not.toContain('Anything that helps the admins see the problem')
      }
      await page.close()
    }
    // The form still opens at the first tap.
    const page = await context.newPage()
    await hydrate(page, `/packs/${pack.id}`)
    await page.getByRole('button', { name: 'Report a problem' }).click()
    await page
      .getByRole('dialog', { name: `Report ${pack.name}` })
      .getByRole('radio', { name: 'Spam or advertising' })
      .waitFor()
    await context.close()
  })

  it("renders a pack shared by link for anyone with the link, and its owner's own view once signed in; a private one not at all", async () => {
    const email = uniqueEmail('ssr-pack')
    await createAccount(email, 'ssr-pack-pass-1', 'Pack Owner', { verified: true })
    const token = await signInToken(email, 'ssr-pack-pass-1')
    const { items } = await gallery()
    const make = async (name: string, visibility: 'link' | 'private') => {
      const res = await fetch(`${baseURL}/api/me/packs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name, description: 'Made for the rendering test', wumpusIds: [items[0]!._id], visibility }),
      })
      expect(res.status, await res.clone().text()).toBe(201)
      return ((await res.json()) as PackListed).id
    }
    const shared = await make('Shared Rendered Pack', 'link')
    const kept = await make('Private Rendered Pack', 'private')

    const res = await fetch(`${baseURL}/packs/${shared}`, { headers: { accept: 'text/html' } })
    // Kept by no shared cache, as its API answer is not.
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const html = textOf(await res.text())
    expect(html).toMatch(/<h1[^>]*>Shared Rendered Pack<\/h1>/)
    expect(html).toContain(`>${items[0]!.name}</h2>`)
    const hidden = await fetch(`${baseURL}/packs/${kept}`, { headers: { accept: 'text/html' } })
    expect(hidden.status).toBe(404)
    expect(await hidden.text()).not.toContain('Private Rendered Pack')

    // Its owner, signed in, gets their own view (Edit) from the same first HTML, without an error.
    const context = await newContext(browser, baseURL, { serviceWorkers: 'block', viewport: PHONE })
    await startSignedIn(context, token)
    const page = await context.newPage()
    const { problems } = await hydrate(page, `/packs/${shared}`)
    await page.getByRole('link', { name: 'Edit' }).waitFor()
    await page.getByRole('link', { name: '← My packs' }).waitFor()
    expect(problems).toEqual([])
    await page.goto(`/packs/${kept}`)
    await page.getByRole('heading', { level: 1, name: 'Private Rendered Pack' }).waitFor()
    await context.close()
  })

  it('lets the browser keep both pages in its back/forward cache', async () => {
    // Playwright turns the back/forward cache off by default; this browser has it on.
    const bfcacheBrowser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    })
    try {
      const page = await (await newContext(bfcacheBrowser, baseURL)).newPage()
      for (const path of ['/', '/about']) {
        await page.goto(path)
        // The first visit installs the service worker, whose taking control of the page would evict it from
        // the cache if it happened while the page is away: a one-time event, not what this test is about.
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
        await page.evaluate(() => Object.assign(window, { keptInBfcache: true }))
        await page.goto('/manifest.webmanifest')
        await page.goBack({ waitUntil: 'commit' })
        await expect.poll(() => page.evaluate(() => 'keptInBfcache' in window)).toBe(true)
      }
    } finally {
      await bfcacheBrowser.close()
    }
  })
})

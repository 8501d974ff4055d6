import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { inspectMedia } from '../backend/src/media/inspect/inspect'
import { formatBytes } from '../app/lib/format-bytes'
import { sessionToken, startSignedIn } from './support/accounts'
import { appRunning, DESKTOP, launchBrowser, newContext, PHONE } from './support/browser'

const baseURL = inject('baseURL')
let browser: Browser
let total: number
let first: { _id: string; name: string; gif: string; apng: string; lottie: string; u_email: string }

beforeAll(async () => {
  browser = await launchBrowser()
  const res = await fetch(`${baseURL}/api/wumpuses?limit=1`)
  total = Number(res.headers.get('x-total-count'))
  ;[first] = await res.json()
  token = await sessionToken()
})
afterAll(() => browser?.close())

let token: string

async function openPage(path: string, viewport = DESKTOP, signedIn = false): Promise<Page> {
  const context = await newContext(browser, baseURL, { viewport })
  if (signedIn) await startSignedIn(context, token)
  const page = await context.newPage()
  await page.goto(path)
  await appRunning(page)
  return page
}

const cards = (page: Page) => page.getByRole('list', { name: 'Animations' }).getByRole('listitem')

/** How many cards sit side by side in the first row. */
async function columnsInFirstRow(page: Page): Promise<number> {
  const boxes = await cards(page).evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top))
  return boxes.filter((top) => Math.abs(top - boxes[0]!) < 2).length
}

describe('the home gallery, served as npm start serves it', () => {
  it('shows the count of the seeded demo gallery and a card for each animation', async () => {
    expect(total).toBeGreaterThanOrEqual(12)
    const page = await openPage('/')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`${total} wumpus animation in 3 format`)
    expect(await cards(page).count()).toBe(Math.min(total, 24))
    await expect.poll(() => page.getByText("Don't know what is wumpus?").isVisible()).toBe(true)

    const card = cards(page).first()
    expect(await card.getByRole('heading').textContent()).toBe(first.name)
    const author = card.getByRole('link', { name: /^by / })
    expect(await author.getAttribute('href')).toBe(`/profile/${first.u_email}`)
    expect(await card.getByRole('link', { name: /Download/ }).getAttribute('href')).toBe(`/wumpus/${first._id}`)
    // The picture really loads and decodes in the browser, at 300x300 on the card: the still once the
    // server has made the previews, the GIF before.
    const image = card.locator('picture img')
    const gifWidth = inspectMedia(new Uint8Array(await (await fetch(baseURL + first.gif)).arrayBuffer()), 'gif').width
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    const shown = await image.evaluate((img: HTMLImageElement) => ({ src: img.currentSrc, width: img.naturalWidth }))
    // The still is 600 px for 2x screens, offered as 2x: its density-corrected width is the card's.
    expect(shown.width).toBe(shown.src.endsWith('.webp') ? 300 : gifWidth)
    expect(await image.evaluate((img: HTMLImageElement) => [img.width, img.height])).toEqual([300, 300])
    await page.context().close()
  })

  it('does not load the Firebase SDK on the home page, and lottie-web only once the page is interactive', async () => {
    const context = await newContext(browser, baseURL)
    const page = await context.newPage()
    const scripts: Promise<{ url: string; body: string }>[] = []
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push(res.text().then((body) => ({ url: res.url(), body })))
    })
    await page.goto('/')
    await cards(page).first().waitFor()
    await appRunning(page)
    // The first card is on screen: its Lottie plays.
    await expect
      .poll(() => cards(page).first().getByTestId('sticker-motion').getAttribute('data-motion'), { timeout: 60_000 })
      .toBe('lottie')
    await page.waitForLoadState('networkidle')
    const loaded = await Promise.all(scripts)
    // The Auth SDK names its REST host.
    expect(loaded.filter(({ body }) => body.includes('identitytoolkit.googleapis.com'))).toEqual([])
    // lottie-web (and lottie-react) name the event it sends once an animation is drawn.
    const lottie = loaded.filter(({ body }) => body.includes('DOMLoaded')).map(({ url }) => new URL(url).pathname)
    expect(lottie.length).toBeGreaterThan(0)
    const asked = await page.evaluate(
      (paths) => ({
        interactive: performance.getEntriesByName('app-interactive')[0]!.startTime,
        player: Math.min(
          ...performance
            .getEntriesByType('resource')
            .filter((entry) => paths.includes(new URL(entry.name).pathname))
            .map((entry) => entry.startTime),
        ),
      }),
      lottie,
    )
    expect(asked.player).toBeGreaterThanOrEqual(asked.interactive)
    await context.close()
  })

  it('lays the cards out in 4 columns at 1280 px and 1 column at 375 px', async () => {
    const desktop = await openPage('/', DESKTOP)
    await cards(desktop).first().waitFor()
    expect(await columnsInFirstRow(desktop)).toBe(4)
    await desktop.context().close()

    const phone = await openPage('/', PHONE)
    await cards(phone).first().waitFor()
    expect(await columnsInFirstRow(phone)).toBe(1)
    await phone.context().close()
  })

  it('keeps the chosen theme across a reload', async () => {
    const page = await openPage('/')
    const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))
    const before = await scheme()
    const other = before === 'dark' ? 'light' : 'dark'
    await page.getByRole('button', { name: `Switch to ${other} theme` }).click()
    await expect.poll(scheme).toBe(other)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe(other)
    await page.reload()
    await expect.poll(scheme).toBe(other)
    await page.context().close()
  })

  it('opens the detail page from a card', async () => {
    const page = await openPage('/', DESKTOP, true)
    await cards(page)
      .first()
      .getByRole('link', { name: /Download/ })
      .click()
    await page.waitForURL(`**/wumpus/${first._id}`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(first.name)
    await page.context().close()
  })
})

describe('the detail page', () => {
  it.each([
    ['GIF', 'gif', 'gif'],
    ['APNG', 'apng', 'apng'],
    ['Lottie', 'lottie', 'lottie'],
  ] as const)('downloads the %s file under its original name with valid bytes', async (label, field, format) => {
    const page = await openPage(`/wumpus/${first._id}`, DESKTOP, true)
    const originalName = decodeURIComponent(first[field].split('/').pop()!)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: new RegExp(`^${label}: download`) }).click(),
    ])
    expect(download.suggestedFilename()).toBe(originalName)
    const bytes = new Uint8Array(readFileSync(await download.path()))
    expect(inspectMedia(bytes, format).format).toBe(format)
    await page.context().close()
  })

  it("loads without the admin forms' emoji data (about 100 KB gzip)", async () => {
    const context = await newContext(browser, baseURL, { viewport: PHONE })
    await startSignedIn(context, token)
    const page = await context.newPage()
    const scripts: string[] = []
    page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname))
    await page.goto(`/wumpus/${first._id}`)
    await appRunning(page)
    await page.getByRole('button', { name: /^GIF: download/ }).waitFor()
    await page.waitForLoadState('networkidle')
    expect(scripts.length).toBeGreaterThan(0)
    expect(scripts.filter((script) => script.includes('/emoji-data-'))).toEqual([])
    await context.close()
  })

  it('keeps a download on the device, counted on the Saved page, until the user clears it', async () => {
    const page = await openPage(`/wumpus/${first._id}`, DESKTOP, true)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^GIF: download/ }).click()])
    const bytes = readFileSync(await download.path()).length
    // Within the app, as a user goes there: a new document could cut off the IndexedDB writes that
    // follow the download.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Saved' }).click()
    const kept = page.getByText(/^Kept downloads:/)
    // The file is written to IndexedDB just after the download starts.
    await expect.poll(() => kept.textContent(), { timeout: 10_000 }).not.toBe('Kept downloads: 0 B of 50.0 MB')
    expect(await kept.textContent()).toBe(`Kept downloads: ${formatBytes(bytes)} of 50.0 MB`)
    await page.getByRole('button', { name: 'Clear kept downloads' }).click()
    await expect.poll(() => kept.textContent()).toBe('Kept downloads: 0 B of 50.0 MB')
    await page.context().close()
  })

  it('opens each format in a new tab', async () => {
    const page = await openPage(`/wumpus/${first._id}`, DESKTOP, true)
    for (const label of ['GIF', 'APNG', 'Lottie']) {
      const link = page.getByRole('link', { name: new RegExp(`^${label}: view`) })
      expect(await link.getAttribute('target')).toBe('_blank')
    }
    await page.context().close()
  })

  it('says so for an unknown animation', async () => {
    const page = await openPage('/wumpus/0123456789abcdef01234567', DESKTOP, true)
    expect((await fetch(`${baseURL}/wumpus/0123456789abcdef01234567`, { headers: { accept: 'text/html' } })).status).toBe(404)
    await expect
      .poll(() =>
        page
          .getByText(/not found/i)
          .first()
          .isVisible(),
      )
      .toBe(true)
    await page.context().close()
  })

  it("says the same on the unknown animation's remix editor and edit form, answered 404 too", async () => {
    const detail = await openPage('/wumpus/0123456789abcdef01234567', DESKTOP, true)
    const heading = await detail.getByRole('heading', { level: 1 }).textContent()
    await detail.context().close()
    for (const pathname of ['/wumpus/0123456789abcdef01234567/remix', '/editWumpus/0123456789abcdef01234567']) {
      expect((await fetch(baseURL + pathname, { headers: { accept: 'text/html' } })).status, pathname).toBe(404)
    }
    const remix = await openPage('/wumpus/0123456789abcdef01234567/remix', DESKTOP, true)
    await remix.getByRole('heading', { level: 1, name: heading! }).waitFor()
    await remix.context().close()
  })

  it("answers 404 for the profile of someone with no published animation, 200 for a contributor's", async () => {
    expect((await fetch(`${baseURL}/profile/${first.u_email}`, { headers: { accept: 'text/html' } })).status).toBe(200)
    expect((await fetch(`${baseURL}/profile/no-one-here@example.com`, { headers: { accept: 'text/html' } })).status).toBe(404)
  })
})

describe('unknown routes', () => {
  it('show a friendly not-found page with a way home', async () => {
    const page = await openPage('/no/such/page')
    expect((await fetch(`${baseURL}/no/such/page`, { headers: { accept: 'text/html' } })).status).toBe(404)
    await expect
      .poll(() =>
        page
          .getByText(/not found|can't find|cannot find/i)
          .first()
          .isVisible(),
      )
      .toBe(true)
    expect(await page.getByRole('link', { name: /home|gallery/i }).count()).toBeGreaterThan(0)
    await page.context().close()
  })
})

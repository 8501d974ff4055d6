// What a person does on the server-rendered home page before its scripts have run (seconds on a slow phone)
// is not lost: the search form is a real form, what was typed is searched once the app runs, and taps on the
// buttons are replayed. The app's scripts are held back until the test lets them through.
import type { ConsoleMessage, Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { expectToast } from './support/accounts'
import { appRunning, newContext, PHONE, browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

const WORD = 'wav'
const cards = (page: Page) => page.getByRole('list', { name: 'Animations' }).getByRole('listitem')
const cardNames = (page: Page) => cards(page).getByRole('heading').allTextContents()
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search animations' })

async function searchResults(q: string) {
  const res = await fetch(`${baseURL}/api/wumpuses?q=${encodeURIComponent(q)}`)
  return { names: ((await res.json()) as { name: string }[]).map((item) => item.name), total: Number(res.headers.get('x-total-count')) }
}

/** A phone (touch, narrow) with no service worker: the page's requests are the ones the test sees. */
async function phone(options: Parameters<typeof newContext>[2] = {}): Promise<Page> {
  const context = await openContext({ viewport: PHONE, hasTouch: true, serviceWorkers: 'block', ...options })
  return context.newPage()
}

/** Errors the page reports (a hydration mismatch, a script the CSP refused). */
function problemsOf(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message: ConsoleMessage) => message.type() === 'error' && problems.push(message.text()))
  page.on('pageerror', (error) => problems.push(error.message))
  return problems
}

/** Holds every request for the app's scripts until `release` is called. */
async function holdAppScripts(page: Page): Promise<{ release: () => void; asked: () => boolean }> {
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  let asked = false
  await page.route(/\/assets\/[^?]*\.js(\?|$)/, async (route) => {
    asked = true
    await released
    await route.continue()
  })
  return { release, asked: () => asked }
}

const hydrated = (page: Page) =>
  page.evaluate(() => Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')))

describe('the home page before its scripts have run', () => {
  it('searches for what was typed and saves the card that was tapped, once the app runs', async () => {
    const expected = await searchResults(WORD)
    expect(expected.names.length).toBeGreaterThan(0)
    const [target] = expected.names as [string]
    const page = await phone()
    const problems = problemsOf(page)
    const scripts = await holdAppScripts(page)
    await page.goto('/', { waitUntil: 'domcontentloaded' })

    // The server-rendered page, its inline script running (allowed by the CSP), the app's scripts asked for but held.
    const card = page.getByRole('listitem', { name: target })
    await card.waitFor()
    await expect.poll(() => scripts.asked()).toBe(true)
    expect(await page.evaluate(() => 'earlyActions' in window)).toBe(true)
    expect(await cardNames(page)).not.toEqual(expected.names)

    await searchBox(page).tap()
    await searchBox(page).pressSequentially(WORD)
    const save = card.getByRole('button', { name: `Save ${target} for offline` })
    await save.tap()
    // The tap shows it was taken.
    expect(await save.getAttribute('aria-busy')).toBe('true')
    expect(await hydrated(page)).toBe(false)

    scripts.release()
    await page.waitForURL((url) => url.search === `?q=${WORD}`)
    await expect.poll(() => cardNames(page)).toEqual(expected.names)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`${expected.total} wumpus animation in 3 format`)
    expect(await searchBox(page).inputValue()).toBe(WORD)
    await card.getByRole('button', { name: `Remove ${target} from offline` }).waitFor()
    await card.getByText('Saved for offline').waitFor()
    await appRunning(page)
    expect(await searchBox(page).inputValue()).toBe(WORD)
    expect(problems).toEqual([])
  })

  it('switches the theme at once and opens the menu once the app runs', async () => {
    const page = await phone({ colorScheme: 'light' })
    const problems = problemsOf(page)
    const scripts = await holdAppScripts(page)
    await page.goto('/', { waitUntil: 'domcontentloaded' })
    const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))
    await page.getByRole('button', { name: 'Switch to dark theme' }).tap()
    expect(await scheme()).toBe('dark')
    const menu = page.getByRole('button', { name: 'Open menu' })
    await menu.tap()
    expect(await menu.getAttribute('aria-busy')).toBe('true')
    expect(await hydrated(page)).toBe(false)

    scripts.release()
    await page.getByRole('button', { name: 'Close menu' }).waitFor()
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-busy')).toBeNull()
    await page.getByRole('button', { name: 'Switch to light theme' }).waitFor()
    expect(await scheme()).toBe('dark')
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
    expect(problems).toEqual([])
  })

  it('sends the search with Enter as a plain form, to the server-rendered results, then hydrates them', async () => {
    const expected = await searchResults(WORD)
    const page = await phone()
    const problems = problemsOf(page)
    const scripts = await holdAppScripts(page)
    await page.goto('/', { waitUntil: 'domcontentloaded' })
    await cards(page).first().waitFor()
    await searchBox(page).pressSequentially(WORD)
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('q') === WORD, { waitUntil: 'domcontentloaded' }),
      searchBox(page).press('Enter'),
    ])
    expect(new URL(page.url()).search).toBe(`?q=${WORD}`)
    // The new page holds the results before any script has run; its URL has no empty fields (?q=wav&sort=&fits=).
    expect(await cardNames(page)).toEqual(expected.names)
    expect(await searchBox(page).inputValue()).toBe(WORD)
    expect(await hydrated(page)).toBe(false)

    scripts.release()
    await appRunning(page)
    expect(await hydrated(page)).toBe(true)
    expect(await cardNames(page)).toEqual(expected.names)
    expect(new URL(page.url()).search).toBe(`?q=${WORD}`)
    expect(problems).toEqual([])
  })

  it('searches without JavaScript: the form loads /?q=… rendered by the server', async () => {
    const expected = await searchResults(WORD)
    const page = await phone({ javaScriptEnabled: false })
    await page.goto('/')
    await searchBox(page).fill(WORD)
    await Promise.all([page.waitForURL((url) => url.searchParams.get('q') === WORD), searchBox(page).press('Enter')])
    expect(await cardNames(page)).toEqual(expected.names)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${expected.total} wumpus animation in 3 format`)
    expect(await searchBox(page).inputValue()).toBe(WORD)
    expect(await page.title()).toBe(`“${WORD}” · Wumpus Gallery`)
  })
})

describe('a pack page before its scripts have run', () => {
  it('copies the link tapped before the app ran, once it runs', async () => {
    const [pack] = (await (await fetch(`${baseURL}/api/packs?limit=1`)).json()) as { id: string; name: string }[]
    const page = await phone({ permissions: ['clipboard-read', 'clipboard-write'] })
    const problems = problemsOf(page)
    const scripts = await holdAppScripts(page)
    await page.goto(`/packs/${pack!.id}`, { waitUntil: 'domcontentloaded' })
    await page.getByRole('heading', { level: 1, name: pack!.name }).waitFor()
    await expect.poll(() => scripts.asked()).toBe(true)

    const copy = page.getByRole('button', { name: 'Copy link' })
    await copy.tap()
    expect(await copy.getAttribute('aria-busy')).toBe('true')
    expect(await hydrated(page)).toBe(false)

    scripts.release()
    await expectToast(page, 'Link copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/packs/${pack!.id}`)
    expect(await copy.getAttribute('aria-busy')).toBeNull()
    expect(problems).toEqual([])
  })
})

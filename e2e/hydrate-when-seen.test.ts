// On the server-rendered home page a phone hydrates only the cards near the screen: the rest keep their
// server HTML until they scroll near or someone reaches for them, and a tap on one of those is never lost.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { appRunning, launchBrowser, newContext, PHONE } from './support/browser'

const baseURL = inject('baseURL')
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  browser = await launchBrowser()
  context = await newContext(browser, baseURL, { viewport: PHONE, hasTouch: true, serviceWorkers: 'block' })
})
afterAll(async () => {
  await context?.close().catch(() => {})
  await browser?.close()
})

/** The detail page asks a visitor to sign in first, at its own address: a link's click ends there, in the same document. */
async function followedInApp(page: Page, href: string | null): Promise<void> {
  await page.waitForURL((url) => url.pathname === href)
  await page.getByRole('heading', { level: 1 }).waitFor()
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
}

const cards = (page: Page) => page.getByRole('list', { name: 'Animations' }).getByRole('listitem')
/** React marks the elements it has hydrated with its own properties. */
const hydrated = (card: Locator) => card.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber')))

async function openHome(): Promise<{ page: Page; first: Locator; last: Locator }> {
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()))
  await page.goto('/')
  await appRunning(page)
  expect(await cards(page).count()).toBeGreaterThan(4)
  expect(problems).toEqual([])
  return { page, first: cards(page).first(), last: cards(page).last() }
}

describe('cards on the server-rendered home page', () => {
  it('hydrates the cards on screen, and the others as they scroll near', async () => {
    const { page, first, last } = await openHome()
    await expect.poll(() => hydrated(first)).toBe(true)
    expect(await hydrated(last)).toBe(false)
    // Its sticker's server HTML is all there meanwhile.
    expect(await last.getByRole('img').getAttribute('alt')).toBeTruthy()

    await last.scrollIntoViewIfNeeded()
    await expect.poll(() => hydrated(last)).toBe(true)
    // Hydrated, it works like any card: Save is enabled and saves.
    const name = await last.getByRole('heading').textContent()
    await last.getByRole('button', { name: `Save ${name} for offline` }).click()
    await last.getByRole('button', { name: `Remove ${name} from offline` }).waitFor()
    await page.close()
  })

  it('handles a click on a card not yet hydrated in the app (no full page load)', async () => {
    const { page, last } = await openHome()
    expect(await hydrated(last)).toBe(false)
    const name = await last.getByRole('heading').textContent()
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true))

    // A click with no pointer or focus before it (the card stays off screen): React gets it all the same.
    const link = last.getByRole('link', { name: `Download ${name}` })
    const href = await link.getAttribute('href')
    await link.dispatchEvent('click', { button: 0 })
    await followedInApp(page, href)
    await page.close()
  })

  it('hydrates a card reached with the keyboard before it is on screen', async () => {
    const { page, last } = await openHome()
    const name = await last.getByRole('heading').textContent()
    const link = last.getByRole('link', { name: `Download ${name}` })
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true))
    const href = await link.getAttribute('href')
    await link.focus()
    await page.keyboard.press('Enter')
    await followedInApp(page, href)
    await page.close()
  })
})

import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { HOME_EMOJI_CHIPS } from '../contract/limits'
import { DEMO_ADMIN, sessionToken, signInToken, startSignedIn } from './support/accounts'
import { appRunning, controlledByServiceWorker, newContext, PHONE, browserForTests } from './support/browser'
import { publishAnimation } from './support/publish'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

async function open(path: string, options: Parameters<typeof newContext>[2] = {}): Promise<Page> {
  const context = await openContext(options)
  const page = await context.newPage()
  await page.goto(path)
  await appRunning(page)
  return page
}

const cards = (page: Page) => page.getByRole('list', { name: 'Animations' }).getByRole('listitem')
const cardNames = (page: Page) => cards(page).getByRole('heading').allTextContents()
const api = async (path: string) => {
  const res = await fetch(baseURL + path)
  return {
    items: (await res.json()) as Array<{ _id: string; name: string; downloads: number }>,
    total: Number(res.headers.get('x-total-count')),
  }
}

describe('searching the gallery in a browser', () => {
  it('finds animations as the words are typed, and keeps the search in a link that opens the same results', async () => {
    const page = await open('/', { viewport: PHONE })
    await cards(page).first().waitFor()
    await page.getByRole('searchbox', { name: 'Search animations' }).pressSequentially('SLÉE')
    await page.waitForURL(/\?q=SL%C3%89E$/)

    const expected = await api('/api/wumpuses?q=SL%C3%89E')
    expect(expected.items.map((item) => item.name)).toContain('Sleepy Wumpus')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`${expected.total} wumpus animation in 3 format`)
    await expect.poll(() => cardNames(page)).toEqual(expected.items.map((item) => item.name))

    // A tag chip narrows it further; the link opens the same list elsewhere.
    await page
      .getByRole('list', { name: 'Tags' })
      .getByRole('link', { name: /^#sleepy \d+ animations?$/ })
      .click()
    await page.waitForURL(/tag=sleepy/)
    const shared = await open(new URL(page.url()).pathname + new URL(page.url()).search)
    await cards(shared).first().waitFor()
    expect(await cardNames(shared)).toEqual(await cardNames(page))
    expect(await shared.getByRole('searchbox', { name: 'Search animations' }).inputValue()).toBe('SLÉE')
  })

  it('finds animations by an emoji, from its chip (in the first paint) and typed or pasted in the search box', async () => {
    // The demo gallery has 👋 once, and the chips (most used first, then by character) leave it out: one more
    // animation with it brings it in. It is deleted at the end.
    const adminToken = await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password)
    const hello = await publishAnimation(adminToken, 'Hello Again Wumpus', { emoji: ['👋'] })
    try {
      const chips = async () => (await (await fetch(`${baseURL}/api/emoji?limit=${HOME_EMOJI_CHIPS}`)).json()) as Array<{ char: string }>
      await expect.poll(async () => (await chips()).map((entry) => entry.char)).toContain('👋')
      // The chip is in the server-rendered page, with the emoji's name for screen readers.
      const html = await (await fetch(baseURL + '/', { headers: { accept: 'text/html' } })).text()
      expect(html.replace(/<!-- -->/g, '')).toMatch(
        /<ul[^>]*aria-label="Emoji"[^>]*>.*<a[^>]*href="\/\?q=%F0%9F%91%8B"[^>]*>.*?waving hand/s,
      )

      const expected = (await api('/api/wumpuses?q=%F0%9F%91%8B')).items.map((item) => item.name)
      expect(expected).toEqual(expect.arrayContaining(['Waving Wumpus', 'Hello Again Wumpus']))
      const page = await open('/', { viewport: PHONE })
      const emojiRow = page.getByRole('list', { name: 'Emoji' })
      await emojiRow.getByRole('link', { name: /^👋 waving hand, \d+ animations$/ }).click()
      await page.waitForURL(/\?q=%F0%9F%91%8B$/)
      await expect.poll(() => cardNames(page)).toEqual(expected)
      expect(await page.getByRole('searchbox', { name: 'Search animations' }).inputValue()).toBe('👋')
      // Chosen, the chip clears the search.
      await emojiRow.getByRole('link', { name: '👋 waving hand, chosen: clear the search' }).click()
      await page.waitForURL((url) => url.search === '')
      await expect.poll(async () => (await cardNames(page)).length).toBeGreaterThan(expected.length)

      // Typed in the search box, and pasted with a skin tone (as a phone's keyboard may give it).
      const box = page.getByRole('searchbox', { name: 'Search animations' })
      await box.pressSequentially('👋')
      await page.waitForURL(/\?q=%F0%9F%91%8B$/)
      await expect.poll(() => cardNames(page)).toEqual(expected)
      await box.fill('👋🏽')
      await page.waitForURL(/\?q=%F0%9F%91%8B%F0%9F%8F%BD$/)
      await expect.poll(() => cardNames(page)).toEqual(expected)
      await emojiRow.getByRole('link', { name: '👋 waving hand, chosen: clear the search' }).waitFor()
    } finally {
      await fetch(`${baseURL}/api/wumpus/${hello._id}`, { method: 'DELETE', headers: { authorization: `Bearer ${adminToken}` } })
    }
  })

  it('helps when nothing matches', async () => {
    const page = await open('/?q=zebra')
    await page.getByRole('heading', { name: 'No animations match “zebra”' }).waitFor()
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('0 wumpus animation in 3 format')
    await page.getByRole('link', { name: 'Clear search' }).click()
    await cards(page).first().waitFor()
    expect(new URL(page.url()).search).toBe('')
  })

  it('counts a download on the detail page and orders the most downloaded first', async () => {
    const context = await openContext()
    await startSignedIn(context, await sessionToken())
    const page = await context.newPage()
    // One no other test downloads: a visitor's downloads of an animation count once a day, and every test
    // here downloads from the same address.
    const [target] = (await api('/api/wumpuses?q=yawning%20wumpus')).items
    expect(target?.name).toBe('Yawning Wumpus')
    const before = target!.downloads
    await page.goto(`/wumpus/${target!._id}`)
    await page.getByText(/^(Downloaded \d+ times?|Not downloaded yet: be the first)$/).waitFor()
    await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^GIF: download/ }).click()])
    // The page adds one's own download that counted at once (no reload).
    const counted = `Downloaded ${before + 1} time${before + 1 === 1 ? '' : 's'}`
    await page.getByText(counted).waitFor()
    // The counts reach the store in batches, every few seconds (newest-first lists may show older counts
    // for a while: the animation's own answer and the popular order follow at once).
    await expect
      .poll(async () => ((await (await fetch(`${baseURL}/api/wumpus/${target!._id}`)).json()) as { downloads: number }).downloads, {
        timeout: 20_000,
      })
      .toBe(before + 1)
    // A second download the same day is not counted: the page stays, and the server's count too.
    await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^APNG: download/ }).click()])
    await page.reload()
    await page.getByText(counted).waitFor()

    await page.goto('/?sort=popular')
    await cards(page).first().waitFor()
    const { items } = await api('/api/wumpuses?sort=popular')
    expect(await cardNames(page)).toEqual(items.map((item) => item.name))
    const counts = items.map((item) => item.downloads)
    expect(counts).toEqual([...counts].sort((a, b) => b - a))
  })
})

describe('filtering by chat app', () => {
  type Stickers = Array<{ platform: string; status: string }>
  const stickersOf = async (id: string) => (await (await fetch(`${baseURL}/api/wumpus/${id}/stickers`)).json()) as Stickers

  /** More exports may land while the page loads: it shows what the API answers once both agree (reloading until then). */
  async function showsWhatTheApiAnswers(page: Page, apiPath: string) {
    await expect
      .poll(
        async () => {
          const { items, total } = await api(apiPath)
          const heading = await page.getByRole('heading', { level: 1 }).textContent()
          const sameCards = (await cardNames(page)).join() === items.map((item) => item.name).join()
          if (sameCards && heading === `${total} wumpus animation in 3 format`) return true
          await page.reload()
          await page.getByRole('heading', { level: 1 }).waitFor()
          return false
        },
        { timeout: 60_000 },
      )
      .toBe(true)
  }

  beforeAll(async () => {
    // Exports are made in the background after start, one animation at a time: wait for the first Telegram one.
    const someFit = async () => expect((await api('/api/wumpuses?fits=telegram')).total).toBeGreaterThan(0)
    await vi.waitFor(someFit, { timeout: 170_000, interval: 1000 })
  }, 180_000)

  it('keeps the stickers whose file for the chosen app is ready, as their stickers list says', async () => {
    const page = await open('/', { viewport: PHONE })
    // The home page is server-rendered: choose once the app runs in it.
    await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0)
    await page.getByRole('combobox', { name: 'Fits a platform' }).selectOption({ label: 'Fits: Telegram' })
    await page.waitForURL(/\?fits=telegram$/)
    await showsWhatTheApiAnswers(page, '/api/wumpuses?fits=telegram&limit=100')

    // Exactly those whose Telegram file is ready. An export no longer pending is final (nothing is edited
    // here), so those read before the list are compared with it; ones still being made are left out.
    const all = (await api('/api/wumpuses?limit=100')).items
    const settled = new Map<string, boolean>()
    for (const item of all) {
      const stickers = await stickersOf(item._id)
      if (stickers.some((s) => s.status === 'pending')) continue
      settled.set(item._id, stickers.find((s) => s.platform === 'telegram')!.status === 'ready')
    }
    const fits = new Set((await api('/api/wumpuses?fits=telegram&limit=100')).items.map((item) => item._id))
    expect(settled.size).toBeGreaterThan(0)
    for (const [id, ready] of settled) expect(fits.has(id), all.find((item) => item._id === id)!.name).toBe(ready)

    // With words, from a link.
    const words = await open('/?q=wumpus&fits=slack')
    await words.getByRole('heading', { level: 1 }).waitFor()
    expect(await words.getByRole('combobox', { name: 'Fits a platform' }).inputValue()).toBe('slack')
    await showsWhatTheApiAnswers(words, '/api/wumpuses?q=wumpus&fits=slack&limit=100')
  })
})

describe('searching offline', () => {
  it('answers a search from the animations kept on this device', async () => {
    const context = await openContext()
    const page = await context.newPage()
    await page.goto('/')
    await cards(page).first().waitFor()
    await controlledByServiceWorker(page)
    // The first page of the gallery is kept once the worker controls the page.
    await cards(page).first().waitFor()

    await context.setOffline(true)
    await page.goto('/?q=sleep')
    await page.getByText('You are offline: these are the matches among the animations stored on this device.').waitFor()
    expect(await cardNames(page)).toContain('Sleepy Wumpus')
    for (const name of await cardNames(page)) expect(name).not.toBe('Waving Wumpus')

    await page.goto('/?q=zebra')
    await page.getByRole('heading', { name: 'No animations match “zebra”' }).waitFor()
    await page.getByText(/You are offline, so only the animations stored on this device were searched/).waitFor()
  })
})

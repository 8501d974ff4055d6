import { readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { stickerExportListSchema, type StickerExport } from '../contract/stickers'
import { wumpusSchema, type Wumpus } from '../contract/wumpus'
import { checkStickerFile } from '../backend/src/media/platform-check'
import { sessionToken, startSignedIn } from './support/accounts'
import { appRunning, launchBrowser, newContext, PHONE } from './support/browser'

const baseURL = inject('baseURL')
let browser: Browser
let token: string
let waving: Wumpus
const contexts: BrowserContext[] = []

/** The demo mascot once the server has made its previews and exports (in the background after start). */
async function readyDemo(name: string): Promise<Wumpus> {
  let found: Wumpus | undefined
  await vi.waitFor(
    async () => {
      const list = wumpusSchema.array().parse(await (await fetch(`${baseURL}/api/wumpuses?limit=100`)).json())
      found = list.find((w) => w.name === name && w.preview)
      expect(found).toBeDefined()
      const stickers = stickerExportListSchema.parse(await (await fetch(`${baseURL}/api/wumpus/${found!._id}/stickers`)).json())
      expect(stickers.every((s) => s.status !== 'pending')).toBe(true)
    },
    { timeout: 150_000, interval: 1000 },
  )
  return found!
}

async function stickersOf(id: string): Promise<StickerExport[]> {
  return stickerExportListSchema.parse(await (await fetch(`${baseURL}/api/wumpus/${id}/stickers`)).json())
}

beforeAll(async () => {
  browser = await launchBrowser()
  token = await sessionToken()
  waving = await readyDemo('Waving Wumpus')
}, 180_000)
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => {})))
  await browser?.close()
})

async function context(options: Parameters<typeof newContext>[2] = {}): Promise<BrowserContext> {
  const created = await newContext(browser, baseURL, options)
  contexts.push(created)
  return created
}

async function download(page: Page, name: RegExp): Promise<{ fileName: string; bytes: Uint8Array }> {
  const [event] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()])
  return { fileName: event.suggestedFilename(), bytes: new Uint8Array(readFileSync(await event.path())) }
}

describe('gallery cards', () => {
  it('show the WebP preview through <picture> on a phone, with the GIF only as the sized fallback', async () => {
    const page = await (await context({ viewport: PHONE })).newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(new URL(request.url()).pathname))
    await page.goto('/')
    const card = page.getByRole('listitem', { name: 'Waving Wumpus' })
    const image = card.getByRole('img', { name: `Waving Wumpus: ${waving.description}` })
    await image.waitFor()
    // Other tests may have published newer animations: bring the card on screen. There its animated
    // 1x WebP is what Chromium shows (off screen it would be the still).
    await card.scrollIntoViewIfNeeded()
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc), { timeout: 15_000 })
      .toBe(baseURL + waving.preview!.webp)
    const picture = await image.evaluate((img: HTMLImageElement) => ({
      parent: img.parentElement!.tagName,
      sources: [...img.parentElement!.querySelectorAll('source')].map((s) => [s.type, s.media, s.srcset]),
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
      src: img.getAttribute('src'),
      natural: img.naturalWidth,
    }))
    expect(picture).toEqual({
      parent: 'PICTURE',
      sources: [
        ['image/webp', '(prefers-reduced-motion: reduce)', `${waving.preview!.still} 2x`],
        ['image/webp', '', `${waving.preview!.webp} 1x, ${waving.preview!.webp2x} 2x`],
      ],
      width: '300',
      height: '300',
      src: waving.gif,
      natural: 300,
    })
    expect(requested).not.toContain(new URL(waving.gif, baseURL).pathname)
  })

  it('show the still first frame to people who ask for reduced motion', async () => {
    const page = await (await context({ viewport: PHONE, reducedMotion: 'reduce' })).newPage()
    await page.goto('/')
    await appRunning(page)
    const card = page.getByRole('listitem', { name: 'Waving Wumpus' })
    const image = card.getByRole('img')
    await image.waitFor()
    await card.scrollIntoViewIfNeeded()
    const shown = () => image.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)
    await expect.poll(shown, { timeout: 15_000 }).toBe(baseURL + waving.preview!.still)
    // It moves while pointed at, and while the keyboard is on the card, then rests again.
    await image.hover()
    await expect.poll(shown, { timeout: 15_000 }).toBe(baseURL + waving.preview!.webp)
    await page.mouse.move(0, 0)
    await expect.poll(shown, { timeout: 15_000 }).toBe(baseURL + waving.preview!.still)
    await card.getByRole('link', { name: 'Download Waving Wumpus' }).focus()
    await expect.poll(shown, { timeout: 15_000 }).toBe(baseURL + waving.preview!.webp)
  })
})

describe('Use it in', () => {
  it('downloads each platform file under its clear name, fit for the platform, and again offline byte for byte', async () => {
    const ctx = await context()
    await startSignedIn(ctx, token)
    const page = await ctx.newPage()
    await page.goto(`/wumpus/${waving._id}`)
    await page.getByRole('heading', { level: 1, name: 'Waving Wumpus' }).waitFor()
    await page.evaluate(() => navigator.serviceWorker.ready)
    if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)

    const stickers = await stickersOf(waving._id)
    const discord = stickers.find((s) => s.platform === 'discord')!
    const online = await download(page, /^Discord: download Waving Wumpus as 320x320 APNG/)
    expect(online.fileName).toBe('waving-wumpus.discord.png')
    expect(online.bytes.length).toBe(discord.bytes)
    expect(checkStickerFile('discord', online.bytes).problems).toEqual([])

    // Saved for offline, the platform files come along.
    await page.getByRole('button', { name: 'Save for offline' }).click()
    await page.getByRole('button', { name: 'Remove from offline' }).waitFor({ timeout: 30_000 })
    const served: Record<string, Uint8Array> = {}
    for (const s of stickers.filter((s) => s.status === 'ready'))
      served[s.platform] = new Uint8Array(await (await fetch(baseURL + s.url!)).arrayBuffer())

    await ctx.setOffline(true)
    try {
      await page.reload()
      await page.getByRole('heading', { level: 1, name: 'Waving Wumpus' }).waitFor()
      for (const [platform, label] of [
        ['telegram', 'Telegram'],
        ['whatsapp', 'WhatsApp'],
        ['slack', 'Slack'],
      ] as const) {
        const offline = await download(page, new RegExp(`^${label}: download`))
        expect(offline.fileName).toBe(stickers.find((s) => s.platform === platform)!.fileName)
        expect(offline.bytes).toEqual(served[platform])
      }
    } finally {
      await ctx.setOffline(false)
    }
    await page.getByRole('button', { name: 'Remove from offline' }).click()
    await page.getByRole('button', { name: 'Save for offline' }).waitFor()
  })
})

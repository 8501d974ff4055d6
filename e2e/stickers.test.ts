import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { stickerExportListSchema, type StickerExport } from '../contract/stickers'
import { wumpusSchema, type Wumpus } from '../contract/wumpus'
import { checkStickerFile } from '../backend/src/media/exports/platform-check'
import { decodeGif } from '../backend/test/fixtures/decode-gif'
import { sessionToken, startSignedIn } from './support/accounts'
import { appRunning, controlledByServiceWorker, newContext, PHONE, browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)
let token: string
let waving: Wumpus

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
  token = await sessionToken()
  waving = await readyDemo('Waving Wumpus')
}, 180_000)

async function context(options: Parameters<typeof newContext>[2] = {}): Promise<BrowserContext> {
  const created = await openContext(options)
  return created
}

async function download(page: Page, name: RegExp): Promise<{ fileName: string; bytes: Uint8Array }> {
  const [event] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()])
  return { fileName: event.suggestedFilename(), bytes: new Uint8Array(readFileSync(await event.path())) }
}

describe('gallery cards', () => {
  /** The markup of the card's Lottie player: it changes from frame to frame while the sticker plays. */
  const drawing = (card: Locator) =>
    card
      .getByTestId('sticker-motion')
      .locator('svg')
      .evaluate((svg) => svg.innerHTML)

  it('play the Lottie over the still first frame on a phone, never loading the animated WebP or the GIF', async () => {
    const page = await (await context({ viewport: PHONE })).newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(new URL(request.url()).pathname))
    const lottieAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === new URL(waving.lottie, baseURL).pathname, {
      timeout: 120_000,
    })
    await page.goto('/')
    const card = page.getByRole('listitem', { name: 'Waving Wumpus' })
    const frame = card.getByTestId('sticker-motion')
    const still = card.locator('picture img')
    // Other tests may have published newer animations: bring the card on screen (its still loads lazily).
    await card.scrollIntoViewIfNeeded()
    // The server-rendered card shows the still: 600 px offered as 2x, so 300 density-corrected px.
    await expect
      .poll(() => still.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc), { timeout: 60_000 })
      .toBe(baseURL + waving.preview!.still)
    expect(
      await still.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.getAttribute('width'), img.getAttribute('height')]),
    ).toEqual([300, '300', '300'])
    // On screen once the app runs, its Lottie plays.
    await appRunning(page)
    await card.scrollIntoViewIfNeeded()
    await expect.poll(() => frame.getAttribute('data-motion'), { timeout: 60_000 }).toBe('lottie')
    expect(await frame.getAttribute('data-playing')).toBe('true')
    expect(await card.getByRole('img', { name: `Waving Wumpus: ${waving.description}` }).evaluate((el) => el.tagName)).toBe('DIV')
    // Painted with the page: not a compositor layer of its own per sticker (lottie-web's translate3d), which
    // every frame would place and commit again.
    expect(await frame.locator('svg').evaluate((svg) => getComputedStyle(svg).transform)).toBe('none')
    const first = await drawing(card)
    await expect.poll(() => drawing(card), { timeout: 60_000 }).not.toBe(first)
    // The Lottie comes compressed and cacheable like every file.
    const headers = (await lottieAnswer).headers()
    expect(headers['content-encoding']).toMatch(/^(gzip|br)$/)
    expect(headers['cache-control']).toContain('immutable')
    const loaded = requested.filter((path) => [waving.gif, waving.preview!.webp, waving.preview!.webp2x].includes(path))
    expect(loaded).toEqual([])
  })

  it('show the still first frame to people who ask for reduced motion, and play while pointed at or focused', async () => {
    const page = await (await context({ viewport: PHONE, reducedMotion: 'reduce' })).newPage()
    await page.goto('/')
    await appRunning(page)
    const card = page.getByRole('listitem', { name: 'Waving Wumpus' })
    const frame = card.getByTestId('sticker-motion')
    await card.scrollIntoViewIfNeeded()
    const still = card.locator('picture img')
    await expect
      .poll(() => still.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc), { timeout: 60_000 })
      .toBe(baseURL + waving.preview!.still)
    expect(await frame.getAttribute('data-motion')).toBe('still')
    // It moves while pointed at, and while the keyboard is on the card, and rests in between.
    await still.hover()
    await expect.poll(() => frame.getAttribute('data-playing'), { timeout: 60_000 }).toBe('true')
    const first = await drawing(card)
    await expect.poll(() => drawing(card), { timeout: 60_000 }).not.toBe(first)
    await page.mouse.move(0, 0)
    await expect.poll(() => frame.getAttribute('data-playing')).toBe('false')
    // Paused, it rests on its frame: 30 screen refreshes later (15 of its own frames at 60 Hz) it has not moved.
    const resting = await drawing(card)
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          let frames = 0
          const next = () => (++frames === 30 ? resolve() : requestAnimationFrame(next))
          requestAnimationFrame(next)
        }),
    )
    expect(await drawing(card)).toBe(resting)
    await card.getByRole('link', { name: 'Download Waving Wumpus' }).focus()
    await expect.poll(() => frame.getAttribute('data-playing')).toBe('true')
  })
})

describe('Use it in', () => {
  it('downloads each platform file under its clear name, fit for the platform, and again offline byte for byte', async () => {
    const ctx = await context()
    await startSignedIn(ctx, token)
    const page = await ctx.newPage()
    await page.goto(`/wumpus/${waving._id}`)
    await page.getByRole('heading', { level: 1, name: 'Waving Wumpus' }).waitFor()
    await controlledByServiceWorker(page)

    const stickers = await stickersOf(waving._id)
    const discord = stickers.find((s) => s.platform === 'discord')!
    const online = await download(page, /^Discord: download Waving Wumpus as 320x320 APNG/)
    expect(online.fileName).toBe('waving-wumpus.discord.png')
    expect(online.bytes.length).toBe(discord.bytes)
    expect(checkStickerFile('discord', online.bytes).problems).toEqual([])

    // The emoji, read by the test GIF decoder and by gunzip: emoji-sized and within their caps.
    const discordEmoji = await download(page, /^Discord emoji: download Waving Wumpus as 128x128 GIF/)
    expect(discordEmoji.fileName).toBe('waving-wumpus.discord-emoji.gif')
    const gif = decodeGif(discordEmoji.bytes)
    expect([gif.width, gif.height, gif.loop, gif.frames.length]).toEqual([
      128,
      128,
      0,
      stickers.find((s) => s.platform === 'discord-emoji')!.frames,
    ])
    expect(discordEmoji.bytes.length).toBeLessThanOrEqual(256 * 1024)
    const telegramEmoji = await download(page, /^Telegram emoji: download Waving Wumpus as 100x100 TGS/)
    expect(telegramEmoji.fileName).toBe('waving-wumpus.telegram-emoji.tgs')
    const emojiLottie = JSON.parse(gunzipSync(telegramEmoji.bytes).toString('utf8')) as Record<string, number>
    expect([emojiLottie.w, emojiLottie.h, emojiLottie.fr]).toEqual([100, 100, 60])
    expect((emojiLottie.op! - emojiLottie.ip!) / emojiLottie.fr!).toBeLessThanOrEqual(3)
    expect(telegramEmoji.bytes.length).toBeLessThanOrEqual(64_000)

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
        ['telegram-emoji', 'Telegram emoji'],
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

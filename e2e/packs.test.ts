import { readFileSync } from 'node:fs'
import type { BrowserContext } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { packDetailSchema } from '../contract/pack'
import { checkStickerFile } from '../backend/src/media/exports/platform-check'
import { DEMO_ADMIN, expectToast, signInToken, startSignedIn } from './support/accounts'
import { controlledByServiceWorker, newContext, PHONE, browserForTests } from './support/browser'
import { readZip } from '../backend/test/support/read-zip'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

async function context(options: Parameters<typeof newContext>[2] = {}): Promise<BrowserContext> {
  const created = await openContext(options)
  return created
}

describe('packs', () => {
  it('an admin makes a pack; a visitor opens it, downloads its WhatsApp ZIP and saves it for offline', async () => {
    const name = `Greeting Pack ${Date.now().toString(36)}`
    const adminContext = await context()
    await startSignedIn(adminContext, await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password))
    const admin = await adminContext.newPage()
    await admin.goto('/dashboard/packs')
    await admin.getByRole('link', { name: 'New pack' }).click()
    await admin.getByRole('heading', { level: 1, name: 'New pack' }).waitFor()
    await admin.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    await admin.getByRole('searchbox', { name: 'Search the gallery for stickers' }).fill('wumpus')
    for (const sticker of ['Waving Wumpus', 'Sleepy Wumpus', 'Cheering Wumpus'])
      await admin.getByRole('button', { name: `Add ${sticker}` }).click()
    await admin.getByRole('button', { name: 'Move Cheering Wumpus up' }).click()
    await admin.getByRole('button', { name: 'Create pack' }).click()
    await expectToast(admin, 'Pack created')
    await admin.waitForURL(/\/packs\/[0-9a-f]{24}$/)
    const id = admin.url().split('/').pop()!

    // A visitor (not signed in, on a phone) finds it under Packs.
    const visitorContext = await context({ viewport: PHONE })
    const page = await visitorContext.newPage()
    await page.goto('/packs')
    await page.getByRole('link', { name: `Open pack: ${name}` }).click()
    await page.getByRole('heading', { level: 1, name }).waitFor()
    const stickers = page.getByRole('list', { name: `Stickers in ${name}` }).getByRole('heading', { level: 2 })
    expect(await stickers.allTextContents()).toEqual(['Waving Wumpus', 'Cheering Wumpus', 'Sleepy Wumpus'])

    // The demo mascots' platform files are made in the background after start: the page follows them.
    const whatsapp = page.getByRole('link', { name: `Download ZIP: ${name} for WhatsApp` })
    await whatsapp.waitFor({ timeout: 150_000 })
    const [download] = await Promise.all([page.waitForEvent('download'), whatsapp.click()])
    expect(download.suggestedFilename()).toBe(`${name.toLowerCase().replaceAll(' ', '-')}.whatsapp.zip`)
    const entries = new Map((await readZip(readFileSync(await download.path()))).map((entry) => [entry.name, entry.bytes]))
    const webps = [...entries.keys()].filter((entry) => entry.endsWith('.whatsapp.webp'))
    expect(webps).toEqual(['1-waving-wumpus.whatsapp.webp', '2-cheering-wumpus.whatsapp.webp', '3-sleepy-wumpus.whatsapp.webp'])
    for (const entry of webps) expect(checkStickerFile('whatsapp', entries.get(entry)!).problems).toEqual([])
    expect(entries.get('tray.png')!.length).toBeLessThanOrEqual(50_000)

    // Saved for offline, the pack opens without a network with its stickers.
    await controlledByServiceWorker(page)
    await page.getByRole('button', { name: 'Save for offline' }).click()
    await page.getByRole('button', { name: 'Remove from offline' }).waitFor({ timeout: 60_000 })
    await visitorContext.setOffline(true)
    try {
      await page.reload()
      await page.getByRole('heading', { level: 1, name }).waitFor()
      expect(await stickers.allTextContents()).toEqual(['Waving Wumpus', 'Cheering Wumpus', 'Sleepy Wumpus'])
      // Each sticker shows its still, then plays its saved Lottie, offline.
      const frames = page.getByRole('list', { name: `Stickers in ${name}` }).getByTestId('sticker-motion')
      for (const frame of await frames.all()) {
        await frame.scrollIntoViewIfNeeded()
        const still = frame.locator('picture img')
        await expect
          .poll(() => still.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 60_000 })
          .toBe(true)
        await expect.poll(() => frame.getAttribute('data-motion'), { timeout: 60_000 }).toBe('lottie')
      }
      await page.getByRole('button', { name: 'Remove from offline' }).waitFor()
      await page.getByText('You are offline: this needs the network').first().waitFor()
    } finally {
      await visitorContext.setOffline(false)
    }

    const detail = packDetailSchema.parse(await (await fetch(`${baseURL}/api/packs/${id}`)).json())
    expect(detail.downloads.find((d) => d.platform === 'line')).toMatchObject({
      fits: false,
      message: 'LINE sets have 8, 16 or 24 stickers; this pack has 3.',
    })
    await page.getByText('LINE sets have 8, 16 or 24 stickers; this pack has 3.').waitFor()
  }, 240_000)
})

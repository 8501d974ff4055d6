import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core'
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { stickerExportListSchema, type StickerExport } from '../contract/stickers'
import { wumpusSchema, type Wumpus } from '../contract/wumpus'
import { expectToast, sessionToken, startSignedIn } from './support/accounts'
import { controlledByServiceWorker, newContext, PHONE, browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)
let token: string
let waving: Wumpus

beforeAll(async () => {
  token = await sessionToken()
  // Once its still exists (made in the background after start), so the PNG has the still's size.
  await vi.waitFor(
    async () => {
      const list = wumpusSchema.array().parse(await (await fetch(`${baseURL}/api/wumpuses?limit=100`)).json())
      waving = list.find((w) => w.name === 'Waving Wumpus' && w.preview)!
      expect(waving).toBeDefined()
    },
    { timeout: 150_000, interval: 1000 },
  )
}, 180_000)

/** A signed-in page whose clipboard the test may read, collecting errors. */
async function detailPage(options: Parameters<typeof newContext>[2] = {}): Promise<{ page: Page; problems: string[] }> {
  const context = await openContext({ permissions: ['clipboard-read', 'clipboard-write'], ...options })
  await startSignedIn(context, token)
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message: ConsoleMessage) => message.type() === 'error' && problems.push(message.text()))
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto(`/wumpus/${waving._id}`)
  await page.getByRole('heading', { level: 1, name: 'Waving Wumpus' }).waitFor()
  return { page, problems }
}

describe('share and copy on the detail page', () => {
  it('copies the link where the browser has no share sheet, and the link opens the sticker', async () => {
    const { page, problems } = await detailPage({ viewport: PHONE })
    // Chromium on Linux has no Web Share: the button copies the link.
    expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined')
    await page.getByRole('button', { name: 'Copy link' }).click()
    await expectToast(page, 'Link copied')
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(`${baseURL}/wumpus/${waving._id}`)
    await page.goto(copied)
    await page.getByRole('heading', { level: 1, name: 'Waving Wumpus' }).waitFor()
    expect(problems).toEqual([])
  })

  it('copies the still as a PNG of its size, and offers GIF copy only where the clipboard takes GIF', async () => {
    const { page, problems } = await detailPage()
    const still = await fetch(`${baseURL}/api/wumpus/${waving._id}/still.png`)
    expect(still.headers.get('content-type')).toBe('image/png')
    const bytes = Buffer.from(await still.arrayBuffer())
    // PNG IHDR: width and height at bytes 16 and 20.
    const size = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
    expect(size.width).toBeGreaterThan(0)

    await page.getByRole('button', { name: 'Copy still: copy Waving Wumpus as a still PNG' }).click()
    await expectToast(page, 'Copied Waving Wumpus as a still PNG')
    const held = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read()
      const blob = await item!.getType('image/png')
      const bitmap = await createImageBitmap(blob)
      return { types: item!.types, width: bitmap.width, height: bitmap.height }
    })
    expect(held).toEqual({ types: ['image/png'], ...size })

    const gifCopy = await page.evaluate(() => typeof ClipboardItem.supports === 'function' && ClipboardItem.supports('image/gif'))
    expect(await page.getByRole('button', { name: /^Copy GIF/ }).count()).toBe(gifCopy ? 1 : 0)
    expect(problems).toEqual([])
  })
})

/** Stands in for a phone's share sheet (Chromium on Linux has none): keeps what it was given, as a page sees it. */
async function withShareSheet(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const sent: { name: string; type: string; bytes: number[] }[] = []
    Object.assign(window, { sentFiles: sent })
    Object.defineProperty(navigator, 'canShare', { value: (data: ShareData) => Boolean(data.files?.length) })
    Object.defineProperty(navigator, 'share', {
      value: async (data: ShareData) => {
        for (const file of data.files ?? [])
          sent.push({ name: file.name, type: file.type, bytes: [...new Uint8Array(await file.arrayBuffer())] })
      },
    })
  })
}

/** A signed-in phone with a share sheet, on the sticker's page. */
async function phoneWithShareSheet(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await openContext({ viewport: PHONE, hasTouch: true })
  await withShareSheet(context)
  await startSignedIn(context, token)
  const page = await context.newPage()
  await page.goto(`/wumpus/${waving._id}`)
  return { context, page }
}

const sentFiles = (page: Page) =>
  page.evaluate(() => (window as unknown as { sentFiles: { name: string; type: string; bytes: number[] }[] }).sentFiles)

/** The stand-in sheet got `count` files, the last one a file at `url`: its name, type and bytes. */
async function expectSent(page: Page, count: number, url: string, name: string, type: string): Promise<void> {
  await expect.poll(() => sentFiles(page).then((files) => files.length)).toBe(count)
  const file = (await sentFiles(page))[count - 1]!
  expect(file).toMatchObject({ name, type })
  expect(new Uint8Array(file.bytes)).toEqual(new Uint8Array(await (await fetch(baseURL + url)).arrayBuffer()))
}

/** The last of `count` files sent is the sticker's GIF. */
const expectSentGif = (page: Page, count = 1) => expectSent(page, count, waving.gif, waving.gif.split('/').pop()!, 'image/gif')

describe('send the sticker file to a chat app', () => {
  it('hands the share sheet the GIF itself, and each chat app’s own file: their names, types and bytes', async () => {
    // Chat app files are made in the background after start: the page is opened once WhatsApp's is ready.
    let whatsapp: StickerExport | undefined
    await vi.waitFor(
      async () => {
        const stickers = stickerExportListSchema.parse(await (await fetch(`${baseURL}/api/wumpus/${waving._id}/stickers`)).json())
        whatsapp = stickers.find((sticker) => sticker.platform === 'whatsapp' && sticker.status === 'ready')
        expect(whatsapp).toBeDefined()
      },
      { timeout: 150_000, interval: 1000 },
    )
    const { page } = await phoneWithShareSheet()
    await page.getByRole('button', { name: 'Send Waving Wumpus as a GIF' }).tap()
    await expectSentGif(page)

    // Under "Use it in", each chat app's own file goes to the sheet as well.
    await page.getByRole('button', { name: /^Send Waving Wumpus as .* for WhatsApp$/ }).tap()
    await expectSent(page, 2, whatsapp!.url!, whatsapp!.fileName!, 'image/webp')
  }, 240_000)

  it('sends a saved sticker offline, from the copy kept on the device', async () => {
    const { context, page } = await phoneWithShareSheet()
    await controlledByServiceWorker(page)
    await page.getByRole('button', { name: 'Save for offline' }).tap()
    await page.getByRole('button', { name: 'Remove from offline' }).waitFor({ timeout: 30_000 })

    await context.setOffline(true)
    await page.reload()
    await page.getByRole('button', { name: 'Send Waving Wumpus as a GIF' }).tap()
    await expectSentGif(page)
  })

  it('sends a saved sticker from the Saved page', async () => {
    const { page } = await phoneWithShareSheet()
    await controlledByServiceWorker(page)
    await page.getByRole('button', { name: 'Save for offline' }).tap()
    await page.getByRole('button', { name: 'Remove from offline' }).waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Open menu' }).tap()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Saved' }).tap()
    await page.getByRole('button', { name: 'Send Waving Wumpus as a GIF' }).tap()
    await expectSentGif(page)
  })

  it('sends from a gallery card on a phone, once the card has hydrated', async () => {
    const { page } = await phoneWithShareSheet()
    await page.goto('/')
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Waving Wumpus', exact: true }) })
    await card.scrollIntoViewIfNeeded()
    await card.getByRole('button', { name: 'Send Waving Wumpus as a GIF' }).tap()
    await expectSentGif(page)
  })

  it('downloads the GIF where files cannot be shared, and says so', async () => {
    const { page, problems } = await detailPage({ acceptDownloads: true })
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Send Waving Wumpus as a GIF' }).click(),
    ])
    const name = waving.gif.split('/').pop()!
    expect(download.suggestedFilename()).toBe(name)
    await expectToast(page, `This browser cannot send files to other apps: ${name} was downloaded instead.`)
    // Each chat app's file keeps its Download button only: no Send that could not send.
    await page.getByRole('button', { name: /^WhatsApp: download/ }).waitFor()
    expect(await page.getByRole('button', { name: /^Send .* for / }).count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('drags out of the page as the GIF file', async () => {
    const { page } = await detailPage()
    const dragged = await page.evaluate(() => {
      const data = new DataTransfer()
      document.querySelector('[draggable="true"]')!.dispatchEvent(new DragEvent('dragstart', { dataTransfer: data, bubbles: true }))
      return { file: data.getData('DownloadURL'), link: data.getData('text/uri-list') }
    })
    expect(dragged).toEqual({
      file: `image/gif:${waving.gif.split('/').pop()}:${baseURL}${waving.gif}`,
      link: `${baseURL}${waving.gif}`,
    })
  })
})

describe('link previews', () => {
  it('gives bots the sticker’s tags, and the same document still becomes the app without errors', async () => {
    for (const accept of ['text/html', '*/*']) {
      const html = await (await fetch(`${baseURL}/wumpus/${waving._id}`, { headers: { accept } })).text()
      expect(html).toContain('<title>Waving Wumpus · Wumpus Gallery</title>')
      expect(html).toContain(`<meta property="og:image" content="${baseURL}/api/wumpus/${waving._id}/still.png" />`)
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />')
    }
    const { page, problems } = await detailPage({ serviceWorkers: 'block' })
    // The document the browser got is the one with the tags, and the app runs in it (CSP allowed its scripts).
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe('Waving Wumpus')
    await page.getByRole('button', { name: 'Copy link' }).waitFor()
    expect(await page.title()).toBe('Waving Wumpus · Wumpus Gallery')
    expect(problems).toEqual([])
  })
})

describe('share on a pack page', () => {
  it('copies the link to the pack, and the link opens it', async () => {
    const [pack] = (await (await fetch(`${baseURL}/api/packs?limit=1`)).json()) as { id: string; name: string }[]
    const context = await openContext({ permissions: ['clipboard-read', 'clipboard-write'], viewport: PHONE })
    const page = await context.newPage()
    await page.goto(`/packs/${pack!.id}`)
    await page.getByRole('heading', { level: 1, name: pack!.name }).waitFor()
    await page.getByRole('button', { name: 'Copy link' }).click()
    await expectToast(page, 'Link copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/packs/${pack!.id}`)
  })
})

// A verified user makes their own version of a demo mascot in the editor and gets its Discord file.
import sharp from 'sharp'
import type { BrowserContext } from 'playwright-core'
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { colourChoicesSchema } from '../contract/remix/recipe'
import { stickerExportListSchema } from '../contract/stickers'
import { wumpusSchema, type Wumpus } from '../contract/wumpus'
import { createAccount, signInToken, startSignedIn, uniqueEmail } from './support/accounts'
import { browserForTests } from './support/browser'

const baseURL = inject('baseURL')
/** Discord's sticker cap (TOOLCHAIN.md): an APNG of at most 512 KB. */
const DISCORD_MAX_BYTES = 512 * 1024
const CHOSEN = { hex: '#ff2a6d', rgb: [0xff, 0x2a, 0x6d] }

const { openContext } = browserForTests(baseURL)
let context: BrowserContext
let mascot: Wumpus
let token: string

beforeAll(async () => {
  const email = uniqueEmail('remixer')
  await createAccount(email, 'remix-pass-1', 'Remixer', { verified: true })
  context = await openContext()
  token = await signInToken(email, 'remix-pass-1')
  await startSignedIn(context, token)
  const list = wumpusSchema.array().parse(await (await fetch(`${baseURL}/api/wumpuses?limit=100`)).json())
  mascot = list.find((w) => w.name === 'Waving Wumpus')!
}, 180_000)

describe('Make it yours', () => {
  it('recolours a slot, captions, makes the stickers and downloads a Discord file in the chosen colour', async () => {
    const slots = colourChoicesSchema.parse(await (await fetch(`${baseURL}/api/wumpus/${mascot._id}/colours`)).json()).slots
    const page = await context.newPage()
    await page.goto(`/wumpus/${mascot._id}`)
    await page.getByRole('link', { name: 'Make it yours' }).click()
    await page.waitForURL(`**/wumpus/${mascot._id}/remix`)

    // The slot that covers the most becomes the chosen colour, then a caption.
    const swatch = page.getByLabel(`Colour 1: ${slots[0]!.colour}`)
    await swatch.fill(CHOSEN.hex)
    await expect.poll(() => new URL(page.url()).searchParams.get('c')).toBe(`${slots[0]!.id}-${CHOSEN.hex.slice(1)}`)
    await page.getByRole('textbox', { name: 'Caption text' }).fill('Hello')
    await expect.poll(() => new URL(page.url()).searchParams.get('t')).toContain('Hello')
    // Drawn in the preview: its fonts loaded (a font the page may not fetch would leave a note after "bottom").
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/caption “Hello” at the bottom\.$/)

    await page.getByRole('button', { name: 'Make my stickers' }).click()
    await page.waitForURL((url) => /^\/wumpus\/[0-9a-f]{24}$/.test(url.pathname) && !url.pathname.endsWith(mascot._id), {
      timeout: 120_000,
    })
    const remixId = new URL(page.url()).pathname.split('/').pop()!
    await expect.poll(() => page.getByText(/^Your version of/).textContent()).toBe(`Your version of ${mascot.name}`)

    // The Discord file is made by the render queue: wait until it is listed as ready.
    await vi.waitFor(
      async () => {
        // A private remix answers its owner only.
        const res = await fetch(`${baseURL}/api/wumpus/${remixId}/stickers`, { headers: { authorization: `Bearer ${token}` } })
        const discord = stickerExportListSchema.parse(await res.json()).find((s) => s.platform === 'discord')
        expect(discord?.status).toBe('ready')
      },
      { timeout: 200_000, interval: 1000 },
    )
    await page.reload()
    const useItIn = page.getByRole('region', { name: 'Use it in' })
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      useItIn.getByRole('button', { name: /^Discord: download/ }).click(),
    ])
    const bytes = await streamBytes(await download.createReadStream())
    expect(bytes.length).toBeGreaterThan(0)
    expect(bytes.length).toBeLessThanOrEqual(DISCORD_MAX_BYTES)

    // sharp reads an APNG's first frame: the chosen colour is painted there.
    const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    let matches = 0
    for (let i = 0; i < data.length; i += info.channels) {
      const close = [0, 1, 2].every((c) => Math.abs(data[i + c]! - CHOSEN.rgb[c]!) <= 12)
      if (close && data[i + 3]! > 200) matches++
    }
    expect(matches).toBeGreaterThan(500)
    // The server renders the demo mascots' files at its start and the remix's behind them: minutes on 2 busy cores.
  }, 300_000)
})

async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}

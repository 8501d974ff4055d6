// Each chat app's rules on the real bytes the server offers, over the whole demo set, and what only a
// browser can tell: that the Signal file moves.
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { PLATFORMS, stickerExportListSchema, type StickerExport } from '../contract/stickers'
import { wumpusSchema, type Wumpus } from '../contract/wumpus'
import { demoMascots } from '../backend/src/media/demo/demo-set'
import { checkStickerFileFully } from '../backend/src/media/exports/platform-check'
import { browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)
const demoNames = demoMascots().map((mascot) => mascot.name)
let demos: Array<{ wumpus: Wumpus; stickers: StickerExport[] }>

async function stickersOf(id: string): Promise<StickerExport[]> {
  return stickerExportListSchema.parse(await (await fetch(`${baseURL}/api/wumpus/${id}/stickers`)).json())
}

beforeAll(async () => {
  // The server makes every demo sticker's files in the background after it starts (the same files a person gets).
  await vi.waitFor(
    async () => {
      const list = wumpusSchema.array().parse(await (await fetch(`${baseURL}/api/wumpuses?limit=100`)).json())
      const found = demoNames.map((name) => list.find((w) => w.name === name && !w.remixOf))
      expect(found.every(Boolean)).toBe(true)
      const all = await Promise.all(found.map(async (wumpus) => ({ wumpus: wumpus!, stickers: await stickersOf(wumpus!._id) })))
      expect(all.flatMap((demo) => demo.stickers).every((sticker) => sticker.status !== 'pending')).toBe(true)
      demos = all
    },
    { timeout: 300_000, interval: 2000 },
  )
}, 320_000)

describe('every chat app file of the demo set', () => {
  it('is made for every app, and the bytes served pass that app’s checker and match what the list says', async () => {
    const checked: string[] = []
    for (const { wumpus, stickers } of demos) {
      expect(stickers.map((sticker) => sticker.platform)).toEqual([...PLATFORMS])
      for (const sticker of stickers) {
        const what = `${wumpus.name}, ${sticker.label}: ${sticker.notes.join('; ')}`
        expect(sticker.status, what).toBe('ready')
        const res = await fetch(new URL(sticker.url!, baseURL))
        expect(res.status, what).toBe(200)
        const bytes = new Uint8Array(await res.arrayBuffer())
        const check = await checkStickerFileFully(sticker.platform, bytes)
        expect(check.problems, what).toEqual([])
        expect(check.facts, what).toMatchObject({
          bytes: sticker.bytes,
          width: sticker.width,
          height: sticker.height,
          frames: sticker.frames,
          durationMs: sticker.durationMs,
        })
        checked.push(`${wumpus.name}/${sticker.platform}`)
      }
    }
    expect(checked).toHaveLength(demoNames.length * PLATFORMS.length)
  })
})

describe('the Signal file in a browser', () => {
  it('plays more than one frame as an <img> in Chromium (an indexed APNG would be a still on iPhone)', async () => {
    const waving = demos.find((demo) => demo.wumpus.name === 'Waving Wumpus')!
    const signal = waving.stickers.find((sticker) => sticker.platform === 'signal')!
    const bytes = new Uint8Array(await (await fetch(new URL(signal.url!, baseURL))).arrayBuffer())
    // PNG colour type 6: truecolour with alpha.
    expect(bytes[25]).toBe(6)

    const page = await (await openContext()).newPage()
    await page.goto('/about')
    await page.evaluate(async (src) => {
      const img = document.createElement('img')
      img.id = 'signal-sticker'
      img.src = src
      img.style.cssText = 'position:fixed;top:0;left:0;width:256px;height:256px;z-index:99999;background:#fff'
      document.body.append(img)
      await img.decode()
    }, signal.url!)
    // What the page shows of the <img>, as Chromium composites it (a canvas's drawImage takes an animated
    // image's first frame, as the HTML standard says, so it cannot tell).
    const sticker = page.locator('#signal-sticker')
    const first = await sticker.screenshot()
    // Polled until the pixels on screen change: a still would never do.
    await expect.poll(async () => (await sticker.screenshot()).equals(first), { timeout: 30_000 }).toBe(false)
  })
})

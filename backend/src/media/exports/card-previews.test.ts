import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { cardPreviews } from './card-previews'
import { renderLottie } from '../render/render-lottie'
import { frameError } from '../../../test/fixtures/frame-error'
import { lottie } from '../../../test/fixtures/lottie'

describe('cardPreviews', () => {
  it('renders an animated WebP at 1x and 2x of the card and a still first frame, from the Lottie', async () => {
    const source = lottie() // 2 s at 30 fps
    const { small, large, still } = await cardPreviews(source)
    expect([small.facts.width, small.facts.height, small.facts.frames, small.facts.durationMs]).toEqual([300, 300, 40, 2000])
    expect([large.facts.width, large.facts.height, large.facts.frames]).toEqual([600, 600, 40])
    expect([still.facts.width, still.facts.frames]).toEqual([600, 1])
    for (const preview of [small, large, still])
      expect(preview.facts).toMatchObject({ contentType: 'image/webp', bytes: preview.bytes.length })
    const meta = await sharp(small.bytes, { pages: -1 }).metadata()
    expect([meta.format, meta.pages, meta.loop]).toEqual(['webp', 40, 0])
    expect(meta.delay!.reduce((a, b) => a + b)).toBe(2000)
    // The still is the first frame as rendered (lossy WebP, so close rather than equal).
    const decoded = await sharp(still.bytes).ensureAlpha().raw().toBuffer()
    const first = (await renderLottie(source, { size: 600, fps: 1 })).frames[0]!
    expect(frameError(first, decoded).rms).toBeLessThan(3)
  })
})

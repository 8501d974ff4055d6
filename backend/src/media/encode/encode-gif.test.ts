import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { demoMascots } from '../demo/demo-set'
import { encodeGif, gifDelays } from './encode-gif'
import { inspectGif } from '../inspect/inspect-gif'
import { renderLottie } from '../render/render-lottie'
import { decodeGif } from '../../../test/fixtures/decode-gif'
import { frameError, shownFrames, thresholded } from '../../../test/fixtures/frame-error'

/** 16x16 frames: an opaque orange square moving right, a soft stripe, a mostly opaque edge, a clear background. */
function frames(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, n) => {
    const f = new Uint8Array(16 * 16 * 4)
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 16; x++) {
        const i = (y * 16 + x) * 4
        if (x >= n && x < n + 4 && y >= 4 && y < 8) f.set([250, 140, 20, 255], i)
        else if (y === 12)
          f.set([0, 0, 0, 60], i) // a soft shadow
        else if (y === 13) f.set([40, 80, 200, 200], i) // mostly opaque edge
      }
    }
    return f
  })
}

describe('gifDelays', () => {
  it('follows the real timeline in centiseconds', () => {
    expect(gifDelays(6, 30)).toEqual([3, 3, 4, 3, 3, 4])
    expect(gifDelays(60, 30).reduce((a, b) => a + b)).toBe(200)
    expect(gifDelays(4, 25)).toEqual([4, 4, 4, 4])
    expect(gifDelays(24, 24).reduce((a, b) => a + b)).toBe(100)
  })
})

describe('encodeGif', () => {
  it('plays back exactly the thresholded input, looping forever with the right delays', async () => {
    const input = frames(6)
    const { bytes, frames: written } = await encodeGif({ width: 16, height: 16, fps: 30, frames: input })
    const gif = decodeGif(bytes)
    expect([gif.width, gif.height, gif.loop, written]).toEqual([16, 16, 0, 6])
    expect(gif.controls.map((c) => c.delayCs)).toEqual([3, 3, 4, 3, 3, 4])
    expect(gif.frames).toEqual(input.map(thresholded))
    // One global palette for every frame.
    expect(gif.controls.some((c) => c.localPalette)).toBe(false)
  })

  it('stores only the rectangle that changed, and clears the previous frame where pixels turn transparent', async () => {
    const moving = Array.from({ length: 4 }, (_, n) => {
      const f = new Uint8Array(16 * 16 * 4)
      for (let y = 4; y < 8; y++) for (let x = n; x < n + 4; x++) f.set([250, 140, 20, 255], (y * 16 + x) * 4)
      return f
    })
    const gif = decodeGif((await encodeGif({ width: 16, height: 16, fps: 30, frames: moving })).bytes)
    expect(gif.frames).toEqual(moving)
    // Each frame is the square only; its trailing column turns clear, which only disposing the
    // previous frame to the background can do.
    const placed = gif.controls.map((c) => [c.x, c.y, c.w, c.h, c.dispose])
    expect(placed).toEqual([
      [0, 4, 4, 4, 2],
      [1, 4, 4, 4, 2],
      [2, 4, 4, 4, 2],
      [3, 4, 4, 4, 1],
    ])
    expect(gif.controls.every((c) => c.transparentIndex === 0)).toBe(true)
  })

  it('draws changes over the previous frame when nothing turns clear', async () => {
    const grow = Array.from({ length: 4 }, (_, n) => {
      const f = new Uint8Array(8 * 8 * 4)
      for (let x = 0; x <= n; x++) f.set([10, 200, 90, 255], (3 * 8 + x) * 4)
      return f
    })
    const gif = decodeGif((await encodeGif({ width: 8, height: 8, fps: 10, frames: grow })).bytes)
    expect(gif.controls.slice(1).map((c) => [c.x, c.y, c.w, c.h, c.dispose])).toEqual([
      [1, 3, 1, 1, 1],
      [2, 3, 1, 1, 1],
      [3, 3, 1, 1, 1],
    ])
    expect(gif.frames).toEqual(grow)
  })

  it('shows repeated frames once, for longer', async () => {
    const [a, b] = frames(2)
    const gif = decodeGif((await encodeGif({ width: 16, height: 16, fps: 25, frames: [a!, a!, a!, b!] })).bytes)
    expect(gif.controls.map((c) => c.delayCs)).toEqual([12, 4])
  })

  it('encodes a fully transparent animation', async () => {
    const clear = new Uint8Array(8 * 8 * 4)
    const gif = decodeGif((await encodeGif({ width: 8, height: 8, fps: 10, frames: [clear, clear] })).bytes)
    expect(gif.frames).toHaveLength(1)
    expect(gif.controls[0]!.delayCs).toBe(20)
    expect(gif.frames[0]!.every((v) => v === 0)).toBe(true)
  })

  it('plays a given number of times', async () => {
    const gif = decodeGif((await encodeGif({ width: 16, height: 16, fps: 30, frames: frames(3) }, { plays: 2 })).bytes)
    expect(gif.loop).toBe(1) // NETSCAPE2.0 counts the repeats after the first play
    expect(inspectGif((await encodeGif({ width: 16, height: 16, fps: 30, frames: frames(3) }, { plays: 2 })).bytes).loop).toBe(2)
  })

  it('rejects frames of the wrong size and empty input', async () => {
    await expect(encodeGif({ width: 16, height: 16, fps: 30, frames: [] })).rejects.toThrow(/no frames/)
    await expect(encodeGif({ width: 16, height: 16, fps: 30, frames: [new Uint8Array(10)] })).rejects.toThrow(/wrong size/)
  })

  it('keeps a demo mascot under 512 KB, looking like the render, and libvips reads it the same', async () => {
    const mascot = demoMascots().find((m) => m.slug === 'sleepy-wumpus')!
    const seq = await renderLottie(mascot.lottie)
    const { bytes } = await encodeGif(seq)
    expect(bytes.length).toBeLessThanOrEqual(512_000)
    const gif = decodeGif(bytes)
    const shown = shownFrames(
      gif.controls.map((c) => c.delayCs * 10),
      seq.fps,
      seq.frames.length,
    )
    shown.forEach((index, n) => {
      const error = frameError(thresholded(seq.frames[n]!), gif.frames[index]!)
      expect(error.rms, `frame ${n}`).toBeLessThan(1.5)
      expect(error.max, `frame ${n}`).toBeLessThan(96)
    })
    const vips = await sharp(bytes, { pages: -1 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    expect(vips.info.pages).toBe(gif.frames.length)
    const size = 320 * 320 * 4
    gif.frames.forEach((frame, n) => expect(frameError(frame, vips.data.subarray(n * size, (n + 1) * size)).max).toBe(0))
  })
})

import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { demoMascots } from '../demo/demo-set'
import { encodeApng, encodePng } from './encode-apng'
import { inspectApng } from '../inspect/inspect-png'
import { renderLottie } from '../render/render-lottie'
import { decodeApng, readPngChunks } from '../../../test/fixtures/decode-apng'
import { frameError, shownFrames } from '../../../test/fixtures/frame-error'

/** w*h frames: a clear background, a soft shadow line, and a square that moves right over it. */
function makeFrames(count: number, w = 24, h = 20): Uint8Array[] {
  return Array.from({ length: count }, (_, n) => {
    const f = new Uint8Array(w * h * 4)
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4
        if (x >= 2 + n && x < 8 + n && y >= 3 && y < 9) f.set([20, 180, 120, 255], i)
        else if (y === h - 2) f.set([10, 10, 30, 40], i)
        else if (x >= 2 + n && x < 8 + n && y === 9) f.set([20, 180, 120, 128], i) // a soft edge that moves
      }
    }
    return f
  })
}

function noise(count: number, w: number, h: number): Uint8Array[] {
  return Array.from({ length: count }, () => {
    const f = new Uint8Array(randomBytes(w * h * 4))
    for (let i = 3; i < f.length; i += 4) f[i] = 255
    return f
  })
}

describe('encodeApng', () => {
  it('writes indexed colour with tRNS when the colours fit, playing back exactly the input', async () => {
    const input = makeFrames(5)
    const encoded = await encodeApng({ width: 24, height: 20, fps: 30, frames: input })
    const apng = decodeApng(encoded.bytes)
    expect(apng.colourType).toBe(3)
    expect(readPngChunks(encoded.bytes).map((c) => c.type)).toEqual(expect.arrayContaining(['PLTE', 'tRNS']))
    expect([apng.width, apng.height, apng.numFrames, apng.numPlays]).toEqual([24, 20, 5, 0])
    expect(apng.sequence).toEqual(Array.from({ length: 9 }, (_, i) => i)) // fcTL, then fcTL+fdAT per frame
    expect(apng.controls.every((c) => Math.abs(c.delayMs - 1000 / 30) < 1e-9)).toBe(true)
    expect(apng.frames).toEqual(input)
    expect(inspectApng(encoded.bytes)).toMatchObject({ format: 'apng', frames: 5, loop: 0 })
  })

  it('stores changed rectangles and uses dispose and blend ops so every frame plays back exactly (RGBA too)', async () => {
    const input = makeFrames(6)
    for (const palette of ['auto', 'never'] as const) {
      const apng = decodeApng((await encodeApng({ width: 24, height: 20, fps: 30, frames: input }, { palette })).bytes)
      expect(apng.colourType).toBe(palette === 'never' ? 6 : 3)
      expect(apng.frames).toEqual(input)
      // The first frame covers the canvas; later ones only the moving square and its edge.
      expect(apng.controls[0]).toMatchObject({ x: 0, y: 0, w: 24, h: 20 })
      for (const c of apng.controls.slice(1)) expect(c.w * c.h).toBeLessThan((24 * 20) / 3)
      // Moving soft pixels cannot be drawn over (OVER) visible ones: something replaces or clears them.
      expect(apng.controls.some((c) => c.blend === 0 || c.dispose === 1)).toBe(true)
    }
  })

  it('shows repeated frames once, for longer, and plays a given number of times', async () => {
    const [a, b] = makeFrames(2)
    const apng = decodeApng((await encodeApng({ width: 24, height: 20, fps: 25, frames: [a!, a!, b!, b!, a!] }, { plays: 3 })).bytes)
    expect(apng.controls.map((c) => c.delayMs)).toEqual([80, 80, 40])
    expect(apng.numPlays).toBe(3)
    expect(apng.frames).toEqual([a, b, a])
  })

  it('falls back to RGBA when no palette comes close (noise), and stays exact', async () => {
    const input = noise(2, 32, 32)
    const apng = decodeApng((await encodeApng({ width: 32, height: 32, fps: 10, frames: input })).bytes)
    expect(apng.colourType).toBe(6)
    expect(apng.frames).toEqual(input)
  })

  it('always uses a palette when asked, with fewer colours at a lower quality', async () => {
    const gradient = new Uint8Array(32 * 32 * 4)
    for (let i = 0; i < 32 * 32; i++) gradient.set([(i % 32) * 8, Math.floor(i / 32) * 8, 128, 255], i * 4)
    const input = [gradient, gradient.map((v, i) => (i % 4 === 2 ? 255 - v : v))]
    const coarse = await encodeApng({ width: 32, height: 32, fps: 10, frames: input }, { palette: 'always', quality: 20 })
    const fine = await encodeApng({ width: 32, height: 32, fps: 10, frames: input }, { palette: 'always', quality: 80 })
    expect(decodeApng(coarse.bytes).colourType).toBe(3)
    expect(coarse.colours!).toBeLessThan(fine.colours!)
  })

  it('writes fractional frame rates as millisecond delays', async () => {
    const apng = decodeApng((await encodeApng({ width: 24, height: 20, fps: 12.5, frames: makeFrames(2) })).bytes)
    expect(apng.controls[0]!.delayMs).toBe(80)
  })

  it('rejects empty or wrongly sized input', async () => {
    await expect(encodeApng({ width: 4, height: 4, fps: 30, frames: [] })).rejects.toThrow(/no frames/)
    await expect(encodeApng({ width: 4, height: 4, fps: 30, frames: [new Uint8Array(3)] })).rejects.toThrow(/wrong size/)
  })

  it('keeps a demo mascot indexed, looking like the render', async () => {
    const mascot = demoMascots().find((m) => m.slug === 'lovestruck-wumpus')!
    const seq = await renderLottie(mascot.lottie)
    const { bytes } = await encodeApng(seq)
    expect(bytes.length).toBeLessThanOrEqual(512_000)
    const apng = decodeApng(bytes)
    expect(apng.colourType).toBe(3)
    shownFrames(
      apng.controls.map((c) => c.delayMs),
      seq.fps,
      seq.frames.length,
    ).forEach((index, n) => {
      const error = frameError(seq.frames[n]!, apng.frames[index]!)
      expect(error.rms, `frame ${n}`).toBeLessThan(1.5)
      expect(error.max, `frame ${n}`).toBeLessThan(96)
    })
  })
})

describe('encodePng', () => {
  it('writes a still RGBA PNG', () => {
    const [frame] = noise(1, 10, 8)
    const png = encodePng(10, 8, frame!)
    expect(readPngChunks(png).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    expect(decodeApng(png).frames).toEqual([frame])
  })
})

import { describe, expect, it } from 'vitest'
import { lottieHeader, renderLottie } from './render-lottie'

/** A 100x100 Lottie: a red 30px disc sliding from x=20 to x=80 at y=50 over `op` frames at `fr` fps. */
function slidingDisc(fr = 30, op = 30, w = 100, h = 100): object {
  return {
    v: '5.7.4',
    fr,
    ip: 0,
    op,
    w,
    h,
    layers: [
      {
        ty: 4,
        ind: 1,
        ip: 0,
        op,
        st: 0,
        ks: {
          o: { a: 0, k: 100 },
          r: { a: 0, k: 0 },
          a: { a: 0, k: [0, 0] },
          s: { a: 0, k: [100, 100] },
          p: {
            a: 1,
            k: [
              { t: 0, s: [20, 50], i: { x: [1], y: [1] }, o: { x: [0], y: [0] } },
              { t: op, s: [80, 50] },
            ],
          },
        },
        shapes: [
          { ty: 'el', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [30, 30] } },
          { ty: 'fl', c: { a: 0, k: [1, 0, 0, 1] }, o: { a: 0, k: 100 } },
        ],
      },
    ],
  }
}

const pixel = (frame: Uint8Array, width: number, x: number, y: number) =>
  Array.from(frame.subarray((y * width + x) * 4, (y * width + x) * 4 + 4))

describe('renderLottie', () => {
  it('renders every frame at the requested size with straight-alpha RGBA', async () => {
    const out = await renderLottie(slidingDisc(), { size: 100 })
    expect(out).toMatchObject({ width: 100, height: 100, fps: 30, durationMs: 1000 })
    expect(out.frames).toHaveLength(30)
    for (const f of out.frames) expect(f.length).toBe(100 * 100 * 4)
    expect(pixel(out.frames[0]!, 100, 20, 50)).toEqual([255, 0, 0, 255])
    expect(pixel(out.frames[0]!, 100, 80, 50)[3]).toBe(0)
    expect(pixel(out.frames[0]!, 100, 0, 0)).toEqual([0, 0, 0, 0])
    // Halfway through, the disc has moved to the middle.
    expect(pixel(out.frames[15]!, 100, 50, 50)).toEqual([255, 0, 0, 255])
    expect(pixel(out.frames[15]!, 100, 20, 50)[3]).toBe(0)
  })

  it('scales to the size, keeping the aspect ratio', async () => {
    const out = await renderLottie(slidingDisc(30, 3, 200, 100), { size: 64 })
    expect([out.width, out.height]).toEqual([64, 32])
    expect(out.frames[0]!.length).toBe(64 * 32 * 4)
  })

  it('caps the frame rate at 30 by default and resamples to a chosen fps', async () => {
    const fast = await renderLottie(slidingDisc(60, 60), { size: 32 })
    expect(fast.fps).toBe(30)
    expect(fast.frames).toHaveLength(30)
    const slow = await renderLottie(slidingDisc(60, 60), { size: 32, fps: 10 })
    expect(slow.frames).toHaveLength(10)
    expect(slow.durationMs).toBe(1000)
  })

  it('rejects what is not a Lottie', async () => {
    await expect(renderLottie(null)).rejects.toThrow(/JSON object/)
    await expect(renderLottie({ v: '5', fr: 30, ip: 0, op: 10, w: 10, h: 10 })).rejects.toThrow(/layers/)
    await expect(renderLottie({ ...slidingDisc(), op: 0 })).rejects.toThrow(/"op" must be after "ip"/)
    await expect(renderLottie({ ...slidingDisc(), fr: 'fast' })).rejects.toThrow(/"fr" must be a number/)
    await expect(renderLottie(slidingDisc(), { size: 5000 })).rejects.toThrow(/size/)
    await expect(renderLottie({ ...slidingDisc(1, 100_000) })).rejects.toThrow(/too long/)
    await expect(renderLottie(slidingDisc(30, 900), { size: 1024 })).rejects.toThrow(/too large/)
  })

  it('reads the header fields', () => {
    expect(lottieHeader(slidingDisc(24, 48))).toEqual({ fr: 24, ip: 0, op: 48, w: 100, h: 100 })
  })
})

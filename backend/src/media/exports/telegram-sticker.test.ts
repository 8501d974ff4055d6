import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { demoMascots } from '../demo/demo-set'
import { renderLottie } from '../render/render-lottie'
import { tgsBytes, toTelegramLottie } from './telegram-sticker'
import { frameError } from '../../../test/fixtures/frame-error'
import { lottie } from '../../../test/fixtures/lottie'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** Renders both at the same size and rate and answers the worst frame's error. */
async function worstError(a: unknown, b: unknown, size = 256, fps = 30) {
  const [x, y] = await Promise.all([renderLottie(a, { size, fps }), renderLottie(b, { size, fps })])
  expect(y.frames).toHaveLength(x.frames.length)
  return x.frames.reduce(
    (worst, frame, n) => {
      const e = frameError(frame, y.frames[n]!)
      return { rms: Math.max(worst.rms, e.rms), max: Math.max(worst.max, e.max) }
    },
    { rms: 0, max: 0 },
  )
}

describe('toTelegramLottie', () => {
  it('redraws stars as paths that render like the stars, on a 512 canvas at 60 fps', async () => {
    for (const slug of ['cheering-wumpus', 'dizzy-wumpus']) {
      const mascot = demoMascots().find((m) => m.slug === slug)!
      const { lottie: converted, notes } = toTelegramLottie(mascot.lottie)
      expect(JSON.stringify(converted)).not.toContain('"ty":"sr"')
      expect(converted).toMatchObject({ fr: 60, w: 512, h: 512, ip: 0, tgs: 1 })
      expect(notes).toEqual([
        expect.stringMatching(/star shapes were redrawn as paths/),
        'Retimed from 30 to 60 fps',
        'Scaled from 320x320 to a 512x512 canvas',
      ])
      const error = await worstError(mascot.lottie, converted)
      expect(error.rms, slug).toBeLessThan(0.5)
    }
  })

  it('retimes keyframes (never with time remapping) and leaves the source untouched', async () => {
    const source = lottie({ fr: 24, op: 48 })
    const before = JSON.stringify(source)
    const { lottie: converted } = toTelegramLottie(source)
    expect(JSON.stringify(source)).toBe(before)
    const layer = (converted.layers as Json[])[0]!
    expect([converted.op, layer.op, layer.tm]).toEqual([120, 150, undefined])
    expect(layer.ks.p.k.map((k: Json) => k.t)).toEqual([0, 75, 150])
    // At 12 fps both land on whole frames (2 of 24, 5 of 60), so the renders can be compared.
    expect((await worstError(source, converted, 256, 12)).rms).toBeLessThan(0.5)
  })

  it('removes a time stretch from a shape layer, where players ignore it', async () => {
    const base = lottie()
    const stretched = { ...base, layers: [{ ...(base.layers as Json[])[0], sr: 0.5 }] }
    const { lottie: converted, notes } = toTelegramLottie(stretched)
    expect((converted.layers as Json[])[0]!.sr).toBe(1)
    expect(notes).toContain('A time stretch that players ignore was removed')
    expect((await worstError(stretched, converted)).rms).toBeLessThan(0.5)
  })

  it('centres art that is not square on the 512 canvas through a parent null layer', async () => {
    const wide = lottie({ w: 640, h: 320 })
    const { lottie: converted } = toTelegramLottie(wide)
    const layers = converted.layers as Json[]
    const canvas = layers.at(-1)!
    expect(canvas).toMatchObject({ ty: 3, ks: { s: { k: [80, 80, 100] }, p: { k: [0, 128, 0] } } })
    expect(layers[0]!.parent).toBe(canvas.ind)
    const frames = await renderLottie(converted, { size: 512, fps: 2 })
    // Rows above and below the 512x256 picture stay clear.
    expect(frames.frames.every((f) => f.subarray(0, 512 * 4 * 120).every((v) => v === 0))).toBe(true)
  })

  it('fits the scene on the 100x100 canvas of a custom emoji, drawn as the source is', async () => {
    const source = demoMascots().find((m) => m.slug === 'dizzy-wumpus')!.lottie
    const { lottie: converted, notes } = toTelegramLottie(source, 100)
    expect(converted).toMatchObject({ fr: 60, w: 100, h: 100, tgs: 1 })
    expect(notes).toContain('Scaled from 320x320 to a 100x100 canvas')
    // Rendered at 100 px, the source (scaled by the renderer) and the emoji (scaled by its canvas layer) match.
    expect((await worstError(source, converted, 100)).rms).toBeLessThan(0.5)
  })

  it('gzips the JSON into a .tgs', () => {
    const bytes = tgsBytes(toTelegramLottie(lottie()).lottie)
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b])
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toMatchObject({ fr: 60, w: 512 })
  })
})

import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { Lottie } from '../../../../contract/remix/lottie-walk'
import { OUTLINE_WIDTH, withOutline } from '../../../../contract/remix/outline'
import { cardPreviews } from '../exports/card-previews'
import { exportForPlatform } from '../exports/platform-exports'
import { rasterOutlineSource } from './raster-outline'
import { renderLottie } from './render-lottie'
import { whiteRing } from '../../../test/fixtures/frame-error'
import { lottie as shapeLottie } from '../../../test/fixtures/lottie'

const still = (k: unknown) => ({ a: 0, k })
const transform = (position: unknown, scale = 100) => ({
  o: still(100),
  r: still(0),
  a: still([0, 0, 0]),
  p: position,
  s: still([scale, scale, 100]),
})

/** A 20x20 PNG, as a data URI. */
const png = `data:image/png;base64,${(
  await sharp({ create: { width: 20, height: 20, channels: 4, background: '#e0457b' } })
    .png()
    .toBuffer()
).toString('base64')}`

/**
 * On a 100x100 canvas: the PNG drawn at 40x40 from (30, 30) (an image layer, which the vector outline
 * cannot follow), and a 16x16 square from (12, 12) at first, moving down (a shape layer, which it can).
 */
const imageLottie = (): Lottie => ({
  v: '5.7.4',
  fr: 10,
  ip: 0,
  op: 5,
  w: 100,
  h: 100,
  assets: [{ id: 'picture', w: 20, h: 20, u: '', p: png, e: 1 }],
  layers: [
    { ty: 2, ind: 1, refId: 'picture', ip: 0, op: 5, st: 0, ks: transform(still([30, 30, 0]), 200) },
    {
      ty: 4,
      ind: 2,
      ip: 0,
      op: 5,
      st: 0,
      ks: transform({
        a: 1,
        k: [
          { t: 0, s: [20, 20, 0], i: { x: [1], y: [1] }, o: { x: [0], y: [0] } },
          { t: 5, s: [20, 30, 0] },
        ],
      }),
      shapes: [
        { ty: 'rc', p: still([0, 0]), s: still([16, 16]), r: still(0) },
        { ty: 'fl', c: still([0.2, 0.3, 0.9, 1]), o: still(100) },
      ],
    },
  ],
})

const SIZE = 200
const firstFrame = async (lottie: unknown) => (await renderLottie(lottie, { size: SIZE, fps: 10 })).frames[0]!
/** The lower half of a square RGBA frame: around the picture, away from the square (at first). */
const lowerHalf = (rgba: Uint8Array) => rgba.subarray(rgba.length / 2)
/** The first column of row `y` that is mostly opaque. */
const leftEdge = (rgba: Uint8Array, y: number) => {
  for (let x = 0; x < SIZE; x++) if (rgba[(y * SIZE + x) * 4 + 3]! >= 128) return x
  return -1
}

describe('the raster outline', () => {
  it('is wanted for an outlined Lottie with image or text layers, only', () => {
    expect(rasterOutlineSource(withOutline(imageLottie()))).toEqual(imageLottie())
    expect(rasterOutlineSource(imageLottie())).toBeUndefined()
    expect(rasterOutlineSource(withOutline(shapeLottie() as Lottie))).toBeUndefined()
  })

  it('draws a white ring around an image layer on the rendered frames', async () => {
    const [plain, outlined] = await Promise.all([firstFrame(imageLottie()), firstFrame(withOutline(imageLottie()))])
    // The lower half of a ring 5 px wide around the 80x80 px picture (its two sides and its bottom): about 800 pixels.
    expect(whiteRing(lowerHalf(plain), lowerHalf(outlined))).toBeGreaterThan(600)
    // The picture itself is as it was.
    const centre = (100 * SIZE + 100) * 4
    expect(Array.from(outlined.subarray(centre, centre + 4))).toEqual(Array.from(plain.subarray(centre, centre + 4)))
  })

  it('is one even ring: as wide around the shapes as around the picture (their vector outline is left out)', async () => {
    const [plain, outlined] = await Promise.all([firstFrame(imageLottie()), firstFrame(withOutline(imageLottie()))])
    const width = OUTLINE_WIDTH * SIZE
    for (const row of [40, 100]) {
      const ring = leftEdge(plain, row) - leftEdge(outlined, row)
      expect(Math.abs(ring - width), `row ${row}: ${ring} px`).toBeLessThanOrEqual(1)
    }
  })

  it('is in the previews and raster exports made from the outlined Lottie; Telegram refuses image layers either way', async () => {
    const outlined = withOutline(imageLottie())
    const [plainPreview, outlinedPreview] = await Promise.all([cardPreviews(imageLottie()), cardPreviews(outlined)])
    const rgba = (bytes: Uint8Array) => sharp(bytes).ensureAlpha().raw().toBuffer()
    const ring = async (plain: Uint8Array, outlined: Uint8Array) => whiteRing(lowerHalf(await rgba(plain)), lowerHalf(await rgba(outlined)))
    // At 600 px (512 px), the lower half of the ring around the picture is about 7,200 (5,300) pixels.
    expect(await ring(plainPreview.still.bytes, outlinedPreview.still.bytes)).toBeGreaterThan(6000)

    const [plainWhatsapp, outlinedWhatsapp] = await Promise.all([
      exportForPlatform('whatsapp', imageLottie()),
      exportForPlatform('whatsapp', outlined),
    ])
    expect(await ring(plainWhatsapp.file!.bytes, outlinedWhatsapp.file!.bytes)).toBeGreaterThan(4500)

    const telegram = await exportForPlatform('telegram', outlined)
    expect(telegram.file).toBeUndefined()
    expect(telegram.notes.join(' ')).toMatch(/image layers/)
  })
})

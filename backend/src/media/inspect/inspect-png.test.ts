import { describe, expect, it } from 'vitest'
import { MAX_MEDIA_DIMENSION, MAX_MEDIA_FRAMES } from '../../../../contract/limits'
import { inspectApng, inspectPng, pngHasAnimationControl } from './inspect-png'
import { bytes, flipped, mediaErrorOf } from '../../../test/fixtures/bytes'
import { buildGif } from '../../../test/fixtures/gif'
import { actl, apngChunks, buildApng, buildPng, chunk, fctl, fdat, iend, ihdr, pixels, stillPng } from '../../../test/fixtures/png'

const animation = () =>
  buildApng({
    width: 8,
    height: 6,
    plays: 3,
    frames: [
      { delayNum: 1, delayDen: 10 },
      { delayNum: 50, delayDen: 1000, x: 2, y: 1, width: 4, height: 4 },
      { delayNum: 3, delayDen: 0 },
    ],
  })

/** Replaces the chunk at `index` (0 = IHDR) of a default 3-frame APNG. */
const apngWith = (index: number, replacement: Uint8Array[]) => {
  const chunks = apngChunks()
  chunks.splice(index, 1, ...replacement)
  return buildPng(chunks)
}

describe('inspectApng', () => {
  it('reads size, frames, delays (den 0 = 100) and plays from an APNG', () => {
    const png = animation()
    expect(inspectApng(png)).toEqual({
      format: 'apng',
      contentType: 'image/apng',
      width: 8,
      height: 6,
      frames: 3,
      durationMs: 100 + 50 + 30,
      loop: 3,
      bytes: png.length,
    })
  })

  it('does not count a default image that is not part of the animation', () => {
    const png = buildApng({ hiddenDefault: true, frames: [{}, {}] })
    expect(inspectApng(png)).toMatchObject({ frames: 2, durationMs: 200, loop: 0 })
  })

  it('refuses a still PNG as NOT_ANIMATED', () => {
    expect(mediaErrorOf(() => inspectApng(stillPng())).code).toBe('NOT_ANIMATED')
  })

  it('refuses every prefix of a valid file as TRUNCATED (and no bytes as EMPTY)', () => {
    const png = animation()
    expect(mediaErrorOf(() => inspectApng(png.subarray(0, 0))).code).toBe('EMPTY')
    for (let length = 1; length < png.length; length++) {
      const error = mediaErrorOf(() => inspectApng(png.subarray(0, length)))
      expect({ length, code: error.code }).toEqual({ length, code: 'TRUNCATED' })
    }
  })

  it('refuses a wrong CRC in any chunk as BAD_CRC, naming the chunk', () => {
    const png = animation()
    const ihdrCrcAt = 8 + 8 + 13
    const error = mediaErrorOf(() => inspectApng(flipped(png, ihdrCrcAt)))
    expect(error).toMatchObject({ code: 'BAD_CRC', details: { chunk: 'IHDR' } })
    // A flipped bit in the pixel data of the last frame, just before IEND's 12 bytes and its own CRC.
    const lastData = png.length - 12 - 4 - 1
    expect(mediaErrorOf(() => inspectApng(flipped(png, lastData, 0x80))).details).toMatchObject({
      chunk: 'fdAT',
    })
  })

  it.each([
    ['a sequence starting at 1', 2, fctl(1, { width: 4, height: 4 })],
    ['a repeated sequence number', 5, fdat(1, pixels(4, 4))],
    ['a gap in the sequence', 6, fctl(5, { width: 4, height: 4 })],
  ])('refuses %s as BAD_STRUCTURE', (_, index, replacement) => {
    const error = mediaErrorOf(() => inspectApng(apngWith(index, [replacement])))
    expect(error.code).toBe('BAD_STRUCTURE')
    expect(String(error.details?.reason)).toMatch(/^sequence number/)
  })

  it('refuses a frame count that differs from acTL num_frames', () => {
    for (const frames of [2, 4]) {
      const error = mediaErrorOf(() => inspectApng(apngWith(1, [actl(frames)])))
      expect(error.code).toBe('BAD_STRUCTURE')
      expect(String(error.details?.reason)).toMatch(/num_frames/)
    }
  })

  const frame = { width: 4, height: 4 }
  it.each([
    ['a frame outside the canvas', /outside the canvas/, apngWith(4, [fctl(1, { ...frame, x: 1 })])],
    ['a first frame smaller than the canvas', /cover the canvas/, apngWith(2, [fctl(0, { ...frame, width: 3 })])],
    ['a frame of 0 px', /no area/, apngWith(4, [fctl(1, { ...frame, height: 0 })])],
    ['an unknown dispose op', /dispose/, apngWith(4, [fctl(1, { ...frame, dispose: 3 })])],
    [
      'acTL after IDAT',
      /acTL after IDAT/,
      buildPng([ihdr(4, 4), chunk('IDAT', pixels(4, 4)), actl(1), fctl(0, frame), fdat(1, pixels(4, 4)), iend()]),
    ],
    [
      'fdAT before any fcTL',
      /fdAT outside a frame/,
      buildPng([ihdr(4, 4), actl(1), chunk('IDAT', pixels(4, 4)), fdat(0, pixels(4, 4)), iend()]),
    ],
    [
      'a middle frame without data',
      /frame 2 has no image data/,
      buildPng([
        ihdr(4, 4),
        actl(3),
        fctl(0, frame),
        chunk('IDAT', pixels(4, 4)),
        fctl(1, frame),
        fctl(2, frame),
        fdat(3, pixels(4, 4)),
        iend(),
      ]),
    ],
    [
      'a last frame without data',
      /frame 2 has no image data/,
      buildPng([ihdr(4, 4), actl(2), fctl(0, frame), chunk('IDAT', pixels(4, 4)), fctl(1, frame), iend()]),
    ],
    ['fcTL without acTL', /fcTL without acTL/, apngWith(1, [])],
    ['two acTL chunks', /second acTL/, apngWith(1, [actl(3), actl(3)])],
    ['acTL num_frames 0', /num_frames is 0/, apngWith(1, [actl(0)])],
  ])('refuses %s as BAD_STRUCTURE', (_, reason, png) => {
    const error = mediaErrorOf(() => inspectApng(png))
    expect(error.code).toBe('BAD_STRUCTURE')
    expect(String(error.details?.reason)).toMatch(reason)
  })

  it('refuses more frames than MAX_MEDIA_FRAMES as TOO_LARGE from acTL alone', () => {
    const error = mediaErrorOf(() => inspectApng(apngWith(1, [actl(MAX_MEDIA_FRAMES + 1)])))
    expect(error).toMatchObject({ code: 'TOO_LARGE', details: { frames: MAX_MEDIA_FRAMES + 1 } })
  })

  it('refuses data after IEND as POLYGLOT', () => {
    const png = bytes(animation(), '<html>')
    expect(mediaErrorOf(() => inspectApng(png))).toMatchObject({
      code: 'POLYGLOT',
      details: { trailingBytes: 6, appended: 'markup' },
    })
    expect(mediaErrorOf(() => inspectApng(bytes(animation(), buildGif()))).details).toMatchObject({ appended: 'gif' })
  })
})

describe('inspectPng', () => {
  it('reads a still PNG as format png', () => {
    const png = stillPng(5, 3)
    expect(inspectPng(png)).toEqual({
      format: 'png',
      contentType: 'image/png',
      width: 5,
      height: 3,
      frames: 1,
      durationMs: 0,
      loop: 1,
      bytes: png.length,
    })
  })

  it('reads an APNG as format apng', () => {
    expect(inspectPng(animation()).format).toBe('apng')
  })

  it('accepts unknown ancillary chunks and palette images with PLTE', () => {
    const png = buildPng([
      ihdr(2, 2, 8, 3),
      chunk('PLTE', [0, 0, 0, 255, 255, 255]),
      chunk('tEXt', 'Comment\0a wumpus <3'),
      chunk('wmPs', [1, 2, 3]),
      chunk('IDAT', pixels(2, 2)),
      chunk('IDAT', pixels(2, 2)),
      iend(),
    ])
    expect(inspectPng(png)).toMatchObject({ format: 'png', width: 2, height: 2 })
  })

  it.each([
    ['IHDR not first', /IHDR is not the first/, buildPng([chunk('tEXt', 'a\0b'), ihdr(4, 4), chunk('IDAT', pixels(4, 4)), iend()])],
    ['a second IHDR', /second IHDR/, buildPng([ihdr(4, 4), ihdr(4, 4), chunk('IDAT', pixels(4, 4)), iend()])],
    ['an invalid bit depth', /bit depth 7/, buildPng([ihdr(4, 4, 7, 6), chunk('IDAT', pixels(4, 4)), iend()])],
    ['a size of 0', /image size/, buildPng([ihdr(0, 4), chunk('IDAT', pixels(4, 4)), iend()])],
    ['no IDAT', /no IDAT/, buildPng([ihdr(4, 4), iend()])],
    [
      'IDAT chunks that are not consecutive',
      /not consecutive/,
      buildPng([ihdr(4, 4), chunk('IDAT', [1]), chunk('tEXt', 'a\0b'), chunk('IDAT', [2]), iend()]),
    ],
    ['a palette image without PLTE', /without PLTE/, buildPng([ihdr(4, 4, 8, 3), chunk('IDAT', pixels(4, 4)), iend()])],
    [
      'an unknown critical chunk',
      /unknown critical chunk WMPS/,
      buildPng([ihdr(4, 4), chunk('WMPS', [1]), chunk('IDAT', pixels(4, 4)), iend()]),
    ],
    [
      'a chunk type that is not letters',
      /not four letters/,
      buildPng([ihdr(4, 4), chunk('ab1d', [1]), chunk('IDAT', pixels(4, 4)), iend()]),
    ],
    ['IEND with data', /IEND length/, buildPng([ihdr(4, 4), chunk('IDAT', pixels(4, 4)), chunk('IEND', [0])])],
  ])('refuses %s as BAD_STRUCTURE', (_, reason, png) => {
    const error = mediaErrorOf(() => inspectPng(png))
    expect(error.code).toBe('BAD_STRUCTURE')
    expect(String(error.details?.reason)).toMatch(reason)
  })

  it('refuses a missing IEND as TRUNCATED and a non-PNG as BAD_SIGNATURE', () => {
    expect(mediaErrorOf(() => inspectPng(buildPng([ihdr(4, 4), chunk('IDAT', pixels(4, 4))]))).code).toBe('TRUNCATED')
    expect(mediaErrorOf(() => inspectPng(buildGif())).code).toBe('BAD_SIGNATURE')
  })

  it('refuses a size above MAX_MEDIA_DIMENSION as TOO_LARGE before reading pixels', () => {
    const png = buildPng([ihdr(MAX_MEDIA_DIMENSION + 1, 1), chunk('IDAT', [0]), iend()])
    expect(mediaErrorOf(() => inspectPng(png))).toMatchObject({ code: 'TOO_LARGE', details: { width: MAX_MEDIA_DIMENSION + 1 } })
  })

  it('refuses markup hidden in a text chunk as POLYGLOT', () => {
    const png = buildPng([ihdr(4, 4), chunk('tEXt', 'Comment\0<script>alert(1)</script>'), chunk('IDAT', pixels(4, 4)), iend()])
    expect(mediaErrorOf(() => inspectPng(png)).code).toBe('POLYGLOT')
  })
})

describe('pngHasAnimationControl', () => {
  it('is true only when acTL comes before the image data', () => {
    expect(pngHasAnimationControl(animation())).toBe(true)
    expect(pngHasAnimationControl(stillPng())).toBe(false)
    expect(pngHasAnimationControl(animation().subarray(0, 20))).toBe(false)
  })
})

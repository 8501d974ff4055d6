import { describe, expect, it } from 'vitest'
import { MAX_MEDIA_DIMENSION } from '../../../../contract/limits'
import { inspectImage, inspectJpeg, inspectWebp } from './inspect-image'
import { bytes, mediaErrorOf, u32le } from '../../../test/fixtures/bytes'
import { buildGif } from '../../../test/fixtures/gif'
import { buildJpeg, jpegParts, riff, vp8l, webpAnimated, webpLossless, webpLossy } from '../../../test/fixtures/image'
import { lottieBytes } from '../../../test/fixtures/lottie'
import { buildApng, stillPng } from '../../../test/fixtures/png'

describe('inspectJpeg', () => {
  it('reads the size from a baseline or progressive frame header', () => {
    const jpeg = buildJpeg({ width: 640, height: 480 })
    expect(inspectJpeg(jpeg)).toEqual({
      format: 'jpeg',
      contentType: 'image/jpeg',
      width: 640,
      height: 480,
      frames: 1,
      durationMs: 0,
      loop: 1,
      bytes: jpeg.length,
    })
    expect(inspectJpeg(buildJpeg({ width: 33, height: 17, sof: 0xc2 }))).toMatchObject({ width: 33, height: 17 })
  })

  it('accepts fill bytes before a marker and a harmless comment', () => {
    const parts = jpegParts({ comment: 'shot on a wumpus <3' })
    parts.splice(parts.length - 1, 0, [0xff, 0xff])
    expect(inspectJpeg(bytes(...parts)).width).toBe(8)
  })

  it('refuses every prefix as TRUNCATED', () => {
    const jpeg = buildJpeg()
    for (let length = 1; length < jpeg.length; length++) {
      const error = mediaErrorOf(() => inspectJpeg(jpeg.subarray(0, length)))
      expect({ length, code: error.code }).toEqual({ length, code: 'TRUNCATED' })
    }
  })

  it('refuses data after EOI and markup in a comment as POLYGLOT', () => {
    expect(mediaErrorOf(() => inspectJpeg(bytes(buildJpeg(), '<?php echo 1; ?>'))).code).toBe('POLYGLOT')
    expect(mediaErrorOf(() => inspectJpeg(buildJpeg({ comment: 'hi <SCRIPT src=x>' }))).code).toBe('POLYGLOT')
  })

  it('refuses a scan without a frame header, a size of 0 and oversize images', () => {
    expect(mediaErrorOf(() => inspectJpeg(buildJpeg({ noFrameHeader: true }))).code).toBe('BAD_STRUCTURE')
    expect(mediaErrorOf(() => inspectJpeg(buildJpeg({ height: 0 }))).code).toBe('BAD_STRUCTURE')
    expect(mediaErrorOf(() => inspectJpeg(buildJpeg({ width: MAX_MEDIA_DIMENSION + 1 }))).code).toBe('TOO_LARGE')
  })
})

describe('inspectWebp', () => {
  it('reads the size of lossless (VP8L) and lossy (VP8) images', () => {
    const lossless = webpLossless(300, 200)
    expect(inspectWebp(lossless)).toEqual({
      format: 'webp',
      contentType: 'image/webp',
      width: 300,
      height: 200,
      frames: 1,
      durationMs: 0,
      loop: 1,
      bytes: lossless.length,
    })
    expect(inspectWebp(webpLossy(123, 45))).toMatchObject({ width: 123, height: 45 })
  })

  it('reads frames, durations and loop count of an animated WebP', () => {
    const webp = webpAnimated(
      64,
      32,
      [
        { width: 64, height: 32, durationMs: 100 },
        { x: 10, y: 4, width: 20, height: 20, durationMs: 250 },
      ],
      2,
    )
    expect(inspectWebp(webp)).toMatchObject({ width: 64, height: 32, frames: 2, durationMs: 350, loop: 2 })
  })

  it('refuses every prefix as TRUNCATED', () => {
    const webp = webpAnimated(8, 8, [{ width: 8, height: 8, durationMs: 40 }])
    for (let length = 1; length < webp.length; length++) {
      const error = mediaErrorOf(() => inspectWebp(webp.subarray(0, length)))
      expect({ length, code: error.code }).toEqual({ length, code: 'TRUNCATED' })
    }
  })

  it('refuses bytes beyond the RIFF size as POLYGLOT', () => {
    const error = mediaErrorOf(() => inspectWebp(bytes(webpLossless(), buildGif())))
    expect(error).toMatchObject({ code: 'POLYGLOT', details: { appended: 'gif' } })
  })

  it('refuses broken structure and oversize canvases', () => {
    const outside = webpAnimated(16, 16, [{ x: 10, width: 8, height: 8, durationMs: 10 }])
    expect(mediaErrorOf(() => inspectWebp(outside)).details).toMatchObject({ reason: 'frame outside the canvas' })
    const twoImages = riff(vp8l(4, 4), vp8l(4, 4))
    expect(mediaErrorOf(() => inspectWebp(twoImages)).code).toBe('BAD_STRUCTURE')
    const overrun = webpLossless()
    overrun.set(u32le(100), 16) // VP8L chunk size beyond the RIFF size
    expect(mediaErrorOf(() => inspectWebp(overrun)).code).toBe('BAD_STRUCTURE')
    expect(mediaErrorOf(() => inspectWebp(webpLossless(MAX_MEDIA_DIMENSION + 1, 1))).code).toBe('TOO_LARGE')
  })
})

describe('inspectImage', () => {
  it('accepts PNG, APNG, GIF, JPEG and WebP', () => {
    expect(inspectImage(stillPng()).format).toBe('png')
    expect(inspectImage(buildApng()).format).toBe('apng')
    expect(inspectImage(buildGif()).format).toBe('gif')
    expect(inspectImage(buildJpeg()).format).toBe('jpeg')
    expect(inspectImage(webpLossy()).format).toBe('webp')
  })

  it('refuses anything else as BAD_SIGNATURE, saying what it looks like', () => {
    expect(mediaErrorOf(() => inspectImage(bytes('BM', new Array(60).fill(0)))).code).toBe('BAD_SIGNATURE')
    expect(mediaErrorOf(() => inspectImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).code).toBe('BAD_SIGNATURE')
    expect(mediaErrorOf(() => inspectImage(lottieBytes()))).toMatchObject({
      code: 'BAD_SIGNATURE',
      details: { actual: 'lottie' },
    })
  })

  it('refuses a file cut inside its signature as TRUNCATED and no bytes as EMPTY', () => {
    for (const file of [stillPng(), buildGif(), buildJpeg(), webpLossless()]) {
      expect(mediaErrorOf(() => inspectImage(file.subarray(0, 2))).code).toBe('TRUNCATED')
    }
    expect(mediaErrorOf(() => inspectImage(new Uint8Array())).code).toBe('EMPTY')
  })
})

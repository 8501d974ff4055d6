import { describe, expect, it } from 'vitest'
import { inspectMedia, sniffFormat } from './inspect'
import { bytes, mediaErrorOf } from '../../../test/fixtures/bytes'
import { buildGif } from '../../../test/fixtures/gif'
import { buildJpeg, buildZip, webpLossless } from '../../../test/fixtures/image'
import { lottieBytes, utf8 } from '../../../test/fixtures/lottie'
import { buildApng, stillPng } from '../../../test/fixtures/png'

describe('sniffFormat', () => {
  it('names each known format from its first bytes', () => {
    expect(sniffFormat(buildGif())).toBe('gif')
    expect(sniffFormat(buildGif({ version: '87a' }))).toBe('gif')
    expect(sniffFormat(buildApng())).toBe('apng')
    expect(sniffFormat(stillPng())).toBe('png')
    expect(sniffFormat(buildJpeg())).toBe('jpeg')
    expect(sniffFormat(webpLossless())).toBe('webp')
    expect(sniffFormat(lottieBytes())).toBe('lottie')
    expect(sniffFormat(utf8(' \r\n\t{"v":1}'))).toBe('lottie')
  })

  it('returns undefined for unknown or too short bytes', () => {
    for (const unknown of [new Uint8Array(), bytes('GIF8'), bytes('RIFF....WAVE'), bytes('BM'), utf8('[1]'), buildZip('a', 'b')]) {
      expect(sniffFormat(unknown)).toBeUndefined()
    }
  })
})

describe('inspectMedia', () => {
  it('inspects each animation format', () => {
    expect(inspectMedia(buildGif({ loop: 0, frames: [{ delayCs: 5 }, { delayCs: 5 }] }), 'gif')).toMatchObject({
      format: 'gif',
      frames: 2,
      durationMs: 100,
    })
    expect(inspectMedia(buildApng(), 'apng')).toMatchObject({ format: 'apng', frames: 3 })
    expect(inspectMedia(lottieBytes(), 'lottie')).toMatchObject({ format: 'lottie', frames: 60, durationMs: 2000 })
  })

  it.each([
    ['a PNG given as GIF', stillPng(), 'gif', 'png'],
    ['an APNG given as GIF', buildApng(), 'gif', 'apng'],
    ['a GIF given as APNG', buildGif(), 'apng', 'gif'],
    ['a JPEG given as APNG', buildJpeg(), 'apng', 'jpeg'],
    ['a WebP given as GIF', webpLossless(), 'gif', 'webp'],
    ['a GIF given as Lottie', buildGif(), 'lottie', 'gif'],
    ['JSON given as GIF', lottieBytes(), 'gif', 'lottie'],
  ] as const)('refuses %s as WRONG_FORMAT, saying which format it is', (_, file, expected, actual) => {
    expect(mediaErrorOf(() => inspectMedia(file, expected))).toMatchObject({
      code: 'WRONG_FORMAT',
      details: { expected, actual },
    })
  })

  it('refuses a still PNG given as APNG as NOT_ANIMATED', () => {
    expect(mediaErrorOf(() => inspectMedia(stillPng(), 'apng')).code).toBe('NOT_ANIMATED')
  })

  it("passes the inspectors' own refusals through", () => {
    expect(mediaErrorOf(() => inspectMedia(new Uint8Array(), 'gif')).code).toBe('EMPTY')
    expect(mediaErrorOf(() => inspectMedia(bytes('GIF'), 'gif')).code).toBe('TRUNCATED')
    expect(mediaErrorOf(() => inspectMedia(bytes('%PDF-1.7'), 'apng')).code).toBe('BAD_SIGNATURE')
    expect(mediaErrorOf(() => inspectMedia(utf8('not json'), 'lottie')).code).toBe('INVALID_JSON')
    const gif = buildGif()
    expect(mediaErrorOf(() => inspectMedia(bytes(gif, buildZip('x.js', 'alert(1)', gif.length)), 'gif')).code).toBe('POLYGLOT')
    expect(mediaErrorOf(() => inspectMedia(buildGif({ width: 5000, height: 1, frames: [{ width: 1 }] }), 'gif')).code).toBe('TOO_LARGE')
  })
})

import { describe, expect, it } from 'vitest'
import { MAX_MEDIA_DIMENSION, MAX_MEDIA_FRAMES } from '../../../../contract/limits'
import { inspectGif } from './inspect-gif'
import { bytes, mediaErrorOf, patched } from '../../../test/fixtures/bytes'
import { buildGif, frameParts, gifParts, subBlocks } from '../../../test/fixtures/gif'
import { buildZip } from '../../../test/fixtures/image'
import { stillPng } from '../../../test/fixtures/png'

const animated = () =>
  buildGif({
    width: 6,
    height: 5,
    loop: 0,
    frames: [
      { delayCs: 10, fill: 1 },
      { delayCs: 20, left: 2, top: 1, width: 3, height: 3, fill: 2 },
      { delayCs: 5, localTableBits: 3, minCodeSize: 3, fill: 7 },
    ],
  })

describe('inspectGif', () => {
  it('reads size, frames, summed delays and endless looping from an animated GIF', () => {
    const gif = animated()
    expect(inspectGif(gif)).toEqual({
      format: 'gif',
      contentType: 'image/gif',
      width: 6,
      height: 5,
      frames: 3,
      durationMs: 350,
      loop: 0,
      bytes: gif.length,
    })
  })

  it('reports a NETSCAPE loop count as plays (count + 1) and no loop block as one play', () => {
    const frames = [{ delayCs: 4 }, { delayCs: 4 }]
    expect(inspectGif(buildGif({ loop: 2, frames })).loop).toBe(3)
    expect(inspectGif(buildGif({ frames })).loop).toBe(1)
  })

  it('accepts a GIF87a still and a one-frame GIF (reported as frames: 1)', () => {
    const still = buildGif({ version: '87a', width: 3, height: 2 })
    expect(inspectGif(still)).toMatchObject({ width: 3, height: 2, frames: 1, durationMs: 0, loop: 1 })
  })

  it('reports raw delays of 0 and 1 cs (browsers would play them as 10 cs)', () => {
    const gif = buildGif({ frames: [{ delayCs: 0 }, { delayCs: 1 }] })
    expect(inspectGif(gif).durationMs).toBe(10)
  })

  it('accepts frames with only a local colour table, comments and long image data', () => {
    const gif = buildGif({
      width: 40,
      height: 40,
      globalTableBits: 0,
      comments: ['made by the wumpus team', '<x:xmpmeta> is fine'],
      frames: [{ localTableBits: 8, minCodeSize: 8, fill: 200 }],
    })
    expect(inspectGif(gif)).toMatchObject({ width: 40, height: 40, frames: 1 })
  })

  it('refuses every prefix of a valid file as TRUNCATED (and no bytes as EMPTY)', () => {
    const gif = animated()
    expect(mediaErrorOf(() => inspectGif(gif.subarray(0, 0))).code).toBe('EMPTY')
    for (let length = 1; length < gif.length; length++) {
      const error = mediaErrorOf(() => inspectGif(gif.subarray(0, length)))
      expect({ length, code: error.code }).toEqual({ length, code: 'TRUNCATED' })
    }
  })

  it('refuses bytes after the trailer as POLYGLOT', () => {
    const gif = bytes(animated(), [0, 0, 0x3b])
    const error = mediaErrorOf(() => inspectGif(gif))
    expect(error.code).toBe('POLYGLOT')
    expect(error.details).toMatchObject({ trailingBytes: 3, offset: gif.length - 3 })
  })

  it('refuses a GIF with a ZIP archive appended (GIF+ZIP polyglot)', () => {
    const gif = animated()
    const polyglot = bytes(gif, buildZip('payload.html', '<script>alert(1)</script>', gif.length))
    const error = mediaErrorOf(() => inspectGif(polyglot))
    expect(error.code).toBe('POLYGLOT')
    expect(error.details).toMatchObject({ appended: 'zip', offset: gif.length })
  })

  it('refuses HTML or script hidden in a comment extension as POLYGLOT', () => {
    const gif = buildGif({ comments: ['<html><body><script>alert(1)</script>'] })
    expect(mediaErrorOf(() => inspectGif(gif)).code).toBe('POLYGLOT')
  })

  it('refuses another format or an unknown version as BAD_SIGNATURE', () => {
    expect(mediaErrorOf(() => inspectGif(stillPng())).code).toBe('BAD_SIGNATURE')
    expect(mediaErrorOf(() => inspectGif(patched(animated(), (b) => (b[4] = 0x30)))).code).toBe('BAD_SIGNATURE')
  })

  it('refuses the "GIF89a/*" JavaScript polyglot header: its width is 10799 px', () => {
    const gif = bytes('GIF89a/*', buildGif().subarray(8))
    const error = mediaErrorOf(() => inspectGif(gif))
    expect(error.code).toBe('TOO_LARGE')
    expect(error.details).toMatchObject({ width: 0x2a2f })
  })

  it.each([
    ['a frame outside the logical screen', /outside the canvas/, buildGif({ width: 4, frames: [{ left: 2, width: 3 }] })],
    ['a frame with no area', /no area/, buildGif({ frames: [{ width: 0 }] })],
    ['no colour table at all', /no colour table/, buildGif({ globalTableBits: 0 })],
    ['LZW minimum code size 1', /LZW minimum code size 1/, buildGif({ frames: [{ minCodeSize: 1 }] })],
    ['LZW minimum code size 9', /LZW minimum code size 9/, buildGif({ frames: [{ minCodeSize: 9 }] })],
    ['no image before the trailer', /no image/, bytes(...gifParts({ frames: [] }), [0x3b])],
    ['an unknown block', /unknown block 0x99/, bytes(...gifParts(), [0x99, 0x3b])],
    ['a malformed graphic control extension', /graphic control/, bytes(...gifParts(), [0x21, 0xf9, 5, 0, 0, 0, 0, 0, 0, 0x3b])],
    ['a logical screen of 0 px', /logical screen/, buildGif({ width: 0, frames: [] })],
    ['a frame with empty image data', /no image data/, bytes(...gifParts({ frames: [] }), [0x2c, 0, 0, 0, 0, 4, 0, 4, 0, 0, 2, 0, 0x3b])],
  ])('refuses %s as BAD_STRUCTURE', (_, reason, gif) => {
    const error = mediaErrorOf(() => inspectGif(gif))
    expect(error.code).toBe('BAD_STRUCTURE')
    expect(String(error.details?.reason)).toMatch(reason)
  })

  it('refuses dimensions and frame counts above the limits as TOO_LARGE', () => {
    const wide = buildGif({ width: MAX_MEDIA_DIMENSION + 1, height: 1, frames: [{ width: 1 }] })
    expect(mediaErrorOf(() => inspectGif(wide)).code).toBe('TOO_LARGE')

    const frame = bytes(...frameParts({ delayCs: 2 }, 1, 1))
    const many = bytes(...gifParts({ width: 1, height: 1, frames: [] }), ...new Array(MAX_MEDIA_FRAMES + 1).fill(frame), [0x3b])
    const error = mediaErrorOf(() => inspectGif(many))
    expect(error.code).toBe('TOO_LARGE')
    expect(error.details).toMatchObject({ frames: MAX_MEDIA_FRAMES + 1 })

    const atLimit = bytes(...gifParts({ width: 1, height: 1, frames: [] }), ...new Array(MAX_MEDIA_FRAMES).fill(frame), [0x3b])
    expect(inspectGif(atLimit)).toMatchObject({ frames: MAX_MEDIA_FRAMES, durationMs: MAX_MEDIA_FRAMES * 20 })
  })

  it('skips application and unknown extensions by their sub-blocks', () => {
    const xmp = bytes([0x21, 0xff, 11], 'XMP DataXMP', subBlocks(bytes('<?xpacket begin="" id="W5M0"?><x:xmpmeta/>')))
    const unknown = bytes([0x21, 0x42], subBlocks(bytes('future extension')))
    const parts = gifParts()
    parts.splice(5, 0, xmp, unknown) // after the signature, screen descriptor and global colour table
    const gif = bytes(...parts, [0x3b])
    expect(inspectGif(gif).frames).toBe(1)
  })
})

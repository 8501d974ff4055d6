import { crc32 } from 'node:zlib'
import { INSPECTED_CONTENT_TYPE, type MediaInfo } from '../../../../contract/media'
import { MediaError, assertDimensions, assertFrameCount, assertNoMarkup, assertNothingAfter } from './media-error'

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

const tag = (name: string): number =>
  ((name.charCodeAt(0) << 24) | (name.charCodeAt(1) << 16) | (name.charCodeAt(2) << 8) | name.charCodeAt(3)) >>> 0
const IHDR = tag('IHDR')
const PLTE = tag('PLTE')
const IDAT = tag('IDAT')
const IEND = tag('IEND')
const acTL = tag('acTL')
const fcTL = tag('fcTL')
const fdAT = tag('fdAT')

/** Allowed bit depths per colour type (PNG spec, table 11.1). */
const BIT_DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
}

/** An animated PNG: like inspectPng, but a PNG without acTL is refused with NOT_ANIMATED. */
export function inspectApng(bytes: Uint8Array): MediaInfo {
  const info = inspectPng(bytes)
  if (info.format !== 'apng') throw new MediaError('NOT_ANIMATED', { reason: 'no acTL chunk before IDAT' })
  return info
}

/**
 * Any PNG, still or animated (format 'apng' when it has acTL). Checks the signature, every chunk's
 * CRC-32, IHDR first, chunk order, the APNG frame chunks (sequence numbers, frame count, frame
 * regions) and that nothing follows IEND. Compressed pixel data is not inflated.
 */
export function inspectPng(bytes: Uint8Array): MediaInfo {
  const n = bytes.length
  if (n === 0) throw new MediaError('EMPTY')
  for (let i = 0; i < SIGNATURE.length; i++) {
    if (i >= n) truncated(n)
    if (bytes[i] !== SIGNATURE[i]) throw new MediaError('BAD_SIGNATURE', { expected: 'png' })
  }

  let pos = SIGNATURE.length
  let width = 0
  let height = 0
  let colourType = -1
  let hasPalette = false
  /** 0: no IDAT yet, 1: inside the run of IDAT chunks, 2: after it. */
  let idatState = 0
  let animation: { frames: number; plays: number } | undefined
  let nextSequence = 0
  let frames = 0
  let frameOpen = false
  let frameHasData = false
  let frameIsDefaultImage = false
  let durationMs = 0

  for (;;) {
    need(bytes, pos + 8)
    const length = u32be(bytes, pos)
    const type = u32be(bytes, pos + 4)
    if (!isLetters(bytes, pos + 4)) bad('chunk type is not four letters', pos)
    if (pos === SIGNATURE.length && type !== IHDR) bad('IHDR is not the first chunk', pos)
    if (length > 0x7fffffff) bad(`${chunkName(bytes, pos + 4)} length ${length}`, pos)
    const start = pos + 8
    const end = start + length
    need(bytes, end + 4)
    if (crc32(bytes.subarray(pos + 4, end)) !== u32be(bytes, end)) {
      throw new MediaError('BAD_CRC', { chunk: chunkName(bytes, pos + 4), offset: pos })
    }
    if (idatState === 1 && type !== IDAT) idatState = 2

    switch (type) {
      case IHDR: {
        if (pos !== SIGNATURE.length) bad('second IHDR', pos)
        if (length !== 13) bad('IHDR length', pos)
        width = u32be(bytes, start)
        height = u32be(bytes, start + 4)
        const bitDepth = bytes[start + 8]!
        colourType = bytes[start + 9]!
        if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) bad('image size', pos)
        if (!BIT_DEPTHS[colourType]?.includes(bitDepth)) bad(`colour type ${colourType} with bit depth ${bitDepth}`, pos)
        if (bytes[start + 10] !== 0 || bytes[start + 11] !== 0 || bytes[start + 12]! > 1) {
          bad('unknown compression, filter or interlace method', pos)
        }
        assertDimensions(width, height)
        break
      }
      case PLTE:
        if (hasPalette || idatState !== 0) bad('PLTE repeated or after IDAT', pos)
        if (colourType === 0 || colourType === 4) bad('PLTE in a greyscale image', pos)
        if (length === 0 || length > 768 || length % 3 !== 0) bad('PLTE length', pos)
        hasPalette = true
        break
      case IDAT:
        if (idatState === 2) bad('IDAT chunks are not consecutive', pos)
        if (colourType === 3 && !hasPalette) bad('palette image without PLTE', pos)
        idatState = 1
        if (frameOpen) frameHasData = true
        break
      case acTL:
        if (animation) bad('second acTL', pos)
        if (idatState !== 0) bad('acTL after IDAT', pos)
        if (length !== 8) bad('acTL length', pos)
        animation = { frames: u32be(bytes, start), plays: u32be(bytes, start + 4) }
        if (animation.frames === 0) bad('acTL num_frames is 0', pos)
        assertFrameCount(animation.frames)
        break
      case fcTL: {
        if (!animation) bad('fcTL without acTL', pos)
        if (length !== 26) bad('fcTL length', pos)
        nextSequence = checkSequence(bytes, start, nextSequence, pos)
        if (frameOpen && !frameHasData) bad(`frame ${frames} has no image data`, pos)
        const frameWidth = u32be(bytes, start + 4)
        const frameHeight = u32be(bytes, start + 8)
        const x = u32be(bytes, start + 12)
        const y = u32be(bytes, start + 16)
        const delayNum = u16be(bytes, start + 20)
        const delayDen = u16be(bytes, start + 22)
        if (frameWidth === 0 || frameHeight === 0) bad('frame has no area', pos)
        if (x + frameWidth > width || y + frameHeight > height) bad('frame outside the canvas', pos)
        if (bytes[start + 24]! > 2 || bytes[start + 25]! > 1) bad('unknown dispose or blend op', pos)
        frameIsDefaultImage = idatState === 0
        if (frameIsDefaultImage && (x !== 0 || y !== 0 || frameWidth !== width || frameHeight !== height)) {
          bad('the first frame must cover the canvas', pos)
        }
        frames += 1
        if (frames > animation.frames) bad(`more frames than acTL num_frames ${animation.frames}`, pos)
        durationMs += (delayNum * 1000) / (delayDen === 0 ? 100 : delayDen)
        frameOpen = true
        frameHasData = false
        break
      }
      case fdAT:
        if (!animation) bad('fdAT without acTL', pos)
        if (length < 5) bad('fdAT length', pos)
        nextSequence = checkSequence(bytes, start, nextSequence, pos)
        if (!frameOpen || frameIsDefaultImage || idatState === 0) bad('fdAT outside a frame', pos)
        frameHasData = true
        break
      case IEND:
        if (length !== 0) bad('IEND length', pos)
        break
      default:
        // Bit 5 of the first letter: lowercase = ancillary (safe to ignore), uppercase = critical.
        if ((bytes[pos + 4]! & 0x20) === 0) bad(`unknown critical chunk ${chunkName(bytes, pos + 4)}`, pos)
        assertNoMarkup(bytes, start, end, 'PNG ancillary chunk')
    }

    pos = end + 4
    if (type === IEND) break
  }

  if (idatState === 0) bad('no IDAT chunk', pos)
  if (frameOpen && !frameHasData) bad(`frame ${frames} has no image data`, pos)
  if (animation && frames !== animation.frames) {
    bad(`acTL num_frames is ${animation.frames} but the file has ${frames} frames`, pos)
  }
  assertNothingAfter(bytes, pos)

  return animation
    ? {
        format: 'apng',
        contentType: INSPECTED_CONTENT_TYPE.apng,
        width,
        height,
        frames,
        durationMs: Math.round(durationMs),
        loop: animation.plays,
        bytes: n,
      }
    : {
        format: 'png',
        contentType: INSPECTED_CONTENT_TYPE.png,
        width,
        height,
        frames: 1,
        durationMs: 0,
        loop: 1,
        bytes: n,
      }
}

export function hasPngSignature(bytes: Uint8Array): boolean {
  return bytes.length >= SIGNATURE.length && SIGNATURE.every((byte, i) => bytes[i] === byte)
}

/** Cheap sniff: does a PNG announce an animation (acTL before the first IDAT)? No CRC checks. */
export function pngHasAnimationControl(bytes: Uint8Array): boolean {
  let pos = SIGNATURE.length
  while (pos + 8 <= bytes.length) {
    const type = u32be(bytes, pos + 4)
    if (type === acTL) return true
    if (type === IDAT || type === IEND) return false
    pos += 12 + u32be(bytes, pos)
  }
  return false
}

/** fcTL and fdAT share one sequence, starting at 0 with no gaps. Returns the next expected number. */
function checkSequence(bytes: Uint8Array, start: number, expected: number, pos: number): number {
  const sequence = u32be(bytes, start)
  if (sequence !== expected) bad(`sequence number ${sequence}, expected ${expected}`, pos)
  return expected + 1
}

function isLetters(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < at + 4; i++) {
    const letter = bytes[i]! | 0x20
    if (letter < 0x61 || letter > 0x7a) return false
  }
  return true
}

function chunkName(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!)
}

function need(bytes: Uint8Array, end: number): void {
  if (end > bytes.length) truncated(bytes.length)
}

function truncated(offset: number): never {
  throw new MediaError('TRUNCATED', { format: 'png', offset })
}

function bad(reason: string, offset: number): never {
  throw new MediaError('BAD_STRUCTURE', { format: 'png', reason, offset })
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!
}

function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0
}

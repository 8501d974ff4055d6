import { INSPECTED_CONTENT_TYPE, type MediaInfo } from '../../../../contract/media'
import { inspectGif } from './inspect-gif'
import { inspectPng } from './inspect-png'
import { sniffFormat } from './inspect'
import { MediaError, assertDimensions, assertFrameCount, assertNoMarkup, assertNothingAfter } from './media-error'

const PNG_START = [0x89, 0x50, 0x4e, 0x47]
const GIF_START = [0x47, 0x49, 0x46, 0x38] // GIF8
const JPEG_START = [0xff, 0xd8, 0xff]
const RIFF = [0x52, 0x49, 0x46, 0x46]
const WEBP = [0x57, 0x45, 0x42, 0x50]

/**
 * A still (or animated) picture for avatars and covers: PNG/APNG, GIF, JPEG or WebP.
 * A file cut inside its signature is TRUNCATED; anything else is BAD_SIGNATURE.
 */
export function inspectImage(bytes: Uint8Array): MediaInfo {
  if (bytes.length === 0) throw new MediaError('EMPTY')
  if (startsLike(bytes, PNG_START)) return inspectPng(bytes)
  if (startsLike(bytes, GIF_START)) return inspectGif(bytes)
  if (startsLike(bytes, JPEG_START)) return inspectJpeg(bytes)
  if (startsLike(bytes, RIFF)) return inspectWebp(bytes)
  throw new MediaError('BAD_SIGNATURE', { expected: 'image', actual: sniffFormat(bytes) })
}

// JPEG markers that carry no length.
const SOI = 0xd8
const EOI = 0xd9
const SOS = 0xda
const COM = 0xfe
const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7
// SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

/** Walks the JPEG markers from SOI to EOI; the size comes from the first SOFn segment. */
export function inspectJpeg(bytes: Uint8Array): MediaInfo {
  const n = bytes.length
  if (n === 0) throw new MediaError('EMPTY')
  checkStart(bytes, JPEG_START, 'jpeg')
  let pos = 2
  let width = 0
  let height = 0
  let scans = 0

  for (;;) {
    need(bytes, pos + 2, 'jpeg')
    if (bytes[pos] !== 0xff) bad('jpeg', 'expected a marker', pos)
    const marker = bytes[pos + 1]!
    if (marker === 0xff) {
      pos += 1 // fill byte
      continue
    }
    pos += 2
    if (marker === EOI) break
    if (isRestart(marker) || marker === 0x01) continue
    if (marker === SOI || marker === 0x00) bad('jpeg', `unexpected marker 0x${marker.toString(16)}`, pos - 2)

    need(bytes, pos + 2, 'jpeg')
    const length = u16be(bytes, pos)
    if (length < 2) bad('jpeg', 'segment length', pos)
    const end = pos + length
    need(bytes, end, 'jpeg')
    if (isStartOfFrame(marker) && width === 0) {
      if (length < 8) bad('jpeg', 'SOF length', pos)
      height = u16be(bytes, pos + 3)
      width = u16be(bytes, pos + 5)
      // Height 0 means "given later in a DNL segment"; nobody writes that, so refuse it.
      if (width === 0 || height === 0) bad('jpeg', 'image size is 0', pos)
      assertDimensions(width, height)
    } else if (marker === COM) {
      assertNoMarkup(bytes, pos + 2, end, 'JPEG comment')
    }
    pos = end

    if (marker === SOS) {
      if (width === 0) bad('jpeg', 'scan before the frame header', pos)
      scans += 1
      pos = skipEntropyCodedData(bytes, pos)
    }
  }

  if (scans === 0) bad('jpeg', 'no image data', pos)
  assertNothingAfter(bytes, pos)
  return still('jpeg', width, height, n)
}

/** Returns the offset of the marker that ends the scan. FF00 is a stuffed byte, FFD0-D7 restarts. */
function skipEntropyCodedData(bytes: Uint8Array, pos: number): number {
  for (;;) {
    const ff = bytes.indexOf(0xff, pos)
    if (ff === -1 || ff + 1 >= bytes.length) truncated('jpeg', bytes.length)
    const next = bytes[ff + 1]!
    if (next === 0x00 || isRestart(next)) pos = ff + 2
    else return ff
  }
}

/** RIFF/WEBP with a simple lossy (VP8), lossless (VP8L) or extended (VP8X, maybe animated) body. */
export function inspectWebp(bytes: Uint8Array): MediaInfo {
  const n = bytes.length
  if (n === 0) throw new MediaError('EMPTY')
  checkStart(bytes, RIFF, 'webp')
  for (let i = 0; i < WEBP.length && 8 + i < n; i++) {
    if (bytes[8 + i] !== WEBP[i]) throw new MediaError('BAD_SIGNATURE', { expected: 'webp' })
  }
  need(bytes, 12, 'webp')
  const end = 8 + u32le(bytes, 4)
  need(bytes, end, 'webp')

  let pos = 12
  let width = 0
  let height = 0
  let extended = false
  let animated = false
  let hasImage = false
  let loop = 1
  let frames = 0
  let durationMs = 0

  while (pos < end) {
    need(bytes, pos + 8, 'webp')
    const fourcc = String.fromCharCode(bytes[pos]!, bytes[pos + 1]!, bytes[pos + 2]!, bytes[pos + 3]!)
    const size = u32le(bytes, pos + 4)
    const start = pos + 8
    if (start + size > end) bad('webp', 'chunk overruns the RIFF size', pos)
    const first = pos === 12

    if (fourcc === 'VP8 ' && (first || (extended && !animated))) {
      if (size < 10 || bytes[start + 3] !== 0x9d || bytes[start + 4] !== 0x01 || bytes[start + 5] !== 0x2a) {
        bad('webp', 'VP8 frame header', pos)
      }
      if (first) {
        width = u16le(bytes, start + 6) & 0x3fff
        height = u16le(bytes, start + 8) & 0x3fff
      }
      hasImage = true
    } else if (fourcc === 'VP8L' && (first || (extended && !animated))) {
      if (size < 5 || bytes[start] !== 0x2f) bad('webp', 'VP8L header', pos)
      const bits = u32le(bytes, start + 1)
      if (bits >>> 29 !== 0) bad('webp', 'VP8L version', pos)
      if (first) {
        width = (bits & 0x3fff) + 1
        height = ((bits >>> 14) & 0x3fff) + 1
      }
      hasImage = true
    } else if (fourcc === 'VP8X' && first) {
      if (size < 10) bad('webp', 'VP8X length', pos)
      extended = true
      animated = (bytes[start]! & 0x02) !== 0
      width = u24le(bytes, start + 4) + 1
      height = u24le(bytes, start + 7) + 1
    } else if (fourcc === 'ANIM' && animated) {
      if (size < 6) bad('webp', 'ANIM length', pos)
      loop = u16le(bytes, start + 4)
    } else if (fourcc === 'ANMF' && animated) {
      if (size < 16) bad('webp', 'ANMF length', pos)
      const x = u24le(bytes, start) * 2
      const y = u24le(bytes, start + 3) * 2
      const frameWidth = u24le(bytes, start + 6) + 1
      const frameHeight = u24le(bytes, start + 9) + 1
      if (x + frameWidth > width || y + frameHeight > height) bad('webp', 'frame outside the canvas', pos)
      durationMs += u24le(bytes, start + 12)
      frames += 1
      assertFrameCount(frames)
    } else if (first || !extended) {
      bad('webp', `unexpected chunk ${JSON.stringify(fourcc)}`, pos)
    } else {
      // ICCP, ALPH, EXIF, XMP and unknown chunks of the extended format.
      assertNoMarkup(bytes, start, start + size, 'WebP chunk')
    }
    if (first) {
      if (width === 0 || height === 0) bad('webp', 'image size is 0', pos)
      assertDimensions(width, height)
    }
    pos = start + size + (size & 1)
  }

  if (pos !== end) bad('webp', 'chunks do not fill the RIFF size', pos)
  if (animated ? frames === 0 : !hasImage) bad('webp', 'no image data', pos)
  assertNothingAfter(bytes, end)
  if (!animated) return still('webp', width, height, n)
  return {
    format: 'webp',
    contentType: INSPECTED_CONTENT_TYPE.webp,
    width,
    height,
    frames,
    durationMs,
    loop,
    bytes: n,
  }
}

function still(format: 'jpeg' | 'webp', width: number, height: number, bytes: number): MediaInfo {
  return { format, contentType: INSPECTED_CONTENT_TYPE[format], width, height, frames: 1, durationMs: 0, loop: 1, bytes }
}

/** True when the bytes agree with `start` for as long as both last (so a cut signature matches). */
function startsLike(bytes: Uint8Array, start: readonly number[]): boolean {
  for (let i = 0; i < start.length && i < bytes.length; i++) if (bytes[i] !== start[i]) return false
  return true
}

function checkStart(bytes: Uint8Array, start: readonly number[], format: string): void {
  if (!startsLike(bytes, start)) throw new MediaError('BAD_SIGNATURE', { expected: format })
  need(bytes, start.length, format)
}

function need(bytes: Uint8Array, end: number, format: string): void {
  if (end > bytes.length) truncated(format, bytes.length)
}

function truncated(format: string, offset: number): never {
  throw new MediaError('TRUNCATED', { format, offset })
}

function bad(format: string, reason: string, offset: number): never {
  throw new MediaError('BAD_STRUCTURE', { format, reason, offset })
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!
}

function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8)
}

function u24le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
}

function u32le(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
}

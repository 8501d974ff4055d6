import { INSPECTED_CONTENT_TYPE, type MediaInfo } from '../../../../contract/media'
import { MediaError, assertDimensions, assertFrameCount, assertNoMarkup, assertNothingAfter } from './media-error'

const SIGNATURES = ['GIF87a', 'GIF89a']
const TRAILER = 0x3b
const EXTENSION = 0x21
const IMAGE = 0x2c
const GRAPHIC_CONTROL = 0xf9
const APPLICATION = 0xff

/**
 * Walks every block of a GIF without decoding the LZW data. Refuses truncated files, bytes after the
 * trailer, frames outside the logical screen and malformed blocks.
 *
 * durationMs is the raw sum of the graphic control delays (centiseconds x 10). Browsers play delays
 * of 0 or 1 cs as 10 cs; we report what the file says so an encoder can check its own output, and
 * leave any "as played" figure to the caller.
 */
export function inspectGif(bytes: Uint8Array): MediaInfo {
  const n = bytes.length
  if (n === 0) throw new MediaError('EMPTY')
  checkSignature(bytes)
  need(bytes, 13)

  const width = u16le(bytes, 6)
  const height = u16le(bytes, 8)
  if (width === 0 || height === 0) bad('logical screen has no area', 6)
  assertDimensions(width, height)
  const screenFlags = bytes[10]!
  const hasGlobalTable = (screenFlags & 0x80) !== 0
  let pos = 13 + (hasGlobalTable ? colourTableBytes(screenFlags) : 0)

  let frames = 0
  let delayCs = 0
  let pendingDelayCs = 0
  let loop = 1

  for (;;) {
    need(bytes, pos + 1)
    const introducer = bytes[pos]!
    if (introducer === TRAILER) {
      pos += 1
      break
    }
    if (introducer === EXTENSION) {
      need(bytes, pos + 2)
      const label = bytes[pos + 1]!
      pos += 2
      if (label === GRAPHIC_CONTROL) {
        need(bytes, pos + 6)
        if (bytes[pos] !== 4 || bytes[pos + 5] !== 0) bad('malformed graphic control extension', pos)
        pendingDelayCs = u16le(bytes, pos + 2)
        pos += 6
      } else if (label === APPLICATION) {
        need(bytes, pos + 1)
        const idEnd = pos + 1 + bytes[pos]!
        need(bytes, idEnd + 1)
        const id = latin1(bytes, pos + 1, idEnd)
        pos = idEnd
        // NETSCAPE2.0 (or its ANIMEXTS1.0 twin): sub-block [3, 1, count lo, count hi].
        if ((id === 'NETSCAPE2.0' || id === 'ANIMEXTS1.0') && bytes[pos] === 3) {
          need(bytes, pos + 4)
          if (bytes[pos + 1] === 1) {
            const count = u16le(bytes, pos + 2)
            loop = count === 0 ? 0 : count + 1
          }
        }
        pos = skipSubBlocks(bytes, pos, true)
      } else {
        // Comment, plain text and unknown extensions: sub-blocks we only check for hidden markup.
        pos = skipSubBlocks(bytes, pos, true)
      }
      continue
    }
    if (introducer !== IMAGE) bad(`unknown block 0x${introducer.toString(16)}`, pos)

    need(bytes, pos + 10)
    const left = u16le(bytes, pos + 1)
    const top = u16le(bytes, pos + 3)
    const frameWidth = u16le(bytes, pos + 5)
    const frameHeight = u16le(bytes, pos + 7)
    const imageFlags = bytes[pos + 9]!
    if (frameWidth === 0 || frameHeight === 0) bad('frame has no area', pos)
    // Strict on purpose: browsers disagree on how to show frames that overflow the screen.
    if (left + frameWidth > width || top + frameHeight > height) bad('frame outside the canvas', pos)
    pos += 10
    if (imageFlags & 0x80) pos += colourTableBytes(imageFlags)
    else if (!hasGlobalTable) bad('frame has no colour table', pos)

    need(bytes, pos + 2)
    const minCodeSize = bytes[pos]!
    // The spec allows 2..8 (one more than the palette bits, never below 2).
    if (minCodeSize < 2 || minCodeSize > 8) bad(`LZW minimum code size ${minCodeSize}`, pos)
    if (bytes[pos + 1] === 0) bad('frame has no image data', pos)
    pos = skipSubBlocks(bytes, pos + 1, false)

    frames += 1
    assertFrameCount(frames)
    delayCs += pendingDelayCs
    pendingDelayCs = 0
  }

  if (frames === 0) bad('no image in the file', pos)
  assertNothingAfter(bytes, pos)
  return {
    format: 'gif',
    contentType: INSPECTED_CONTENT_TYPE.gif,
    width,
    height,
    frames,
    durationMs: delayCs * 10,
    loop,
    bytes: n,
  }
}

function checkSignature(bytes: Uint8Array): void {
  const head = latin1(bytes, 0, Math.min(6, bytes.length))
  if (!SIGNATURES.some((signature) => signature.startsWith(head))) {
    throw new MediaError('BAD_SIGNATURE', { expected: 'gif' })
  }
  need(bytes, 6)
}

/** Returns the offset after the block terminator. */
function skipSubBlocks(bytes: Uint8Array, pos: number, scanForMarkup: boolean): number {
  for (;;) {
    need(bytes, pos + 1)
    const size = bytes[pos]!
    if (size === 0) return pos + 1
    need(bytes, pos + 1 + size)
    if (scanForMarkup) assertNoMarkup(bytes, pos + 1, pos + 1 + size, 'GIF extension')
    pos += 1 + size
  }
}

function colourTableBytes(flags: number): number {
  return 3 << ((flags & 7) + 1)
}

function need(bytes: Uint8Array, end: number): void {
  if (end > bytes.length) throw new MediaError('TRUNCATED', { format: 'gif', offset: bytes.length })
}

function bad(reason: string, offset: number): never {
  throw new MediaError('BAD_STRUCTURE', { format: 'gif', reason, offset })
}

function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8)
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end))
}

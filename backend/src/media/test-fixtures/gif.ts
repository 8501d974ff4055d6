/** Builds GIF files block by block, with real (if uncompressed) LZW data. */
import { bytes, u16le, type ByteSource } from './bytes'

export interface GifFrame {
  delayCs?: number
  left?: number
  top?: number
  /** Defaults to the logical screen size. */
  width?: number
  height?: number
  /** Bits of a local colour table (1..8); none by default. */
  localTableBits?: number
  /** Defaults to 2; pixel values must stay below 2 ** minCodeSize. */
  minCodeSize?: number
  /** Colour index of every pixel (default 0). */
  fill?: number
}

export interface GifOptions {
  version?: '87a' | '89a'
  width?: number
  height?: number
  /** Bits of the global colour table (1..8), 0 for none. Default 2 (4 colours). */
  globalTableBits?: number
  /** NETSCAPE2.0 loop count (0 = forever); no block when undefined. */
  loop?: number
  /** Comment extensions written before the first frame. */
  comments?: string[]
  frames?: GifFrame[]
}

export function buildGif(options: GifOptions = {}): Uint8Array {
  return bytes(...gifParts(options), [0x3b])
}

/** Every block except the trailer, so tests can append or cut. */
export function gifParts({
  version = '89a',
  width = 4,
  height = 4,
  globalTableBits = 2,
  loop,
  comments = [],
  frames = [{}],
}: GifOptions = {}): ByteSource[] {
  const parts: ByteSource[] = [`GIF${version}`, u16le(width), u16le(height)]
  parts.push([globalTableBits ? 0x80 | 0x10 | (globalTableBits - 1) : 0, 0, 0])
  if (globalTableBits) parts.push(colourTable(globalTableBits))
  if (loop !== undefined) parts.push([0x21, 0xff, 11], 'NETSCAPE2.0', [3, 1, ...u16le(loop), 0])
  for (const comment of comments) parts.push([0x21, 0xfe], subBlocks(bytes(comment)))
  for (const frame of frames) parts.push(...frameParts(frame, width, height))
  return parts
}

export function frameParts(frame: GifFrame, screenWidth: number, screenHeight: number): ByteSource[] {
  const { delayCs, left = 0, top = 0, width = screenWidth, height = screenHeight, localTableBits } = frame
  const minCodeSize = frame.minCodeSize ?? 2
  const parts: ByteSource[] = []
  if (delayCs !== undefined) parts.push([0x21, 0xf9, 4, 0, ...u16le(delayCs), 0, 0])
  parts.push([0x2c, ...u16le(left), ...u16le(top), ...u16le(width), ...u16le(height)])
  parts.push([localTableBits ? 0x80 | (localTableBits - 1) : 0])
  if (localTableBits) parts.push(colourTable(localTableBits))
  parts.push([minCodeSize], subBlocks(lzwLiteral(width * height, frame.fill ?? 0, minCodeSize)))
  return parts
}

/** Data sub-blocks of at most 255 bytes, then the 0 terminator. */
export function subBlocks(data: Uint8Array): Uint8Array {
  const parts: ByteSource[] = []
  for (let at = 0; at < data.length; at += 255) {
    const block = data.subarray(at, at + 255)
    parts.push([block.length], block)
  }
  return bytes(...parts, [0])
}

function colourTable(bits: number): number[] {
  return Array.from({ length: 3 << bits }, (_, i) => (i * 37) & 0xff)
}

/**
 * A valid LZW stream that never builds on its dictionary: every pixel is a literal code, with a
 * clear code often enough that the code width never grows.
 */
function lzwLiteral(pixelCount: number, index: number, minCodeSize: number): Uint8Array {
  const clear = 1 << minCodeSize
  const width = minCodeSize + 1
  const out: number[] = []
  let buffer = 0
  let bits = 0
  const emit = (code: number) => {
    buffer |= code << bits
    bits += width
    while (bits >= 8) {
      out.push(buffer & 0xff)
      buffer >>>= 8
      bits -= 8
    }
  }
  for (let i = 0; i < pixelCount; i++) {
    if (i % (clear - 2) === 0) emit(clear)
    emit(index)
  }
  emit(clear + 1)
  if (bits > 0) out.push(buffer & 0xff)
  return Uint8Array.from(out)
}

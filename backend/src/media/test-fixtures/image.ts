/** Builds minimal JPEG, WebP and ZIP files: just enough structure for the inspectors (and real tools). */
import { crc32 } from 'node:zlib'
import { bytes, u16be, u16le, u24le, u32le, type ByteSource } from './bytes'

const segment = (marker: number, data: ByteSource) => {
  const body = bytes(data)
  return bytes([0xff, marker], u16be(body.length + 2), body)
}

export interface JpegOptions {
  width?: number
  height?: number
  /** SOF marker: 0xc0 baseline, 0xc2 progressive. */
  sof?: number
  comment?: string
  /** Leave out the SOF segment. */
  noFrameHeader?: boolean
}

export function jpegParts({ width = 8, height = 8, sof = 0xc0, comment, noFrameHeader }: JpegOptions = {}) {
  const parts: ByteSource[] = [
    [0xff, 0xd8],
    segment(0xe0, bytes('JFIF\0', [1, 1, 0, 0, 1, 0, 1, 0, 0])),
    segment(0xdb, bytes([0], new Array(64).fill(1))),
  ]
  if (comment !== undefined) parts.push(segment(0xfe, comment))
  if (!noFrameHeader) parts.push(segment(sof, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]))
  parts.push(
    segment(0xc4, bytes([0x00, 1], new Array(15).fill(0), [0])),
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    // Entropy-coded data with a stuffed 0xFF00 and a restart marker inside.
    [0x12, 0x34, 0xff, 0x00, 0x56, 0xff, 0xd0, 0x78],
    [0xff, 0xd9],
  )
  return parts
}

export const buildJpeg = (options?: JpegOptions) => bytes(...jpegParts(options))

const riffChunk = (fourcc: string, data: ByteSource) => {
  const body = bytes(data)
  return bytes(fourcc, u32le(body.length), body, body.length % 2 ? [0] : [])
}

export const riff = (...chunks: Uint8Array[]) => {
  const body = bytes('WEBP', ...chunks)
  return bytes('RIFF', u32le(body.length), body)
}

export function vp8l(width: number, height: number): Uint8Array {
  const bits = (width - 1) | ((height - 1) << 14) | (1 << 28)
  return riffChunk('VP8L', [0x2f, ...u32le(bits >>> 0), 0x00, 0x00, 0x00])
}

export function vp8(width: number, height: number): Uint8Array {
  return riffChunk('VP8 ', [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height), 0, 0])
}

export const webpLossless = (width = 16, height = 8) => riff(vp8l(width, height))
export const webpLossy = (width = 16, height = 8) => riff(vp8(width, height))

export interface WebpFrame {
  x?: number
  y?: number
  width: number
  height: number
  durationMs: number
}

export function webpAnimated(width: number, height: number, frames: WebpFrame[], loop = 0): Uint8Array {
  return riff(
    riffChunk('VP8X', [0x02, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]),
    riffChunk('ANIM', [0xff, 0xff, 0xff, 0xff, ...u16le(loop)]),
    ...frames.map(({ x = 0, y = 0, width: w, height: h, durationMs }) =>
      riffChunk('ANMF', bytes([...u24le(x / 2), ...u24le(y / 2), ...u24le(w - 1), ...u24le(h - 1), ...u24le(durationMs), 0], vp8l(w, h))),
    ),
  )
}

/** A one-file stored ZIP; `base` shifts its offsets, as when it is appended to another file. */
export function buildZip(name: string, content: string, base = 0): Uint8Array {
  const data = bytes(content)
  const sum = crc32(data)
  const common = [...u16le(20), 0, 0, 0, 0, 0, 0, 0, 0, ...u32le(sum), ...u32le(data.length), ...u32le(data.length)]
  const local = bytes('PK\x03\x04', common, u16le(name.length), u16le(0), name, data)
  const central = bytes('PK\x01\x02', u16le(20), common, u16le(name.length), new Array(12).fill(0), u32le(base), name)
  const end = bytes('PK\x05\x06', [0, 0, 0, 0, 1, 0, 1, 0], u32le(central.length), u32le(base + local.length), u16le(0))
  return bytes(local, central, end)
}

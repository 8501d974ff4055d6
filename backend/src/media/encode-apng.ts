import { crc32, deflateSync } from 'node:zlib'
import type { FrameSequence } from './encode-gif'

export interface ApngOptions {
  /** zlib level, 0-9 (default 6). */
  level?: number
}

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)
const DISPOSE_NONE = 0
const BLEND_SOURCE = 0

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

function u32s(...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4)
  const view = new DataView(out.buffer)
  values.forEach((v, i) => view.setUint32(i * 4, v))
  return out
}

function ihdr(width: number, height: number): Uint8Array {
  const data = new Uint8Array(13)
  data.set(u32s(width, height))
  data[8] = 8 // bit depth
  data[9] = 6 // colour type RGBA
  return chunk('IHDR', data) // compression, filter and interlace stay 0
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/** PNG scanlines of a w*h region of an RGBA image with filter type None on every row. */
function unfilteredRegion(rgba: Uint8Array, stride: number, x0: number, y0: number, w: number, h: number): Uint8Array {
  const rowBytes = w * 4
  const out = new Uint8Array(h * (rowBytes + 1))
  for (let y = 0; y < h; y++) {
    const start = ((y0 + y) * stride + x0) * 4
    out.set(rgba.subarray(start, start + rowBytes), y * (rowBytes + 1) + 1)
  }
  return out
}

/**
 * PNG scanlines of a w*h region of an RGBA image, each row prefixed by the filter
 * (None, Sub, Up, Average or Paeth) with the smallest sum of absolute residuals.
 */
function filteredRegion(rgba: Uint8Array, stride: number, x0: number, y0: number, w: number, h: number): Uint8Array {
  const rowBytes = w * 4
  const out = new Uint8Array(h * (rowBytes + 1))
  const candidates = Array.from({ length: 5 }, () => new Uint8Array(rowBytes))
  const zero = new Uint8Array(rowBytes)
  for (let y = 0; y < h; y++) {
    const start = ((y0 + y) * stride + x0) * 4
    const row = rgba.subarray(start, start + rowBytes)
    const up = y === 0 ? zero : rgba.subarray(start - stride * 4, start - stride * 4 + rowBytes)
    let best = 0
    let bestScore = Infinity
    for (let type = 0; type < 5; type++) {
      const line = candidates[type]!
      let score = 0
      for (let i = 0; i < rowBytes; i++) {
        const left = i >= 4 ? row[i - 4]! : 0
        const above = up[i]!
        let v: number
        switch (type) {
          case 0: v = row[i]!; break
          case 1: v = row[i]! - left; break
          case 2: v = row[i]! - above; break
          case 3: v = row[i]! - ((left + above) >> 1); break
          default: v = row[i]! - paeth(left, above, i >= 4 ? up[i - 4]! : 0)
        }
        v &= 0xff
        line[i] = v
        score += v < 128 ? v : 256 - v
        if (score >= bestScore) break
      }
      if (score < bestScore) {
        bestScore = score
        best = type
      }
    }
    out[y * (rowBytes + 1)] = best
    out.set(candidates[best]!, y * (rowBytes + 1) + 1)
  }
  return out
}

type FilterMode = 'none' | 'adaptive'

function compressRegion(rgba: Uint8Array, stride: number, r: Rect, level: number, mode: FilterMode): Uint8Array {
  const lines = mode === 'none' ? unfilteredRegion : filteredRegion
  return deflateSync(lines(rgba, stride, r.x, r.y, r.w, r.h), { level })
}

/**
 * Flat cartoon colours deflate best unfiltered (long repeats of whole pixels), while gradients
 * and photos need filters: compress the first frame both ways and keep the winner's mode.
 */
function bestMode(rgba: Uint8Array, stride: number, r: Rect, level: number): { mode: FilterMode; data: Uint8Array } {
  const plain = compressRegion(rgba, stride, r, level, 'none')
  const filtered = compressRegion(rgba, stride, r, level, 'adaptive')
  return plain.length <= filtered.length ? { mode: 'none', data: plain } : { mode: 'adaptive', data: filtered }
}

interface Rect {
  x: number
  y: number
  w: number
  h: number
}

/** The smallest rectangle holding every pixel that differs between two frames (null if none). */
function changedRect(prev: Uint8Array, next: Uint8Array, width: number, height: number): Rect | null {
  const a = new Uint32Array(prev.buffer, prev.byteOffset, width * height)
  const b = new Uint32Array(next.buffer, next.byteOffset, width * height)
  let top = height
  let bottom = -1
  let left = width
  let right = -1
  for (let y = 0; y < height; y++) {
    const row = y * width
    let x = 0
    while (x < width && a[row + x] === b[row + x]) x++
    if (x === width) continue
    let xr = width - 1
    while (a[row + xr] === b[row + xr]) xr--
    if (y < top) top = y
    bottom = y
    if (x < left) left = x
    if (xr > right) right = xr
  }
  return bottom < 0 ? null : { x: left, y: top, w: right - left + 1, h: bottom - top + 1 }
}

/** Aligned copy, so the frames can be viewed as 32-bit pixels. */
function aligned(frame: Uint8Array): Uint8Array {
  return frame.byteOffset % 4 === 0 ? frame : frame.slice()
}

function delayFraction(fps: number): [number, number] {
  return Number.isInteger(fps) && fps <= 0xffff ? [1, fps] : [100, Math.round(fps * 100)]
}

/**
 * Encodes an APNG (8-bit RGBA, loops forever). After the first frame, each frame only
 * stores the rectangle that changed, drawn over the previous one (dispose none, blend source).
 */
export function encodeApng(seq: FrameSequence, options: ApngOptions = {}): Uint8Array {
  const { width, height, fps } = seq
  const frames = seq.frames.map(aligned)
  if (frames.length === 0) throw new Error('no frames to encode')
  for (const [n, f] of frames.entries()) if (f.length !== width * height * 4) throw new Error(`frame ${n} has the wrong size`)
  const level = options.level ?? 6
  const [delayNum, delayDen] = delayFraction(fps)

  const parts: Uint8Array[] = [SIGNATURE, ihdr(width, height), chunk('acTL', u32s(frames.length, 0))]
  let seqNo = 0
  let mode: FilterMode = 'none'
  frames.forEach((frame, n) => {
    const rect = n === 0 ? { x: 0, y: 0, w: width, h: height } : changedRect(frames[n - 1]!, frame, width, height) ?? { x: 0, y: 0, w: 1, h: 1 }
    const fctl = new Uint8Array(26)
    const view = new DataView(fctl.buffer)
    view.setUint32(0, seqNo++)
    view.setUint32(4, rect.w)
    view.setUint32(8, rect.h)
    view.setUint32(12, rect.x)
    view.setUint32(16, rect.y)
    view.setUint16(20, delayNum)
    view.setUint16(22, delayDen)
    fctl[24] = DISPOSE_NONE
    fctl[25] = BLEND_SOURCE
    parts.push(chunk('fcTL', fctl))

    if (n === 0) {
      const first = bestMode(frame, width, rect, level)
      mode = first.mode
      parts.push(chunk('IDAT', first.data))
    } else {
      const data = compressRegion(frame, width, rect, level, mode)
      const fdat = new Uint8Array(4 + data.length)
      new DataView(fdat.buffer).setUint32(0, seqNo++)
      fdat.set(data, 4)
      parts.push(chunk('fdAT', fdat))
    }
  })
  parts.push(chunk('IEND', new Uint8Array(0)))
  return concat(parts)
}

/** A plain (still) RGBA PNG. */
export function encodePng(width: number, height: number, rgba: Uint8Array, level = 6): Uint8Array {
  if (rgba.length !== width * height * 4) throw new Error('pixel buffer has the wrong size')
  const idat = bestMode(rgba, width, { x: 0, y: 0, w: width, h: height }, level).data
  return concat([SIGNATURE, ihdr(width, height), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))])
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { encodeApng, encodePng } from './encode-apng'

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

interface Chunk {
  type: string
  data: Uint8Array
}

function readChunks(png: Uint8Array): Chunk[] {
  expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const chunks: Chunk[] = []
  let pos = 8
  while (pos < png.length) {
    const length = view.getUint32(pos)
    const type = String.fromCharCode(...png.subarray(pos + 4, pos + 8))
    expect(view.getUint32(pos + 8 + length), `CRC of ${type}`).toBe(crc32(png.subarray(pos + 4, pos + 8 + length)))
    chunks.push({ type, data: png.subarray(pos + 8, pos + 8 + length) })
    pos += 12 + length
  }
  expect(pos).toBe(png.length)
  return chunks
}

const filtersSeen = new Set<number>()

/** Reverses the PNG row filters of a w*h RGBA region. */
function unfilter(raw: Uint8Array, w: number, h: number): Uint8Array {
  const row = w * 4
  expect(raw.length).toBe(h * (row + 1))
  const out = new Uint8Array(w * h * 4)
  for (let y = 0; y < h; y++) {
    const type = raw[y * (row + 1)]!
    expect(type).toBeLessThanOrEqual(4)
    filtersSeen.add(type)
    for (let i = 0; i < row; i++) {
      const a = i >= 4 ? out[y * row + i - 4]! : 0
      const b = y > 0 ? out[(y - 1) * row + i]! : 0
      const c = i >= 4 && y > 0 ? out[(y - 1) * row + i - 4]! : 0
      const p = a + b - c
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c
      const predictor = [0, a, b, (a + b) >> 1, paeth][type]!
      out[y * row + i] = (raw[y * (row + 1) + 1 + i]! + predictor) & 0xff
    }
  }
  return out
}

/** Plays an APNG back (dispose none / blend source only) and returns every composed frame. */
function decodeApng(png: Uint8Array) {
  const chunks = readChunks(png)
  expect(chunks[0]!.type).toBe('IHDR')
  expect(chunks.at(-1)!.type).toBe('IEND')
  const ihdr = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset)
  const width = ihdr.getUint32(0)
  const height = ihdr.getUint32(4)
  expect(Array.from(chunks[0]!.data.subarray(8))).toEqual([8, 6, 0, 0, 0])
  const actl = chunks.find((c) => c.type === 'acTL')!
  const numFrames = new DataView(actl.data.buffer, actl.data.byteOffset).getUint32(0)
  const numPlays = new DataView(actl.data.buffer, actl.data.byteOffset).getUint32(4)

  const sequence: number[] = []
  const canvas = new Uint8Array(width * height * 4)
  const frames: Uint8Array[] = []
  const delays: Array<[number, number]> = []
  let current: { w: number; h: number; x: number; y: number } | null = null
  const draw = (data: Uint8Array) => {
    const { w, h, x, y } = current!
    const pixels = unfilter(inflateSync(data), w, h)
    for (let row = 0; row < h; row++) canvas.set(pixels.subarray(row * w * 4, (row + 1) * w * 4), ((y + row) * width + x) * 4)
    frames.push(canvas.slice())
  }
  for (const c of chunks) {
    const v = new DataView(c.data.buffer, c.data.byteOffset, c.data.byteLength)
    if (c.type === 'fcTL') {
      sequence.push(v.getUint32(0))
      current = { w: v.getUint32(4), h: v.getUint32(8), x: v.getUint32(12), y: v.getUint32(16) }
      expect(current.x + current.w).toBeLessThanOrEqual(width)
      expect(current.y + current.h).toBeLessThanOrEqual(height)
      delays.push([v.getUint16(20), v.getUint16(22)])
      expect([c.data[24], c.data[25]]).toEqual([0, 0])
    } else if (c.type === 'IDAT') {
      expect(frames).toHaveLength(0)
      draw(c.data)
    } else if (c.type === 'fdAT') {
      sequence.push(v.getUint32(0))
      draw(c.data.subarray(4))
    }
  }
  return { width, height, numFrames, numPlays, fcTLs: delays.length, sequence, frames, delays }
}

/** w*h frames mixing flat colour, soft alpha and a gradient, with a square that moves. */
function makeFrames(count: number, w = 24, h = 20, gradient = false): Uint8Array[] {
  return Array.from({ length: count }, (_, n) => {
    const f = new Uint8Array(w * h * 4)
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4
        if (gradient) f.set([x * 10, y * 12, (x * y + n) & 255, 255], i)
        if (x >= 2 + n && x < 8 + n && y >= 3 && y < 9) f.set([20, 180, 120, 255], i)
        else if (y === h - 2) f.set([10, 10, 30, 40], i)
      }
    }
    return f
  })
}

describe('encodeApng', () => {
  it('writes valid chunks that play back to exactly the input frames', () => {
    const input = makeFrames(5)
    const apng = decodeApng(encodeApng({ width: 24, height: 20, fps: 30, frames: input }))
    expect([apng.width, apng.height]).toEqual([24, 20])
    expect(apng.numFrames).toBe(5)
    expect(apng.fcTLs).toBe(5)
    expect(apng.numPlays).toBe(0)
    expect(apng.sequence).toEqual(Array.from({ length: 9 }, (_, i) => i)) // fcTL, then fcTL+fdAT per frame
    expect(apng.delays.every(([num, den]) => num / den === 1 / 30)).toBe(true)
    expect(apng.frames).toEqual(input)
  })

  it('round-trips filtered content (gradients) and repeated frames', () => {
    const [a, b] = makeFrames(2, 40, 30, true)
    const input = [a!, a!, b!, b!, a!]
    filtersSeen.clear()
    const apng = decodeApng(encodeApng({ width: 40, height: 30, fps: 25, frames: input }))
    expect(apng.frames).toEqual(input)
    expect([...filtersSeen].some((t) => t !== 0)).toBe(true)
    expect(apng.delays[0]).toEqual([1, 25])
  })

  it('writes fractional frame rates as exact delays', () => {
    const apng = decodeApng(encodeApng({ width: 24, height: 20, fps: 12.5, frames: makeFrames(2) }))
    expect(apng.delays[0]![0] / apng.delays[0]![1]).toBeCloseTo(0.08, 6)
  })

  it('rejects empty or wrongly sized input', () => {
    expect(() => encodeApng({ width: 4, height: 4, fps: 30, frames: [] })).toThrow(/no frames/)
    expect(() => encodeApng({ width: 4, height: 4, fps: 30, frames: [new Uint8Array(3)] })).toThrow(/wrong size/)
  })
})

describe('encodePng', () => {
  it('writes a still RGBA PNG', () => {
    const [frame] = makeFrames(1, 10, 8, true)
    const png = encodePng(10, 8, frame!)
    const chunks = readChunks(png)
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    expect(unfilter(inflateSync(chunks[1]!.data), 10, 8)).toEqual(frame)
  })
})

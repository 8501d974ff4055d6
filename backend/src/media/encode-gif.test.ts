import { describe, expect, it } from 'vitest'
import { encodeGif, gifDelays } from './encode-gif'

interface GifFrame {
  delayCs: number
  dispose: number
  transparentIndex: number | null
  pixels: Uint8Array
  localPalette: boolean
}

/** A small GIF reader for the checks: block walk plus LZW decoding. */
function readGif(bytes: Uint8Array) {
  const ascii = (from: number, n: number) => String.fromCharCode(...bytes.subarray(from, from + n))
  const u16 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8)
  expect(ascii(0, 6)).toBe('GIF89a')
  const width = u16(6)
  const height = u16(8)
  const packed = bytes[10]!
  let pos = 13
  let palette: number[][] = []
  if (packed & 0x80) {
    const n = 1 << ((packed & 7) + 1)
    for (let i = 0; i < n; i++) palette.push(Array.from(bytes.subarray(pos + i * 3, pos + i * 3 + 3)))
    pos += n * 3
  }
  let loop: number | null = null
  const frames: GifFrame[] = []
  let gce = { delayCs: 0, dispose: 0, transparentIndex: null as number | null }
  const subBlocks = () => {
    const parts: number[] = []
    while (bytes[pos] !== 0) {
      const n = bytes[pos]!
      parts.push(...bytes.subarray(pos + 1, pos + 1 + n))
      pos += n + 1
    }
    pos++
    return Uint8Array.from(parts)
  }
  for (;;) {
    const block = bytes[pos++]
    if (block === 0x3b) break
    if (block === 0x21) {
      const label = bytes[pos++]
      if (label === 0xf9) {
        const flags = bytes[pos + 1]!
        gce = { delayCs: u16(pos + 2), dispose: (flags >> 2) & 7, transparentIndex: flags & 1 ? bytes[pos + 4]! : null }
        pos += 6
      } else if (label === 0xff) {
        const app = ascii(pos + 1, 11)
        pos += 12
        const data = subBlocks()
        if (app === 'NETSCAPE2.0') loop = data[1]! | (data[2]! << 8)
      } else {
        subBlocks()
      }
    } else if (block === 0x2c) {
      const w = u16(pos + 4)
      const h = u16(pos + 6)
      const flags = bytes[pos + 8]!
      pos += 9
      if (flags & 0x80) {
        const n = 1 << ((flags & 7) + 1)
        palette = []
        for (let i = 0; i < n; i++) palette.push(Array.from(bytes.subarray(pos + i * 3, pos + i * 3 + 3)))
        pos += n * 3
      }
      const minCode = bytes[pos++]!
      frames.push({ ...gce, pixels: lzwDecode(minCode, subBlocks(), w * h), localPalette: !!(flags & 0x80) })
    } else {
      throw new Error(`unexpected block ${block} at ${pos - 1}`)
    }
  }
  return { width, height, palette, loop, frames }
}

function lzwDecode(minCode: number, data: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(count)
  const clear = 1 << minCode
  let size = minCode + 1
  let dict: number[][] = []
  const reset = () => {
    dict = Array.from({ length: clear + 2 }, (_, i) => [i])
    size = minCode + 1
  }
  reset()
  let bit = 0
  let n = 0
  let prev: number[] | null = null
  while (n < count) {
    let code = 0
    for (let i = 0; i < size; i++, bit++) code |= ((data[bit >> 3]! >> (bit & 7)) & 1) << i
    if (code === clear) { reset(); prev = null; continue }
    if (code === clear + 1) break
    const entry: number[] = code < dict.length ? dict[code]! : [...prev!, prev![0]!]
    for (const v of entry) out[n++] = v
    if (prev) dict.push([...prev, entry[0]!])
    if (dict.length === 1 << size && size < 12) size++
    prev = entry
  }
  return out
}

/** 16x16 frames: an opaque orange square moving right, a soft half-transparent stripe, a clear background. */
function frames(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, n) => {
    const f = new Uint8Array(16 * 16 * 4)
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 16; x++) {
        const i = (y * 16 + x) * 4
        if (x >= n && x < n + 4 && y >= 4 && y < 8) f.set([250, 140, 20, 255], i)
        else if (y === 12) f.set([0, 0, 0, 60], i) // a soft shadow
        else if (y === 13) f.set([40, 80, 200, 200], i) // mostly opaque edge
      }
    }
    return f
  })
}

describe('gifDelays', () => {
  it('follows the real timeline in centiseconds', () => {
    expect(gifDelays(6, 30)).toEqual([3, 3, 4, 3, 3, 4])
    expect(gifDelays(60, 30).reduce((a, b) => a + b)).toBe(200)
    expect(gifDelays(4, 25)).toEqual([4, 4, 4, 4])
    expect(gifDelays(24, 24).reduce((a, b) => a + b)).toBe(100)
  })
})

describe('encodeGif', () => {
  it('writes a looping GIF with one frame per input frame and the right delays', () => {
    const gif = readGif(encodeGif({ width: 16, height: 16, fps: 30, frames: frames(6) }))
    expect([gif.width, gif.height]).toEqual([16, 16])
    expect(gif.loop).toBe(0)
    expect(gif.frames).toHaveLength(6)
    expect(gif.frames.map((f) => f.delayCs)).toEqual([3, 3, 4, 3, 3, 4])
    // One global palette, every frame clears to transparent before the next.
    expect(gif.frames.every((f) => !f.localPalette && f.dispose === 2 && f.transparentIndex === 0)).toBe(true)
  })

  it('thresholds alpha: soft pixels vanish, solid ones keep their colour', () => {
    const source = frames(3)
    const gif = readGif(encodeGif({ width: 16, height: 16, fps: 30, frames: source }))
    for (const [n, frame] of gif.frames.entries()) {
      for (let i = 0; i < 256; i++) {
        const alpha = source[n]![i * 4 + 3]!
        const index = frame.pixels[i]!
        if (alpha < 128) {
          expect(index).toBe(0)
        } else {
          expect(index).not.toBe(0)
          const rgb = gif.palette[index]!
          const want = Array.from(source[n]!.subarray(i * 4, i * 4 + 3))
          rgb.forEach((c, k) => expect(Math.abs(c - want[k]!)).toBeLessThanOrEqual(8))
        }
      }
    }
  })

  it('encodes a fully transparent animation', () => {
    const clear = new Uint8Array(8 * 8 * 4)
    const gif = readGif(encodeGif({ width: 8, height: 8, fps: 10, frames: [clear, clear] }))
    expect(gif.frames).toHaveLength(2)
    expect(gif.frames.every((f) => f.pixels.every((i) => i === 0))).toBe(true)
  })

  it('rejects frames of the wrong size and empty input', () => {
    expect(() => encodeGif({ width: 16, height: 16, fps: 30, frames: [] })).toThrow(/no frames/)
    expect(() => encodeGif({ width: 16, height: 16, fps: 30, frames: [new Uint8Array(10)] })).toThrow(/wrong size/)
  })
})

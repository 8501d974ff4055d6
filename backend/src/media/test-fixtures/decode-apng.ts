// A PNG/APNG decoder for tests, written from the specifications and sharing no code with the
// encoder: chunk walk with CRCs, inflate, the five row filters, colour types 3 (with tRNS) and 6,
// and the APNG dispose (none, background, previous) and blend (source, over) ops.
import { inflateSync } from 'node:zlib'

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

export interface PngChunk {
  type: string
  data: Uint8Array
}

export function readPngChunks(png: Uint8Array): PngChunk[] {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (!signature.every((b, i) => png[i] === b)) throw new Error('not a PNG')
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const chunks: PngChunk[] = []
  let pos = 8
  while (pos < png.length) {
    const length = view.getUint32(pos)
    const type = String.fromCharCode(...png.subarray(pos + 4, pos + 8))
    if (view.getUint32(pos + 8 + length) !== crc32(png.subarray(pos + 4, pos + 8 + length))) throw new Error(`bad CRC in ${type}`)
    chunks.push({ type, data: png.subarray(pos + 8, pos + 8 + length) })
    pos += 12 + length
  }
  if (pos !== png.length) throw new Error('bytes after the last chunk')
  return chunks
}

export interface ApngFrameControl {
  w: number
  h: number
  x: number
  y: number
  delayMs: number
  dispose: number
  blend: number
}

export interface DecodedApng {
  width: number
  height: number
  colourType: number
  paletteSize: number
  numFrames: number
  numPlays: number
  controls: ApngFrameControl[]
  /** Sequence numbers of fcTL and fdAT in file order. */
  sequence: number[]
  /** Filter types seen in the rows. */
  filters: Set<number>
  /** The canvas after each frame, straight RGBA. */
  frames: Uint8Array[]
}

function unfilter(raw: Uint8Array, w: number, h: number, bpp: number, filters: Set<number>): Uint8Array {
  const row = w * bpp
  if (raw.length !== h * (row + 1)) throw new Error(`frame data is ${raw.length} bytes, expected ${h * (row + 1)}`)
  const out = new Uint8Array(w * h * bpp)
  for (let y = 0; y < h; y++) {
    const type = raw[y * (row + 1)]!
    if (type > 4) throw new Error(`filter type ${type}`)
    filters.add(type)
    for (let i = 0; i < row; i++) {
      const a = i >= bpp ? out[y * row + i - bpp]! : 0
      const b = y > 0 ? out[(y - 1) * row + i]! : 0
      const c = i >= bpp && y > 0 ? out[(y - 1) * row + i - bpp]! : 0
      const p = a + b - c
      const pa = Math.abs(p - a)
      const pb = Math.abs(p - b)
      const pc = Math.abs(p - c)
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      const predictor = [0, a, b, (a + b) >> 1, paeth][type]!
      out[y * row + i] = (raw[y * (row + 1) + 1 + i]! + predictor) & 0xff
    }
  }
  return out
}

/** Plays an APNG (or a still PNG, as one frame) and returns the canvas after every frame. */
export function decodeApng(png: Uint8Array): DecodedApng {
  const chunks = readPngChunks(png)
  if (chunks[0]?.type !== 'IHDR' || chunks.at(-1)?.type !== 'IEND') throw new Error('IHDR must come first and IEND last')
  const ihdr = new DataView(chunks[0].data.buffer, chunks[0].data.byteOffset, 13)
  const width = ihdr.getUint32(0)
  const height = ihdr.getUint32(4)
  const bitDepth = chunks[0].data[8]!
  const colourType = chunks[0].data[9]!
  if (bitDepth !== 8 || (colourType !== 3 && colourType !== 6)) throw new Error(`unsupported: depth ${bitDepth}, colour type ${colourType}`)
  const bpp = colourType === 6 ? 4 : 1
  let palette: Uint8Array[] = []
  const sequence: number[] = []
  const controls: ApngFrameControl[] = []
  const filters = new Set<number>()
  const frames: Uint8Array[] = []
  const canvas = new Uint8Array(width * height * 4)
  let numFrames = 1
  let numPlays = 0
  let pending: { control: ApngFrameControl; data: Uint8Array[] } | null = null
  const stillData: Uint8Array[] = []

  const toRgba = (pixels: Uint8Array, count: number): Uint8Array => {
    if (bpp === 4) return pixels
    const out = new Uint8Array(count * 4)
    for (let i = 0; i < count; i++) {
      const entry = palette[pixels[i]!]
      if (!entry) throw new Error(`index ${pixels[i]} outside the palette of ${palette.length}`)
      out.set(entry, i * 4)
    }
    return out
  }

  const finish = () => {
    if (!pending) return
    const { control, data } = pending
    const { w, h, x, y } = control
    const before = canvas.slice()
    const pixels = toRgba(unfilter(inflateSync(Buffer.concat(data)), w, h, bpp, filters), w * h)
    for (let row = 0; row < h; row++) {
      for (let col = 0; col < w; col++) {
        const s = (row * w + col) * 4
        const d = ((y + row) * width + x + col) * 4
        if (control.blend === 0) canvas.set(pixels.subarray(s, s + 4), d)
        else over(pixels, s, canvas, d)
      }
    }
    frames.push(canvas.slice())
    if (control.dispose === 1)
      for (let row = 0; row < h; row++) canvas.fill(0, ((y + row) * width + x) * 4, ((y + row) * width + x + w) * 4)
    if (control.dispose === 2) canvas.set(before)
    pending = null
  }

  for (const c of chunks) {
    const v = new DataView(c.data.buffer, c.data.byteOffset, c.data.byteLength)
    switch (c.type) {
      case 'PLTE':
        palette = Array.from({ length: c.data.length / 3 }, (_, i) =>
          Uint8Array.of(c.data[i * 3]!, c.data[i * 3 + 1]!, c.data[i * 3 + 2]!, 255),
        )
        break
      case 'tRNS':
        c.data.forEach((a, i) => {
          if (!palette[i]) throw new Error('tRNS longer than the palette')
          palette[i][3] = a
        })
        break
      case 'acTL':
        numFrames = v.getUint32(0)
        numPlays = v.getUint32(4)
        break
      case 'fcTL': {
        finish()
        sequence.push(v.getUint32(0))
        const den = v.getUint16(22) || 100
        const control = {
          w: v.getUint32(4),
          h: v.getUint32(8),
          x: v.getUint32(12),
          y: v.getUint32(16),
          delayMs: (v.getUint16(20) * 1000) / den,
          dispose: c.data[24]!,
          blend: c.data[25]!,
        }
        if (control.x + control.w > width || control.y + control.h > height) throw new Error('frame outside the canvas')
        controls.push(control)
        pending = { control, data: [] }
        break
      }
      case 'IDAT':
        if (pending) pending.data.push(c.data)
        else stillData.push(c.data)
        break
      case 'fdAT':
        sequence.push(v.getUint32(0))
        if (!pending) throw new Error('fdAT outside a frame')
        pending.data.push(c.data.subarray(4))
        break
    }
  }
  finish()
  if (controls.length === 0) {
    frames.push(toRgba(unfilter(inflateSync(Buffer.concat(stillData)), width, height, bpp, filters), width * height))
  }
  if (controls.length > 0 && controls.length !== numFrames)
    throw new Error(`acTL says ${numFrames} frames, the file has ${controls.length}`)
  return { width, height, colourType, paletteSize: palette.length, numFrames, numPlays, controls, sequence, filters, frames }
}

/** The APNG spec's OVER operator on straight-alpha RGBA, rounded. */
function over(src: Uint8Array, s: number, dst: Uint8Array, d: number): void {
  const sa = src[s + 3]!
  if (sa === 255) {
    dst.set(src.subarray(s, s + 4), d)
    return
  }
  if (sa === 0) return
  const da = dst[d + 3]!
  const outA = sa + (da * (255 - sa)) / 255
  for (let c = 0; c < 3; c++) dst[d + c] = Math.round((src[s + c]! * sa + (dst[d + c]! * da * (255 - sa)) / 255) / outA)
  dst[d + 3] = Math.round(outA)
}

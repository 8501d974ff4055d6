import { crc32, deflateSync } from 'node:zlib'
import {
  Bounds,
  bytesOf,
  checkedFrames,
  holdRepeats,
  inRect,
  rectArea,
  sameBytes,
  type FrameSequence,
  type HeldFrame,
  type Rect,
} from './frames'
import { quantizeFrames, type IndexedFrames } from './quantize'
import { concatBytes } from './concat-bytes'
import { countEncode } from '../render/render-stats'

export interface ApngOptions {
  /** zlib level, 0-9 (default 7; the ladders use 8 to fit: about 4% smaller than 7 for a little more time, where 9 saves 1% more for twice the time). */
  level?: number
  /**
   * 'auto' (default): 8-bit indexed with tRNS when one palette holds the animation within
   * PALETTE_FIT, else RGBA. 'always': indexed, whatever the error. 'never': RGBA. 'rgba': the
   * palette's colours (as 'always' picks them) stored as RGBA, for players that cannot show an
   * indexed APNG (Signal on iPhone): few colours still compress well, about 1.4 times the indexed bytes.
   */
  palette?: 'auto' | 'always' | 'never' | 'rgba'
  /** Palette quality, 1-100: lower gives fewer colours (default PALETTE_QUALITY). */
  quality?: number
  /** How many times to play; 0 = forever (default). */
  plays?: number
  /** Consecutive identical frames become one longer frame (default true; LINE counts frames). */
  mergeRepeats?: boolean
}

export interface EncodedApng {
  bytes: Uint8Array
  /** Palette entries (the colours of an 'rgba' file), or null for RGBA of any colour. */
  colours: number | null
  frames: number
}

/** How close a palette must come to the render for 'auto' to choose it (0-255 units, premultiplied). */
export const PALETTE_FIT = { rms: 1.5, max: 64 }

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)
const DISPOSE_NONE = 0
const DISPOSE_BACKGROUND = 1
const BLEND_SOURCE = 0
const BLEND_OVER = 1
const COLOUR_INDEXED = 3
const COLOUR_RGBA = 6

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

function ihdr(width: number, height: number, colourType: number): Uint8Array {
  const data = new Uint8Array(13)
  data.set(u32s(width, height))
  data[8] = 8 // bit depth
  data[9] = colourType
  return chunk('IHDR', data) // compression, filter and interlace stay 0
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/** Scanlines of `rows` (each `rowBytes` long) with filter type None. */
function unfiltered(rows: Uint8Array, rowBytes: number): Uint8Array {
  const h = rows.length / rowBytes
  const out = new Uint8Array(h * (rowBytes + 1))
  for (let y = 0; y < h; y++) out.set(rows.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1)
  return out
}

/**
 * Scanlines of RGBA `rows`, each prefixed by the filter (None, Sub, Up, Average or Paeth) with the
 * smallest sum of absolute residuals.
 */
function filtered(rows: Uint8Array, rowBytes: number, bpp: number): Uint8Array {
  const h = rows.length / rowBytes
  const out = new Uint8Array(h * (rowBytes + 1))
  const candidates = Array.from({ length: 5 }, () => new Uint8Array(rowBytes))
  const zero = new Uint8Array(rowBytes)
  for (let y = 0; y < h; y++) {
    const row = rows.subarray(y * rowBytes, (y + 1) * rowBytes)
    const up = y === 0 ? zero : rows.subarray((y - 1) * rowBytes, y * rowBytes)
    let best = 0
    let bestScore = Infinity
    for (let type = 0; type < 5; type++) {
      const line = candidates[type]!
      let score = 0
      for (let i = 0; i < rowBytes; i++) {
        const left = i >= bpp ? row[i - bpp]! : 0
        const above = up[i]!
        let v: number
        switch (type) {
          case 0:
            v = row[i]!
            break
          case 1:
            v = row[i]! - left
            break
          case 2:
            v = row[i]! - above
            break
          case 3:
            v = row[i]! - ((left + above) >> 1)
            break
          default:
            v = row[i]! - paeth(left, above, i >= bpp ? up[i - bpp]! : 0)
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

function compress(rows: Uint8Array, rowBytes: number, bpp: number, level: number, mode: FilterMode): Uint8Array {
  return deflateSync(mode === 'none' ? unfiltered(rows, rowBytes) : filtered(rows, rowBytes, bpp), { level })
}

/**
 * Flat cartoon colours deflate best unfiltered (long repeats of whole pixels), while gradients
 * and photos need filters: compress the first frame both ways and keep the winner's mode.
 */
function bestMode(rows: Uint8Array, rowBytes: number, bpp: number, level: number): { mode: FilterMode; data: Uint8Array } {
  const plain = compress(rows, rowBytes, bpp, level, 'none')
  const adaptive = compress(rows, rowBytes, bpp, level, 'adaptive')
  return plain.length <= adaptive.length ? { mode: 'none', data: plain } : { mode: 'adaptive', data: adaptive }
}

function delayFraction(ticks: number, fps: number): [number, number] {
  if (Number.isInteger(fps) && fps <= 0xffff && ticks <= 0xffff) return [ticks, fps]
  return [Math.min(0xffff, Math.round((ticks * 1000) / fps)), 1000]
}

interface FramePlan {
  held: HeldFrame
  rect: Rect
  blend: number
  /** What happens to this frame's rectangle before the next frame is drawn. */
  dispose: number
}

/** Frames as one value per pixel: palette indices, or RGBA pixels as little-endian u32 (alpha on top). */
interface PixelFrames {
  frames: Array<Uint8Array | Uint32Array>
  /** The value of a fully transparent pixel. */
  clear: number
  alphaOf: (value: number) => number
}

/**
 * Rectangles, blend and dispose ops of each frame, simulating the screen. Unchanged pixels become
 * fully transparent under blend OVER. OVER cannot make a pixel more transparent, nor draw a
 * translucent pixel over a visible one; such frames either replace their rectangle (SOURCE) or
 * have the previous frame disposed to transparent first, whichever writes fewer pixels.
 * With no transparent palette entry to spare, every frame replaces its rectangle.
 */
function planFrames({ frames, clear, alphaOf }: PixelFrames, width: number, keepAvailable: boolean, mergeRepeats: boolean): FramePlan[] {
  const held = holdRepeats(frames, (a, b) => mergeRepeats && sameBytes(bytesOf(a), bytesOf(b)))
  const height = frames[0]!.length / width
  const screen = new Uint32Array(frames[0]!.length).fill(clear)
  const plans: FramePlan[] = []
  for (const h of held) {
    const frame = frames[h.index]!
    const previous = plans.at(-1)
    if (!previous) {
      // The default image must cover the canvas.
      plans.push({ held: h, rect: { x: 0, y: 0, w: width, h: height }, blend: BLEND_SOURCE, dispose: DISPOSE_NONE })
      screen.set(frame)
      continue
    }
    const changed = new Bounds()
    const blocked = new Bounds()
    for (let y = 0, p = 0; y < height; y++) {
      for (let x = 0; x < width; x++, p++) {
        const want = frame[p]!
        const shown = screen[p]!
        if (want === shown) continue
        changed.add(x, y)
        if (alphaOf(want) < 255 && alphaOf(shown) > 0) blocked.add(x, y)
      }
    }
    let plan: FramePlan = { held: h, rect: changed.rect(), blend: keepAvailable ? BLEND_OVER : BLEND_SOURCE, dispose: DISPOSE_NONE }
    if (!blocked.empty && keepAvailable) {
      plan.blend = BLEND_SOURCE
      // The other way: clear the previous frame's rectangle (grown to the blocked pixels), then OVER.
      blocked.addRect(previous.rect)
      const cleared = blocked.rect()
      let written = 0
      const after = new Bounds()
      for (let y = 0, p = 0; y < height; y++) {
        for (let x = 0; x < width; x++, p++) {
          const shown = inRect(cleared, x, y) ? clear : screen[p]!
          if (frame[p] !== shown) {
            written++
            after.add(x, y)
          }
        }
      }
      if (written < rectArea(plan.rect)) {
        previous.rect = cleared
        previous.dispose = DISPOSE_BACKGROUND
        plan = { held: h, rect: after.rect(), blend: BLEND_OVER, dispose: DISPOSE_NONE }
      }
    }
    plans.push(plan)
    screen.set(frame)
  }
  return plans
}

/**
 * Encodes an APNG that frame by frame stores only the rectangle that changed (unchanged pixels
 * transparent under blend OVER, see planFrames). Flat art goes as 8-bit indexed colour with tRNS;
 * consecutive identical frames become one longer frame.
 */
export async function encodeApng(seq: FrameSequence, options: ApngOptions = {}): Promise<EncodedApng> {
  const started = performance.now()
  const encoded = await encodeApngUncounted(seq, options)
  countEncode('apng', performance.now() - started, encoded.bytes)
  return encoded
}

async function encodeApngUncounted(seq: FrameSequence, options: ApngOptions = {}): Promise<EncodedApng> {
  const { width, height, fps } = seq
  const input = checkedFrames(seq)
  const level = options.level ?? 7
  const choice = options.palette ?? 'auto'
  let indexed: IndexedFrames | undefined
  if (choice !== 'never') {
    indexed = await quantizeFrames(seq, { quality: options.quality })
    const fits = !indexed.quantized || (indexed.error.rms <= PALETTE_FIT.rms && indexed.error.max <= PALETTE_FIT.max)
    if (choice === 'auto' && !fits) indexed = undefined
  }

  const rgba = input.map((f) => new Uint32Array(f.buffer, f.byteOffset, f.length / 4))
  let pixels: PixelFrames = { frames: rgba, clear: 0, alphaOf: (v) => v >>> 24 }
  let entries: number[] = []
  let keepAvailable = true
  let colours: number | null = null
  if (indexed && choice === 'rgba') {
    const { palette } = indexed
    const table = new Uint32Array(palette.buffer, palette.byteOffset, indexed.colours)
    pixels.frames = indexed.frames.map((f) => {
      const out = new Uint32Array(f.length)
      for (let i = 0; i < f.length; i++) out[i] = table[f[i]!]!
      return out
    })
    colours = indexed.colours
    indexed = undefined
  }
  if (indexed) {
    entries = [...new Uint32Array(indexed.palette.buffer, indexed.palette.byteOffset, indexed.colours)]
    let frames = indexed.frames
    if (indexed.transparent < 0 && entries.length < 256) {
      // No pixel is ever clear: add the transparent entry that unchanged pixels need (tRNS lists it).
      entries = [0, ...entries]
      frames = frames.map((f) => f.map((i) => i + 1))
    } else if (indexed.transparent < 0) keepAvailable = false
    const alphas = entries.map((colour) => colour >>> 24)
    pixels = { frames, clear: 0, alphaOf: (i) => alphas[i]! }
  }

  const plans = planFrames(pixels, width, keepAvailable, options.mergeRepeats ?? true)
  const plays = options.plays ?? 0
  const colourType = indexed ? COLOUR_INDEXED : COLOUR_RGBA
  const parts: Uint8Array[] = [SIGNATURE, ihdr(width, height, colourType), chunk('acTL', u32s(plans.length, plays))]
  if (indexed) parts.push(...paletteAndTransparency(entries))
  const screen = new Uint32Array(width * height)
  const bytesPerPixel = indexed ? 1 : 4
  let mode: FilterMode = 'none'
  let seqNo = 0
  plans.forEach((plan, n) => {
    const { x, y, w, h } = plan.rect
    const frame = pixels.frames[plan.held.index]!
    const values = indexed ? new Uint8Array(w * h) : new Uint32Array(w * h)
    const over = plan.blend === BLEND_OVER
    for (let row = 0; row < h; row++) {
      const start = (y + row) * width + x
      for (let col = 0; col < w; col++) {
        const want = frame[start + col]!
        // Unchanged pixels are fully transparent: under OVER they keep what is on screen.
        values[row * w + col] = over && want === screen[start + col] ? pixels.clear : want
      }
      screen.set(frame.subarray(start, start + w), start)
    }
    if (plan.dispose === DISPOSE_BACKGROUND) {
      for (let row = y; row < y + h; row++) screen.fill(pixels.clear, row * width + x, row * width + x + w)
    }
    const rows = bytesOf(values)

    const fctl = new Uint8Array(26)
    const view = new DataView(fctl.buffer)
    const [delayNum, delayDen] = delayFraction(plan.held.ticks, fps)
    view.setUint32(0, seqNo++)
    view.setUint32(4, w)
    view.setUint32(8, h)
    view.setUint32(12, x)
    view.setUint32(16, y)
    view.setUint16(20, delayNum)
    view.setUint16(22, delayDen)
    fctl[24] = plan.dispose
    fctl[25] = plan.blend
    parts.push(chunk('fcTL', fctl))

    const rowBytes = w * bytesPerPixel
    if (n === 0) {
      const first = bestMode(rows, rowBytes, bytesPerPixel, level)
      mode = first.mode
      parts.push(chunk('IDAT', first.data))
    } else {
      const data = compress(rows, rowBytes, bytesPerPixel, level, mode)
      const fdat = new Uint8Array(4 + data.length)
      new DataView(fdat.buffer).setUint32(0, seqNo++)
      fdat.set(data, 4)
      parts.push(chunk('fdAT', fdat))
    }
  })
  parts.push(chunk('IEND', new Uint8Array(0)))
  return { bytes: concatBytes(parts), colours: indexed ? entries.length : colours, frames: plans.length }
}

/** PLTE and, when some entries are not opaque, tRNS (entries are ordered translucent first). */
function paletteAndTransparency(entries: number[]): Uint8Array[] {
  const plte = new Uint8Array(entries.length * 3)
  const alphas: number[] = []
  entries.forEach((colour, i) => {
    plte.set([colour & 0xff, (colour >>> 8) & 0xff, (colour >>> 16) & 0xff], i * 3)
    alphas.push(colour >>> 24)
  })
  let translucent = 0
  alphas.forEach((a, i) => {
    if (a < 255) translucent = i + 1
  })
  const chunks = [chunk('PLTE', plte)]
  if (translucent > 0) chunks.push(chunk('tRNS', Uint8Array.from(alphas.slice(0, translucent))))
  return chunks
}

/** A plain (still) RGBA PNG. */
export function encodePng(width: number, height: number, rgba: Uint8Array, level = 6): Uint8Array {
  if (rgba.length !== width * height * 4) throw new Error('pixel buffer has the wrong size')
  const idat = bestMode(rgba, width * 4, 4, level).data
  return concatBytes([SIGNATURE, ihdr(width, height, COLOUR_RGBA), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))])
}

// One palette for a whole animation. Flat art has few colours: when the frames hold at most 256 the
// palette is exact. Otherwise libimagequant (through sharp) picks it from the histogram of every
// frame, and each colour maps to its nearest entry without dithering, so still areas keep the same
// indices in every frame and frame deltas stay small.
import sharp from 'sharp'
import type { FrameSequence } from './frames'
import { countEncode } from '../render/render-stats'

export interface IndexedFrames {
  /** RGBA entries, 4 bytes each: the fully transparent entry first, then the translucent ones, then the opaque. */
  palette: Uint8Array
  colours: number
  /** Index of the fully transparent entry (0), or -1 when no pixel is transparent. */
  transparent: number
  /** One palette index per pixel. */
  frames: Uint8Array[]
  /** Distance from the input over all pixels, in 0-255 units of premultiplied colour and alpha. */
  error: { rms: number; max: number }
  /** The palette came from libimagequant (the input had more than 256 colours, or fewer were asked). */
  quantized: boolean
}

/**
 * The default palette quality: libimagequant takes the fewest colours that keep this quality, which
 * for flat art is 40 to 200 colours and an error no one sees (see the encoders' tests).
 */
export const PALETTE_QUALITY = 80

export interface QuantizeOptions {
  /** libimagequant's quality target, 1-100: lower lets it use fewer colours (default PALETTE_QUALITY). */
  quality?: number
  /** Makes alpha binary first (GIF): pixels below this alpha become clear, the rest opaque. */
  alphaThreshold?: number
}

const MAX_COLOURS = 256
/** The histogram handed to libimagequant is an image of about this many pixels. */
const SAMPLE_PIXELS = 1 << 16

const alphaOf = (colour: number) => colour >>> 24

/**
 * Palettes already made for a sequence, by options: the steps of a size ladder that differ only in
 * compression level, and the encoders that share a sequence, take the same one (callers only read it).
 */
const made = new WeakMap<FrameSequence, Map<string, Promise<IndexedFrames>>>()

/** Maps the frames to at most 256 RGBA colours shared by all of them. */
export function quantizeFrames(seq: FrameSequence, options: QuantizeOptions = {}): Promise<IndexedFrames> {
  const key = `${options.quality ?? PALETTE_QUALITY} ${options.alphaThreshold ?? '-'}`
  let palettes = made.get(seq)
  if (!palettes) {
    palettes = new Map()
    made.set(seq, palettes)
  }
  let indexed = palettes.get(key)
  if (!indexed) {
    const started = performance.now()
    indexed = quantizeFramesUncounted(seq, options).finally(() => countEncode('quantize', performance.now() - started))
    palettes.set(key, indexed)
    // A failure is not kept: the next caller tries again.
    indexed.catch(() => palettes.delete(key))
  }
  return indexed
}

async function quantizeFramesUncounted(seq: FrameSequence, options: QuantizeOptions = {}): Promise<IndexedFrames> {
  const threshold = options.alphaThreshold
  const quality = options.quality ?? PALETTE_QUALITY
  const frames = seq.frames.map((frame) => new Uint32Array(frame.buffer, frame.byteOffset, frame.length / 4))
  const normal = (pixel: number) => {
    const a = alphaOf(pixel)
    if (a === 0 || (threshold !== undefined && a < threshold)) return 0
    return threshold === undefined ? pixel : (pixel | 0xff000000) >>> 0
  }

  // Every colour with how often it occurs, after the alpha threshold.
  const counts = new Map<number, number>()
  for (const [pixel, count] of histogramOf(seq)) {
    const colour = normal(pixel)
    counts.set(colour, (counts.get(colour) ?? 0) + count)
  }

  // Exact when the colours fit, unless fewer were asked for.
  const quantized = quality < PALETTE_QUALITY || counts.size > MAX_COLOURS
  const entries = quantized ? await paletteFor(counts, quality) : [...counts.keys()]
  entries.sort((a, b) => alphaOf(a) - alphaOf(b) || a - b)
  const palette = new Uint8Array(new Uint32Array(entries).buffer)

  // Each distinct colour to its nearest entry, once.
  const nearest = new Map<number, number>()
  let sum = 0
  let max = 0
  let pixels = 0
  for (const [colour, count] of counts) {
    const { index, distance } = nearestEntry(colour, palette)
    nearest.set(colour, index)
    sum += distance * count
    pixels += count
    if (distance > max) max = distance
  }

  // And each pixel value as it is in the frames (before the alpha threshold) to its entry.
  const entryOf = new Map<number, number>()
  for (const pixel of histogramOf(seq).keys()) entryOf.set(pixel, nearest.get(normal(pixel))!)

  const indexed = frames.map((frame) => {
    const out = new Uint8Array(frame.length)
    let last = -1
    let lastIndex = 0
    for (let i = 0; i < frame.length; i++) {
      const pixel = frame[i]!
      if (pixel !== last) {
        last = pixel
        lastIndex = entryOf.get(pixel)!
      }
      out[i] = lastIndex
    }
    return out
  })
  return {
    palette,
    colours: entries.length,
    transparent: entries[0] === 0 ? 0 : -1,
    frames: indexed,
    error: { rms: Math.sqrt(sum / Math.max(1, pixels) / 4), max: Math.round(Math.sqrt(max)) },
    quantized,
  }
}

/** Each sequence's raw histogram (every pixel value with how often it occurs), counted once for all its palettes. */
const histograms = new WeakMap<FrameSequence, Map<number, number>>()

function histogramOf(seq: FrameSequence): Map<number, number> {
  let counts = histograms.get(seq)
  if (counts) return counts
  counts = new Map()
  for (const bytes of seq.frames) {
    const frame = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
    let last = -1
    let run = 0
    for (let i = 0; i < frame.length; i++) {
      const pixel = frame[i]!
      if (pixel === last) {
        run++
        continue
      }
      if (run > 0) counts.set(last, (counts.get(last) ?? 0) + run)
      last = pixel
      run = 1
    }
    if (run > 0) counts.set(last, (counts.get(last) ?? 0) + run)
  }
  histograms.set(seq, counts)
  return counts
}

/** libimagequant's palette for this histogram, fed as a small image where each colour appears about as often as it does in the frames. */
async function paletteFor(counts: Map<number, number>, quality: number): Promise<number[]> {
  let total = 0
  for (const count of counts.values()) total += count
  const scale = Math.max(1, total / SAMPLE_PIXELS)
  const sample: number[] = []
  for (const [colour, count] of counts) {
    const times = Math.max(1, Math.round(count / scale))
    for (let i = 0; i < times; i++) sample.push(colour)
  }
  const width = 256
  const height = Math.ceil(sample.length / width)
  const image = new Uint32Array(width * height)
  image.set(sample)
  const raw = { width, height, channels: 4 as const }
  const png = await sharp(new Uint8Array(image.buffer), { raw })
    .png({ palette: true, quality, dither: 0, effort: 6, compressionLevel: 0 })
    .toBuffer()
  const decoded = await sharp(png).ensureAlpha().raw().toBuffer()
  const colours = new Set<number>()
  const pixels = new Uint32Array(decoded.buffer, decoded.byteOffset, decoded.byteLength / 4)
  for (let i = 0; i < sample.length; i++) colours.add(alphaOf(pixels[i]!) === 0 ? 0 : pixels[i]!)
  if (colours.size > MAX_COLOURS) throw new Error(`quantizer answered ${colours.size} colours`)
  return [...colours]
}

function nearestEntry(colour: number, palette: Uint8Array): { index: number; distance: number } {
  const probe = new Uint8Array(new Uint32Array([colour]).buffer)
  let index = 0
  let distance = Infinity
  for (let i = 0; i < palette.length / 4; i++) {
    const d = pixelDistance(probe, palette, 0, i * 4)
    if (d < distance) {
      distance = d
      index = i
      if (d === 0) break
    }
  }
  return { index, distance }
}

/** Squared distance of two RGBA pixels with colour weighted by alpha (what a viewer sees over any page). */
export function pixelDistance(a: Uint8Array, b: Uint8Array, at: number, atB = at): number {
  const aa = a[at + 3]!
  const ba = b[atB + 3]!
  let d = (aa - ba) * (aa - ba)
  for (let c = 0; c < 3; c++) {
    const x = (a[at + c]! * aa - b[atB + c]! * ba) / 255
    d += x * x
  }
  return d
}

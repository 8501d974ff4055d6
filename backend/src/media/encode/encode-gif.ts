import { createRequire } from 'node:module'
import { Bounds, checkedFrames, holdRepeats, sameBytes, type FrameSequence, type HeldFrame, type Rect } from './frames'
import { quantizeFrames } from './quantize'
import { concatBytes } from './concat-bytes'
import { countEncode } from '../render/render-stats'

// gifenc is CommonJS without named exports Node can see, while Vite picks its ESM build whose
// default export differs: require() loads the same CommonJS build everywhere.
const gifenc = createRequire(import.meta.url)('gifenc') as typeof import('gifenc')

export type { FrameSequence }

export interface GifOptions {
  /** Pixels with less alpha than this become transparent, the rest opaque (default 128). */
  alphaThreshold?: number
  /** Palette quality, 1-100: lower gives fewer colours (default PALETTE_QUALITY). */
  quality?: number
  /** How many times to play; 0 = forever (default). */
  plays?: number
}

export interface EncodedGif {
  bytes: Uint8Array
  /** Palette entries, the transparent one included. */
  colours: number
  frames: number
}

const DISPOSE_NONE = 1
const DISPOSE_BACKGROUND = 2

/**
 * Delays in centiseconds for frames held `ticks` ticks from tick `start`, so that the running sum
 * follows the real timeline (30 fps gives 3,3,4,3,3,4...).
 */
export function gifDelay(start: number, ticks: number, fps: number): number {
  const at = (tick: number) => Math.floor((tick * 100) / fps + 1e-9)
  return at(start + ticks) - at(start)
}

/** Per-frame delays of `count` frames at `fps`, in centiseconds. */
export function gifDelays(count: number, fps: number): number[] {
  return Array.from({ length: count }, (_, i) => gifDelay(i, 1, fps))
}

interface FramePlan {
  held: HeldFrame
  rect: Rect
  /** What happens to this frame's rectangle before the next frame is drawn. */
  dispose: number
}

/**
 * Encodes an animated GIF with one shared palette (no dithering) and frame deltas: each frame stores
 * only the rectangle that changed, with unchanged pixels transparent. Where pixels must turn clear,
 * the frame before is disposed to the background. GIF alpha is 1-bit, so soft pixels are thresholded:
 * soft shadows vanish and edges stay clean on any page colour.
 */
export async function encodeGif(seq: FrameSequence, options: GifOptions = {}): Promise<EncodedGif> {
  const started = performance.now()
  const encoded = await encodeGifUncounted(seq, options)
  countEncode('gif', performance.now() - started, encoded.bytes)
  return encoded
}

async function encodeGifUncounted(seq: FrameSequence, options: GifOptions = {}): Promise<EncodedGif> {
  const { width, height, fps } = seq
  checkedFrames(seq)
  const indexed = await quantizeFrames(seq, { alphaThreshold: options.alphaThreshold ?? 128, quality: options.quality })
  const frames = indexed.frames
  // A spare entry becomes the transparent one when no pixel is clear; with 256 opaque colours there
  // is none, and frames are written whole within their rectangles.
  const clear = indexed.transparent >= 0 ? indexed.transparent : indexed.colours < 256 ? indexed.colours : -1
  const colours = indexed.transparent >= 0 || clear < 0 ? indexed.colours : indexed.colours + 1
  const plans = planFrames(frames, width, clear)
  const bits = Math.max(2, Math.ceil(Math.log2(colours)))

  const parts: Uint8Array[] = [header(width, height, indexed.palette, bits, options.plays ?? 0)]
  const canvas = new Uint8Array(width * height).fill(Math.max(clear, 0))
  for (const plan of plans) {
    const frame = frames[plan.held.index]!
    const { x, y, w, h } = plan.rect
    const data = new Uint8Array(w * h)
    for (let row = 0; row < h; row++) {
      for (let col = 0; col < w; col++) {
        const p = (y + row) * width + x + col
        const want = frame[p]!
        // Unchanged pixels are transparent: they keep what is on screen and compress to long runs.
        data[row * w + col] = clear >= 0 && want === canvas[p] ? clear : want
        canvas[p] = want
      }
    }
    parts.push(frameBytes(data, plan, bits, clear, gifDelay(plan.held.start, plan.held.ticks, fps)))
    if (plan.dispose === DISPOSE_BACKGROUND) clearRect(canvas, width, plan.rect, clear)
  }
  parts.push(Uint8Array.of(0x3b))
  return { bytes: concatBytes(parts), colours, frames: plans.length }
}

/** Rectangles and disposal of each frame, simulating the screen in palette indices. */
function planFrames(frames: Uint8Array[], width: number, clear: number): FramePlan[] {
  const held = holdRepeats(frames, sameBytes)
  const height = frames[0]!.length / width
  const screen = new Uint8Array(frames[0]!.length).fill(Math.max(clear, 0))
  const plans: FramePlan[] = []
  for (const h of held) {
    const frame = frames[h.index]!
    const previous = plans.at(-1)
    if (previous && clear >= 0) {
      // Pixels that must turn clear: only disposing the previous frame's rectangle can do that.
      const mustClear = new Bounds()
      for (let y = 0, p = 0; y < height; y++) {
        for (let x = 0; x < width; x++, p++) if (frame[p] === clear && screen[p] !== clear) mustClear.add(x, y)
      }
      if (!mustClear.empty) {
        mustClear.addRect(previous.rect)
        previous.rect = mustClear.rect()
        previous.dispose = DISPOSE_BACKGROUND
        clearRect(screen, width, previous.rect, clear)
      }
    }
    const changed = new Bounds()
    for (let y = 0, p = 0; y < height; y++) for (let x = 0; x < width; x++, p++) if (frame[p] !== screen[p]) changed.add(x, y)
    plans.push({ held: h, rect: changed.rect(), dispose: DISPOSE_NONE })
    screen.set(frame)
  }
  return plans
}

function clearRect(screen: Uint8Array, width: number, r: Rect, clear: number): void {
  for (let y = r.y; y < r.y + r.h; y++) screen.fill(clear, y * width + r.x, y * width + r.x + r.w)
}

function header(width: number, height: number, palette: Uint8Array, bits: number, plays: number): Uint8Array {
  const tableSize = 1 << bits
  const out = new Uint8Array(13 + tableSize * 3 + 19)
  out.set([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]) // GIF89a
  out.set(u16le(width), 6)
  out.set(u16le(height), 8)
  out[10] = 0x80 | ((bits - 1) << 4) | (bits - 1) // global colour table of 2^bits entries
  for (let i = 0; i < palette.length / 4; i++) out.set(palette.subarray(i * 4, i * 4 + 3), 13 + i * 3)
  // NETSCAPE2.0 loop count: 0 plays forever, n plays n + 1 times.
  const loop = 13 + tableSize * 3
  out.set([0x21, 0xff, 11, ...'NETSCAPE2.0'.split('').map((c) => c.charCodeAt(0)), 3, 1, ...u16le(plays === 0 ? 0 : plays - 1), 0], loop)
  return out
}

/**
 * gifenc writes the graphic control extension, the image descriptor and the LZW data; it always
 * places a frame at 0,0, so the descriptor's left and top are set here.
 */
function frameBytes(data: Uint8Array, plan: FramePlan, bits: number, clear: number, delayCs: number): Uint8Array {
  const encoder = gifenc.GIFEncoder({ auto: false, initialCapacity: data.length + 64 })
  encoder.writeFrame(data, plan.rect.w, plan.rect.h, {
    first: false,
    transparent: clear >= 0,
    transparentIndex: Math.max(clear, 0),
    delay: delayCs * 10,
    dispose: plan.dispose,
    colorDepth: bits,
  })
  const bytes = encoder.bytes()
  const DESCRIPTOR = 8 // after the 8-byte graphic control extension
  if (bytes[0] !== 0x21 || bytes[1] !== 0xf9 || bytes[DESCRIPTOR] !== 0x2c) throw new Error('unexpected gifenc frame layout')
  bytes.set(u16le(plan.rect.x), DESCRIPTOR + 1)
  bytes.set(u16le(plan.rect.y), DESCRIPTOR + 3)
  return bytes
}

function u16le(value: number): number[] {
  return [value & 0xff, (value >> 8) & 0xff]
}

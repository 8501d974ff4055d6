// WebP through libvips (sharp): animated from a frame sequence, or a still. Flat art is smallest as
// lossless WebP over a shared palette (libwebp's colour-indexing transform); lossy is the step after.
import sharp from 'sharp'
import { checkedFrames, type FrameSequence } from './frames'
import { quantizeFrames } from './quantize'
import { countEncode } from '../render/render-stats'

export interface WebpOptions {
  /**
   * 'palette' (default): the frames reduced to one palette of at most 256 colours (libimagequant at
   * `quality`), then lossless. 'lossy': VP8 at `quality` with lossless alpha.
   */
  mode?: 'palette' | 'lossy'
  /** Palette quality or lossy quality, 1-100 (default 80). */
  quality?: number
  /** CPU effort, 0-6 (default 3). */
  effort?: number
  /**
   * Makes the first frame span the whole canvas (WhatsApp asks for a complete first frame; libwebp
   * otherwise crops every frame to what changed): the two corner pixels get alpha 1 of 255 in every
   * frame, which no one can see.
   */
  fullFirstFrame?: boolean
}

export interface EncodedWebp {
  bytes: Uint8Array
  /** Palette entries in palette mode. */
  colours: number | null
}

/** Frame durations in whole milliseconds whose running sum follows the real timeline. */
export function webpDelays(count: number, fps: number): number[] {
  const at = (i: number) => Math.round((i * 1000) / fps)
  return Array.from({ length: count }, (_, i) => at(i + 1) - at(i))
}

/** An animated WebP that loops forever. */
export async function encodeAnimatedWebp(seq: FrameSequence, options: WebpOptions = {}): Promise<EncodedWebp> {
  const started = performance.now()
  const encoded = await encodeAnimatedWebpUncounted(seq, options)
  countEncode('webp', performance.now() - started, encoded.bytes)
  return encoded
}

async function encodeAnimatedWebpUncounted(seq: FrameSequence, options: WebpOptions = {}): Promise<EncodedWebp> {
  const frames = checkedFrames(seq)
  const { width, height } = seq
  const size = width * height * 4
  const quality = options.quality ?? 80
  const joined = new Uint8Array(size * frames.length)
  let colours: number | null = null
  if ((options.mode ?? 'palette') === 'palette') {
    const indexed = await quantizeFrames(seq, { quality })
    const palette = new Uint32Array(indexed.palette.buffer, indexed.palette.byteOffset, indexed.colours)
    const pixels = new Uint32Array(joined.buffer)
    indexed.frames.forEach((frame, n) => {
      const offset = n * frame.length
      for (let i = 0; i < frame.length; i++) pixels[offset + i] = palette[frame[i]!]!
    })
    colours = indexed.colours
  } else {
    frames.forEach((frame, n) => joined.set(frame, n * size))
  }
  if (options.fullFirstFrame) {
    for (let n = 0; n < frames.length; n++) {
      for (const corner of [0, size - 4]) if (joined[n * size + corner + 3] === 0) joined[n * size + corner + 3] = 1
    }
  }
  const raw = { width, height: height * frames.length, channels: 4 as const, pageHeight: height }
  const lossless = colours !== null
  const out = await sharp(joined, { raw, limitInputPixels: false })
    .webp({
      lossless,
      ...(lossless ? {} : { quality }),
      alphaQuality: 100,
      effort: options.effort ?? 3,
      loop: 0,
      delay: webpDelays(frames.length, seq.fps),
    })
    .toBuffer()
  return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), colours }
}

/** A still WebP of one straight-alpha RGBA frame. */
export async function encodeStillWebp(width: number, height: number, rgba: Uint8Array, quality = 80): Promise<Uint8Array> {
  const out = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .webp({ quality, alphaQuality: 100, effort: 4 })
    .toBuffer()
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
}

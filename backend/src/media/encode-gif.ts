import { createRequire } from 'node:module'
import type { Palette } from 'gifenc'

// gifenc is CommonJS without named exports Node can see, while Vite picks its ESM build whose
// default export differs: require() loads the same CommonJS build everywhere.
const gifenc = createRequire(import.meta.url)('gifenc') as typeof import('gifenc')

/** Straight-alpha RGBA frames shown at a constant rate. */
export interface FrameSequence {
  width: number
  height: number
  fps: number
  frames: Uint8Array[]
}

export interface GifOptions {
  /** Pixels with less alpha than this become transparent, the rest opaque (default 128). */
  alphaThreshold?: number
  /** How many frames (evenly spread) feed the shared palette (default 8). */
  paletteSamples?: number
}

const TRANSPARENT = 0

/**
 * Per-frame delays in centiseconds whose running sum follows the real timeline,
 * e.g. 30 fps gives 3,3,4,3,3,4...
 */
export function gifDelays(count: number, fps: number): number[] {
  const at = (i: number) => Math.floor((i * 100) / fps + 1e-9)
  return Array.from({ length: count }, (_, i) => at(i + 1) - at(i))
}

/** One palette for the whole animation: 255 colours from opaque pixels, index 0 kept for transparency. */
function sharedPalette(frames: Uint8Array[], threshold: number, samples: number): Palette {
  const picked = Array.from({ length: Math.min(samples, frames.length) }, (_, i) =>
    frames[Math.floor((i * frames.length) / Math.min(samples, frames.length))]!,
  )
  let opaque = 0
  for (const f of picked) for (let i = 3; i < f.length; i += 4) if (f[i]! >= threshold) opaque++
  const pixels = new Uint8Array(Math.max(opaque, 1) * 4)
  let o = 0
  for (const f of picked) {
    for (let i = 0; i < f.length; i += 4) {
      if (f[i + 3]! < threshold) continue
      pixels[o] = f[i]!
      pixels[o + 1] = f[i + 1]!
      pixels[o + 2] = f[i + 2]!
      pixels[o + 3] = 255
      o += 4
    }
  }
  return [[0, 0, 0], ...gifenc.quantize(pixels, 255, { format: 'rgb565' })]
}

/**
 * Encodes an animated GIF that loops forever. GIF alpha is 1-bit, so soft pixels are
 * thresholded: soft shadows vanish and edges stay clean on any page colour.
 */
export function encodeGif(seq: FrameSequence, options: GifOptions = {}): Uint8Array {
  const { width, height, fps, frames } = seq
  if (frames.length === 0) throw new Error('no frames to encode')
  const threshold = options.alphaThreshold ?? 128
  const palette = sharedPalette(frames, threshold, options.paletteSamples ?? 8)
  const colours = palette.slice(1)
  const delays = gifDelays(frames.length, fps)
  const gif = gifenc.GIFEncoder({ initialCapacity: width * height })

  frames.forEach((frame, n) => {
    if (frame.length !== width * height * 4) throw new Error(`frame ${n} has the wrong size`)
    // gifenc reads the whole underlying buffer, so hand it one that holds just this frame.
    const own = frame.byteOffset === 0 && frame.buffer.byteLength === frame.length ? frame : frame.slice()
    const index = gifenc.applyPalette(own, colours, 'rgb565')
    for (let i = 0, a = 3; i < index.length; i++, a += 4) {
      index[i] = frame[a]! < threshold ? TRANSPARENT : index[i]! + 1
    }
    gif.writeFrame(index, width, height, {
      // The first frame carries the global colour table; the others reuse it.
      palette: n === 0 ? palette : undefined,
      delay: delays[n]! * 10,
      repeat: 0,
      transparent: true,
      transparentIndex: TRANSPARENT,
      dispose: 2,
    })
  })
  gif.finish()
  return gif.bytes()
}

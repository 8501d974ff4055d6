import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { DotLottie, type RenderSurface } from '@lottiefiles/dotlottie-web'
import { drawOutline, rasterOutlineSource } from './raster-outline'
import { mediaStats } from './render-stats'

export interface RenderOptions {
  /** Longest side of the output in pixels (default 320). */
  size?: number
  /** Output frame rate; default the Lottie's own, capped at 30. */
  fps?: number
}

/** Straight-alpha RGBA frames, `width * height * 4` bytes each. */
export interface RenderedFrames {
  width: number
  height: number
  fps: number
  frames: Uint8Array[]
  durationMs: number
}

export const DEFAULT_SIZE = 320
export const DEFAULT_MAX_FPS = 30
const MAX_SIZE = 1024
const MAX_FPS = 50
const MAX_OUTPUT_FRAMES = 900
/** All frames are held in memory for the encoders: 64 M pixels is 256 MB of RGBA. */
const MAX_TOTAL_PIXELS = 64 * 1024 * 1024

interface LottieHeader {
  fr: number
  ip: number
  op: number
  w: number
  h: number
}

/** Checks the fields every renderer needs and returns them; throws a readable error otherwise. */
export function lottieHeader(lottie: unknown): LottieHeader {
  if (typeof lottie !== 'object' || lottie === null || Array.isArray(lottie)) {
    throw new Error('Invalid Lottie: expected a JSON object')
  }
  const l = lottie as Record<string, unknown>
  const num = (key: string): number => {
    const v = l[key]
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`Invalid Lottie: "${key}" must be a number`)
    return v
  }
  if (l.v === undefined) throw new Error('Invalid Lottie: missing "v"')
  if (!Array.isArray(l.layers)) throw new Error('Invalid Lottie: "layers" must be an array')
  const header = { fr: num('fr'), ip: num('ip'), op: num('op'), w: num('w'), h: num('h') }
  if (header.fr <= 0) throw new Error('Invalid Lottie: "fr" must be positive')
  if (header.op <= header.ip) throw new Error('Invalid Lottie: "op" must be after "ip"')
  if (header.w <= 0 || header.h <= 0) throw new Error('Invalid Lottie: "w" and "h" must be positive')
  return header
}

/** The width, height and frame count renderLottie answers for `size` and `fps`. */
export function renderedSize(header: LottieHeader, size: number, fps: number): { width: number; height: number; count: number } {
  const scale = size / Math.max(header.w, header.h)
  const width = Math.max(1, Math.round(header.w * scale))
  const height = Math.max(1, Math.round(header.h * scale))
  const seconds = (header.op - header.ip) / header.fr
  return { width, height, count: Math.max(1, Math.round(seconds * fps)) }
}

let wasmReady = false

/** Points the player at the packaged WASM: a data: URL, since Node's fetch cannot read file: URLs. */
function useLocalWasm(): void {
  if (wasmReady) return
  const require = createRequire(import.meta.url)
  const wasmPath = require.resolve('@lottiefiles/dotlottie-web/dotlottie-player.wasm')
  DotLottie.setWasmUrl(`data:application/wasm;base64,${readFileSync(wasmPath).toString('base64')}`)
  wasmReady = true
}

function loadPlayer(lottie: object, width: number, height: number): Promise<DotLottie> {
  const surface: RenderSurface = { width, height }
  const player = new DotLottie({ canvas: surface, data: lottie as Record<string, unknown>, autoplay: false })
  return new Promise((resolve, reject) => {
    player.addEventListener('load', () => resolve(player))
    player.addEventListener('loadError', (event) => {
      player.destroy()
      reject(new Error(`Lottie could not be rendered: ${event.error.message}`))
    })
  })
}

/** Renders a Lottie JSON to RGBA frames with ThorVG (WASM), no browser or canvas needed. */
export async function renderLottie(lottie: unknown, options: RenderOptions = {}): Promise<RenderedFrames> {
  const header = lottieHeader(lottie)
  const size = Math.round(options.size ?? DEFAULT_SIZE)
  if (!(size >= 1 && size <= MAX_SIZE)) throw new Error(`size must be between 1 and ${MAX_SIZE}`)
  const fps = options.fps ?? Math.min(header.fr, DEFAULT_MAX_FPS)
  if (!(fps > 0 && fps <= MAX_FPS)) throw new Error(`fps must be between 1 and ${MAX_FPS}`)

  const { width, height, count } = renderedSize(header, size, fps)
  if (count > MAX_OUTPUT_FRAMES) throw new Error(`animation too long: ${count} frames (max ${MAX_OUTPUT_FRAMES})`)
  if (count * width * height > MAX_TOTAL_PIXELS) throw new Error(`animation too large to render: ${count} frames of ${width}x${height}`)

  useLocalWasm()
  const started = performance.now()
  mediaStats.renders++
  mediaStats.framesRendered += count
  mediaStats.rendered.push(`${String((lottie as { nm?: unknown }).nm)} ${width}x${height}@${fps}`)
  // An outline the vector one cannot draw (images, text) is drawn on the frames instead.
  const rasterOutline = rasterOutlineSource(lottie as object)
  const player = await loadPlayer(rasterOutline ?? (lottie as object), width, height)
  try {
    const frames: Uint8Array[] = []
    for (let i = 0; i < count; i++) {
      // The player counts frames from ip; fractional frames are interpolated.
      player.setFrame((i * header.fr) / fps)
      const pixels = player.buffer
      if (!pixels || pixels.length !== width * height * 4) throw new Error('renderer returned no pixels')
      frames.push(pixels.slice())
    }
    if (rasterOutline) drawOutline(frames, width, height)
    mediaStats.renderMs += performance.now() - started
    return { width, height, fps, frames, durationMs: (count * 1000) / fps }
  } finally {
    player.destroy()
  }
}

// worker_threads entry: renders a Lottie and encodes it off the main thread. Three kinds of job: the
// original GIF and APNG of an animation, everything derived from it (card previews and platform
// exports, see exports/make-media.ts), and its colour slots (inspect/lottie-colour-slots.ts).
import { parentPort } from 'node:worker_threads'
import type { ColourSlotSummary } from '../../../../contract/remix/colours'
import { lottieColourSlots } from '../inspect/lottie-colour-slots'
import { makeMedia, madeBuffers, ownBytes, type MadeMedia, type MakeMediaOptions } from '../exports/make-media'
import { encodeApng } from '../encode/encode-apng'
import { encodeGif } from '../encode/encode-gif'
import { PALETTE_QUALITY } from '../encode/quantize'
import { fileKey, FrameSource } from './frame-source'
import { PALETTE_APNG } from '../exports/platform-exports'
import { DEFAULT_MAX_FPS, DEFAULT_SIZE, lottieHeader } from './render-lottie'
import { mediaStats } from './render-stats'
import { PLATFORM_RULES } from '../../../../contract/stickers'

export interface RenderJob {
  id: number
  kind?: 'originals'
  lottie: unknown
  size?: number
  fps?: number
}

export interface DeriveJob extends MakeMediaOptions {
  id: number
  kind: 'derived'
  lottie: unknown
}

/** The colour slots of a stored Lottie, from its bytes (parsed in the worker too). */
export interface ColourSlotsJob {
  id: number
  kind: 'colours'
  lottie: Uint8Array
}

export type MediaJob = RenderJob | DeriveJob | ColourSlotsJob

export interface RenderResult {
  gif: Uint8Array
  apng: Uint8Array
  frames: number
  durationMs: number
  width: number
  height: number
  /** Milliseconds spent in each step, for logs and benchmarks. */
  timings: { render: number; gif: number; apng: number }
}

export type { MadeMedia, MakeMediaOptions }

export type RenderReply<R = RenderResult | MadeMedia | ColourSlotSummary[]> =
  { id: number; ok: true; result: R } | { id: number; ok: false; error: string }

/**
 * The plain downloads are Discord-ready: when a file is over Discord's cap, it is encoded again
 * harder (zlib level 8), then with fewer colours.
 */
const ORIGINAL_MAX_BYTES = PLATFORM_RULES.discord.maxBytes
const APNG_STEPS = [
  { quality: PALETTE_QUALITY, level: 7, expected: 1 },
  { quality: PALETTE_QUALITY, level: 8, expected: 0.94 },
  { quality: 60, level: 8, expected: 0.85 },
  { quality: 40, level: 8, expected: 0.75 },
]
const GIF_STEPS = [
  { quality: PALETTE_QUALITY, expected: 1 },
  { quality: 60, expected: 0.85 },
  { quality: 40, expected: 0.75 },
]

/**
 * The steps in order until one fits; `expected` is a step's size relative to the first's. A step the
 * latest file says will be far over the cap is skipped; when none fits, the smallest file made is kept.
 */
async function withinCap<S extends { expected: number }>(
  target: string,
  steps: S[],
  encode: (step: S) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  let smallest: Uint8Array | undefined
  let reference: number | undefined
  for (const step of steps) {
    if (reference !== undefined && reference * step.expected > ORIGINAL_MAX_BYTES * 1.2) continue
    const started = performance.now()
    const bytes = await encode(step)
    reference = bytes.length / step.expected
    const fits = bytes.length <= ORIGINAL_MAX_BYTES
    mediaStats.steps.push({ target, step: JSON.stringify(step), bytes: bytes.length, ms: performance.now() - started, fits })
    if (fits) return bytes
    if (!smallest || bytes.length < smallest.length) smallest = bytes
  }
  return smallest!
}

/**
 * The frames of the Lottie this worker rendered last. A remix's originals job is followed by its
 * derived job on the same Lottie: that one starts from these frames (and the palettes made from them)
 * instead of drawing them again. Only one Lottie is kept, and only until its derived job is done.
 */
let recent: { json: string; frames: FrameSource } | undefined

function framesOf(lottie: unknown): FrameSource {
  const json = JSON.stringify(lottie)
  if (recent?.json !== json) recent = { json, frames: new FrameSource(lottie) }
  return recent.frames
}

export async function runJob(job: RenderJob): Promise<RenderResult> {
  const t0 = performance.now()
  const header = lottieHeader(job.lottie)
  const seq = await framesOf(job.lottie).asIs(job.size ?? DEFAULT_SIZE, job.fps ?? Math.min(header.fr, DEFAULT_MAX_FPS))
  const t1 = performance.now()
  const gif = await withinCap('original GIF', GIF_STEPS, async ({ quality }) => (await encodeGif(seq, { quality })).bytes)
  const t2 = performance.now()
  const frames = framesOf(job.lottie)
  const apng = await withinCap('original APNG', APNG_STEPS, async ({ quality, level }) => {
    const encoded = await encodeApng(seq, { quality, level })
    // With its palette, this is the file Discord's export tries first at the same settings: made once.
    if (encoded.colours !== null) frames.remember(seq, fileKey(PALETTE_APNG, { quality, level }), encoded)
    return encoded.bytes
  })
  const t3 = performance.now()
  return {
    gif,
    apng,
    frames: seq.frames.length,
    durationMs: (seq.frames.length * 1000) / seq.fps,
    width: seq.width,
    height: seq.height,
    timings: { render: t1 - t0, gif: t2 - t1, apng: t3 - t2 },
  }
}

/** Card previews and platform exports; the frames the originals job of the same Lottie drew are used again. */
export async function runDerive(job: Omit<DeriveJob, 'kind' | 'id'>): Promise<MadeMedia> {
  try {
    return await makeMedia(job.lottie, { outlined: job.outlined }, framesOf(job.lottie))
  } finally {
    recent = undefined
  }
}

async function reply(job: MediaJob): Promise<{ reply: RenderReply; transfer: ArrayBuffer[] }> {
  try {
    if (job.kind === 'colours') return { reply: { id: job.id, ok: true, result: lottieColourSlots(job.lottie) }, transfer: [] }
    if (job.kind === 'derived') {
      const result = await runDerive(job)
      return { reply: { id: job.id, ok: true, result }, transfer: madeBuffers(result) }
    }
    const made = await runJob(job)
    // Fresh buffers of their own, like the derived files: only those can always be transferred.
    const result = { ...made, gif: ownBytes(made.gif), apng: ownBytes(made.apng) }
    return { reply: { id: job.id, ok: true, result }, transfer: [result.gif.buffer as ArrayBuffer, result.apng.buffer as ArrayBuffer] }
  } catch (err) {
    return { reply: { id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) }, transfer: [] }
  }
}

const port = parentPort
if (port) {
  // The pool sends one job at a time, so replies go back in order.
  port.on('message', async (job: MediaJob) => {
    const { reply: message, transfer } = await reply(job)
    port.postMessage(message, transfer)
  })
}

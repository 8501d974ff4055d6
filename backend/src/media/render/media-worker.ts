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
import { renderLottie } from './render-lottie'
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
 * harder (zlib level 9), then with fewer colours.
 */
const ORIGINAL_MAX_BYTES = PLATFORM_RULES.discord.maxBytes
const APNG_STEPS = [
  { quality: PALETTE_QUALITY, level: 7 },
  { quality: PALETTE_QUALITY, level: 9 },
  { quality: 60, level: 9 },
  { quality: 40, level: 9 },
]
const GIF_STEPS = [{ quality: PALETTE_QUALITY }, { quality: 60 }, { quality: 40 }]

async function withinCap<S>(steps: S[], encode: (step: S) => Promise<Uint8Array>): Promise<Uint8Array> {
  let bytes: Uint8Array = new Uint8Array(0)
  for (const step of steps) {
    bytes = await encode(step)
    if (bytes.length <= ORIGINAL_MAX_BYTES) break
  }
  return bytes
}

export async function runJob(job: RenderJob): Promise<RenderResult> {
  const t0 = performance.now()
  const seq = await renderLottie(job.lottie, { size: job.size, fps: job.fps })
  const t1 = performance.now()
  const gif = await withinCap(GIF_STEPS, async ({ quality }) => (await encodeGif(seq, { quality })).bytes)
  const t2 = performance.now()
  const apng = await withinCap(APNG_STEPS, async ({ quality, level }) => (await encodeApng(seq, { quality, level })).bytes)
  const t3 = performance.now()
  return {
    gif,
    apng,
    frames: seq.frames.length,
    durationMs: seq.durationMs,
    width: seq.width,
    height: seq.height,
    timings: { render: t1 - t0, gif: t2 - t1, apng: t3 - t2 },
  }
}

async function reply(job: MediaJob): Promise<{ reply: RenderReply; transfer: ArrayBuffer[] }> {
  try {
    if (job.kind === 'colours') return { reply: { id: job.id, ok: true, result: lottieColourSlots(job.lottie) }, transfer: [] }
    if (job.kind === 'derived') {
      const result = await makeMedia(job.lottie, { outlined: job.outlined })
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

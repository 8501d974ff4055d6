// worker_threads entry: renders a Lottie and encodes it to GIF and APNG off the main thread.
import { parentPort } from 'node:worker_threads'
import { encodeApng } from './encode-apng'
import { encodeGif } from './encode-gif'
import { renderLottie } from './render-lottie'

export interface RenderJob {
  id: number
  lottie: unknown
  size?: number
  fps?: number
}

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

export type RenderReply = { id: number; ok: true; result: RenderResult } | { id: number; ok: false; error: string }

export async function runJob(job: RenderJob): Promise<RenderResult> {
  const t0 = performance.now()
  const seq = await renderLottie(job.lottie, { size: job.size, fps: job.fps })
  const t1 = performance.now()
  const gif = encodeGif(seq)
  const t2 = performance.now()
  const apng = encodeApng(seq)
  const t3 = performance.now()
  return {
    gif, apng,
    frames: seq.frames.length, durationMs: seq.durationMs, width: seq.width, height: seq.height,
    timings: { render: t1 - t0, gif: t2 - t1, apng: t3 - t2 },
  }
}

const port = parentPort
if (port) {
  // The pool sends one job at a time, so replies go back in order.
  port.on('message', async (job: RenderJob) => {
    let reply: RenderReply
    try {
      reply = { id: job.id, ok: true, result: await runJob(job) }
    } catch (err) {
      reply = { id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) }
    }
    const transfer = reply.ok ? [reply.result.gif.buffer as ArrayBuffer, reply.result.apng.buffer as ArrayBuffer] : []
    port.postMessage(reply, transfer)
  })
}

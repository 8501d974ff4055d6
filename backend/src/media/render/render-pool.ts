// Runs render jobs (and the reading of colour slots) in one worker thread (the machines have 2 cores), one
// at a time, so HTTP requests never wait on rendering. The worker starts on first use and again after a crash.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ColourSlotSummary } from '../../../../contract/remix/colours'
import type { MadeMedia, MakeMediaOptions, MediaJob, RenderReply, RenderResult } from './media-worker'

export type { MadeMedia, MakeMediaOptions, RenderResult }

export interface RenderAnimationOptions {
  size?: number
  fps?: number
}

export interface PoolOptions {
  /** Worker entry (plain JavaScript); default media-worker beside this file. */
  workerUrl?: URL
  /** A job running longer than this kills the worker (default 120 s). */
  jobTimeoutMs?: number
  /** Jobs waiting behind the running one at most (default 4); more are refused with RenderQueueFullError. */
  maxQueued?: number
}

/** The worker's heap and stack: a Lottie that needs more fails alone, the server stays up. */
export const RENDER_WORKER_LIMITS = { maxOldGenerationSizeMb: 384, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 }

/** Thrown when the queue is full; the caller answers 503 with Retry-After. */
export class RenderQueueFullError extends Error {
  override readonly name = 'RenderQueueFullError'
  constructor(readonly retryAfterSeconds: number) {
    super('The render queue is full')
  }
}

interface Pending {
  job: MediaJob
  resolve: (r: never) => void
  reject: (e: Error) => void
}

/**
 * Starts media-worker beside this file. Under tsx or vitest that is a .ts file; Node 20 does
 * not apply `--import tsx` hooks to a worker's entry, so a small bootstrap registers tsx first.
 */
function startDefaultWorker(): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./media-worker.js', import.meta.url), { resourceLimits: RENDER_WORKER_LIMITS })
  const entry = new URL('./media-worker.ts', import.meta.url).href
  const tsxDir = createRequire(import.meta.url)
    .resolve('tsx/package.json')
    .replace(/package\.json$/, '')
  const api = pathToFileURL(`${tsxDir}dist/esm/api/index.mjs`).href
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(bootstrap, { eval: true, resourceLimits: RENDER_WORKER_LIMITS })
}

export class RenderPool {
  private worker: Worker | null = null
  private readonly queue: Pending[] = []
  private current: Pending | null = null
  private timer: NodeJS.Timeout | null = null
  private nextId = 1
  private readonly online = new WeakSet<Worker>()
  private closed = false
  private averageJobMs = 5000
  private jobStartedAt = 0

  constructor(private readonly options: PoolOptions = {}) {}

  render(lottie: unknown, options: RenderAnimationOptions = {}): Promise<RenderResult> {
    return this.run({ id: this.nextId++, lottie, size: options.size, fps: options.fps })
  }

  /**
   * Card previews and platform exports of an animation. Not refused when the queue is full: these are
   * the server's own background jobs, which services/derived-media.ts already sends one at a time.
   */
  derive(lottie: unknown, options: MakeMediaOptions = {}): Promise<MadeMedia> {
    return this.run({ id: this.nextId++, kind: 'derived', lottie, outlined: options.outlined }, { bounded: false })
  }

  /**
   * The colour slots of a stored Lottie's bytes. Never refused, and ahead of the renders waiting: a person
   * may be waiting on them, and they take a second at most (a 2 MB Lottie of 19,000 colours).
   */
  colourSlots(lottie: Uint8Array): Promise<ColourSlotSummary[]> {
    return this.run({ id: this.nextId++, kind: 'colours', lottie }, { bounded: false, ahead: true })
  }

  private run<R>(job: MediaJob, { bounded = true, ahead = false } = {}): Promise<R> {
    if (this.closed) return Promise.reject(new Error('render pool is closed'))
    const maxQueued = this.options.maxQueued ?? 4
    if (bounded && this.queue.length >= maxQueued) {
      // Roughly when a place frees up: the jobs ahead, at the recent pace (5 s each until measured).
      const wait = ((this.queue.length + (this.current ? 1 : 0)) * this.averageJobMs) / (maxQueued + 1)
      return Promise.reject(new RenderQueueFullError(Math.min(120, Math.max(1, Math.ceil(wait / 1000)))))
    }
    return new Promise<R>((resolve, reject) => {
      // Ahead of every render waiting, behind the jobs that came ahead before it.
      const at = ahead ? this.queue.findIndex((p) => p.job.kind !== 'colours') : -1
      this.queue.splice(at === -1 ? this.queue.length : at, 0, { job, resolve, reject })
      this.pump()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    const error = new Error('render pool closed')
    for (const p of this.queue.splice(0)) p.reject(error)
    const worker = this.worker
    this.fail(error)
    if (worker) await worker.terminate()
  }

  private start(): Worker {
    const worker = this.options.workerUrl
      ? new Worker(this.options.workerUrl, { resourceLimits: RENDER_WORKER_LIMITS })
      : startDefaultWorker()
    worker.once('online', () => this.online.add(worker))
    worker.on('message', (reply: RenderReply) => {
      const p = this.current
      if (!p || p.job.id !== reply.id) return
      // The pace of renders: what a job refused for a full queue waits behind.
      if (p.job.kind !== 'colours') this.averageJobMs = 0.8 * this.averageJobMs + 0.2 * (performance.now() - this.jobStartedAt)
      this.finish()
      if (reply.ok) p.resolve(reply.result as never)
      else p.reject(new Error(reply.error))
      this.pump()
    })
    worker.on('error', (err) => this.crashed(worker, err))
    worker.on('exit', (code) => this.crashed(worker, new Error(`render worker exited with code ${code}`)))
    return worker
  }

  private pump(): void {
    if (this.current || this.closed) return
    const next = this.queue.shift()
    if (!next) return
    this.worker ??= this.start()
    this.worker.ref() // keep the process alive while a job is in flight
    this.current = next
    this.jobStartedAt = performance.now()
    const worker = this.worker
    try {
      worker.postMessage(next.job)
    } catch (err) {
      // e.g. a value that cannot be cloned: this job fails, the worker is fine.
      this.finish()
      next.reject(err instanceof Error ? err : new Error(String(err)))
      this.pump()
      return
    }
    // The clock starts once the worker is up, so a slow start does not count against the job.
    if (this.online.has(worker)) this.startTimer(worker, next)
    else worker.once('online', () => this.startTimer(worker, next))
  }

  private startTimer(worker: Worker, job: Pending): void {
    if (this.current !== job) return
    const timeout = this.options.jobTimeoutMs ?? 120_000
    this.timer = setTimeout(() => {
      this.crashed(worker, new Error(`render timed out after ${timeout} ms`))
      void worker.terminate()
    }, timeout)
    this.timer.unref()
  }

  private finish(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.current = null
    this.worker?.unref() // an idle worker must not keep the process alive
  }

  /** The job in flight fails; queued jobs go to a fresh worker. */
  private crashed(worker: Worker, error: Error): void {
    if (this.worker !== worker) return
    this.worker = null
    this.fail(error)
    this.pump()
  }

  private fail(error: Error): void {
    const p = this.current
    this.finish()
    this.worker = null
    p?.reject(error)
  }
}

let shared: RenderPool | null = null

/** Renders a Lottie to GIF and APNG in the shared worker. */
export function renderAnimation(lottie: object, options?: RenderAnimationOptions): Promise<RenderResult> {
  shared ??= new RenderPool()
  return shared.render(lottie, options)
}

/** Card previews and platform exports of an animation, made in the shared worker. */
export function deriveAnimation(lottie: object, options?: MakeMediaOptions): Promise<MadeMedia> {
  shared ??= new RenderPool()
  return shared.derive(lottie, options)
}

/** The colour slots of a stored Lottie's bytes, read in the shared worker. */
export function readColourSlots(lottie: Uint8Array): Promise<ColourSlotSummary[]> {
  shared ??= new RenderPool()
  return shared.colourSlots(lottie)
}

export async function closeRenderPool(): Promise<void> {
  const pool = shared
  shared = null
  await pool?.close()
}

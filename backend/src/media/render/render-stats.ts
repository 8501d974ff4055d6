import { createHash } from 'node:crypto'
// What the renderer and the encoders did in this thread, for benchmarks and for the tests that check
// a remix renders each frame sequence once and makes each file once.

export interface MediaStats {
  /** Calls of renderLottie (ThorVG loads and frame loops). */
  renders: number
  /** Frames ThorVG drew. */
  framesRendered: number
  /** Milliseconds spent rendering frames. */
  renderMs: number
  /** Frame sequences made by picking frames of a rendered one (a lower rate at the same size) instead of rendering again. */
  derived: number
  /** Files encoded (every ladder step counts), by encoder. */
  encodes: Record<string, number>
  /** Milliseconds spent encoding, by encoder. */
  encodeMs: Record<string, number>
  /** What each renderLottie call drew: the Lottie's name, then width x height @ fps. */
  rendered: string[]
  /** A digest of every file encoded, in order: the same digest twice is a file made twice. */
  made: string[]
  /** Each step of the size ladders, in order: what it tried, the bytes it made and whether they fit. */
  steps: LadderStep[]
}

export interface LadderStep {
  target: string
  step: string
  bytes: number
  ms: number
  fits: boolean
}

const empty = (): MediaStats => ({
  renders: 0,
  framesRendered: 0,
  renderMs: 0,
  derived: 0,
  encodes: {},
  encodeMs: {},
  rendered: [],
  made: [],
  steps: [],
})

export const mediaStats: MediaStats = empty()

export function resetMediaStats(): void {
  Object.assign(mediaStats, empty())
}

/** Counts one encode of `kind` that took `ms` and made `bytes`. */
export function countEncode(kind: string, ms: number, bytes?: Uint8Array): void {
  if (bytes) mediaStats.made.push(`${kind} ${createHash('sha1').update(bytes).digest('hex')}`)
  mediaStats.encodes[kind] = (mediaStats.encodes[kind] ?? 0) + 1
  mediaStats.encodeMs[kind] = (mediaStats.encodeMs[kind] ?? 0) + ms
}

// The frames of one Lottie at every size and frame rate a job asks for, each drawn once: a sequence
// is rendered only when no sequence already made can give it. A rate that divides a rendered one at
// the same size (15 or 10 of 30 fps) is every 2nd or 3rd of its frames, which are the very frames the
// renderer would draw at that rate. Smaller sizes are rendered, not scaled down from a larger render:
// the renderer's own small frames cost little and encode 20-80% smaller than scaled ones (fewer edge
// colours). Palettes and encoded files made from a sequence are kept here too, so two targets that
// want the same file get it made once.
import { padToSquare, type FrameSequence } from '../encode/frames'
import { lottieHeader, renderLottie, renderedSize, type RenderedFrames } from './render-lottie'
import { mediaStats } from './render-stats'

/** The name `once` knows an encoded file by: its format, then the settings that change its bytes. */
export function fileKey(format: string, setting: { quality: number; level?: number; mode?: string }): string {
  return `${format} ${setting.quality} ${setting.level ?? '-'} ${setting.mode ?? '-'}`
}

export class FrameSource {
  private readonly sequences = new Map<string, Promise<RenderedFrames>>()
  private readonly squares = new Map<FrameSequence, FrameSequence>()
  private readonly memo = new Map<string, Promise<unknown>>()
  private readonly ids = new WeakMap<FrameSequence, number>()
  private nextId = 0

  constructor(private readonly lottie: unknown) {}

  /** At `size` (longest side) and `fps`; centred on a square canvas when `square`. */
  async get(size: number, fps: number, square = true): Promise<FrameSequence> {
    const seq = await this.frames(Math.round(size), fps)
    if (!square) return seq
    let padded = this.squares.get(seq)
    if (!padded) {
      padded = padToSquare(seq)
      this.squares.set(seq, padded)
    }
    return padded
  }

  square = (size: number, fps: number): Promise<FrameSequence> => this.get(size, fps, true)
  asIs = (size: number, fps: number): Promise<FrameSequence> => this.get(size, fps, false)

  /**
   * `make()` once per `key` and sequence: a second ask for the same palette or the same file (another
   * platform, another ladder step) answers the first one's promise.
   */
  once<T>(seq: FrameSequence, key: string, make: () => Promise<T>): Promise<T> {
    let id = this.ids.get(seq)
    if (id === undefined) {
      id = this.nextId++
      this.ids.set(seq, id)
    }
    const full = `${id} ${key}`
    let made = this.memo.get(full) as Promise<T> | undefined
    if (!made) {
      made = make()
      this.memo.set(full, made)
    }
    return made
  }

  /** Keeps a file made elsewhere from `seq` (the original APNG) for whoever asks `once` for the same key. */
  remember<T>(seq: FrameSequence, key: string, value: T): void {
    void this.once(seq, key, () => Promise.resolve(value))
  }

  /** The frames the renderer would draw at `size` and `fps`, rendered, scaled or picked. */
  private frames(size: number, fps: number): Promise<RenderedFrames> {
    const key = `${size}@${fps}`
    let seq = this.sequences.get(key)
    if (!seq) {
      seq = this.derive(size, fps) ?? renderLottie(this.lottie, { size, fps })
      this.sequences.set(key, seq)
    }
    return seq
  }

  /** A sequence already asked for that this one can be made from, or undefined. */
  private derive(size: number, fps: number): Promise<RenderedFrames> | undefined {
    const header = lottieHeader(this.lottie)
    const target = renderedSize(header, size, fps)
    let best: { fps: number; step: number } | undefined
    for (const key of this.sequences.keys()) {
      const [s, f] = key.split('@').map(Number) as [number, number]
      const step = Math.round(f / fps)
      if (s !== size || step < 1 || Math.abs(f / fps - step) > 1e-9) continue
      // The picked frames must be exactly the ones a render at `fps` draws, and as many.
      if (renderedSize(header, s, f).count < (target.count - 1) * step + 1) continue
      if (!best || f < best.fps) best = { fps: f, step }
    }
    if (!best) return undefined
    const { fps: fromFps, step } = best
    return this.frames(size, fromFps).then((from) => {
      mediaStats.derived++
      const frames = Array.from({ length: target.count }, (_, i) => from.frames[i * step]!)
      return { width: from.width, height: from.height, fps, frames, durationMs: (target.count * 1000) / fps }
    })
  }
}

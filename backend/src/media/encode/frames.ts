// What the encoders share: the frame sequence they take, the timeline of frames that stay on screen
// for several ticks, and rectangles of changed pixels.

/** Straight-alpha RGBA frames shown at a constant rate. */
export interface FrameSequence {
  width: number
  height: number
  fps: number
  frames: Uint8Array[]
}

export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

/** One frame of the output: which input frame it shows and for how many ticks (1/fps each). */
export interface HeldFrame {
  index: number
  /** Ticks from the start of the animation to this frame. */
  start: number
  ticks: number
}

/** Checks the frames' sizes; answers the input frames as 4-byte aligned copies where needed. */
export function checkedFrames(seq: FrameSequence): Uint8Array[] {
  if (seq.frames.length === 0) throw new Error('no frames to encode')
  return seq.frames.map((frame, n) => {
    if (frame.length !== seq.width * seq.height * 4) throw new Error(`frame ${n} has the wrong size`)
    return frame.byteOffset % 4 === 0 ? frame : frame.slice()
  })
}

/**
 * Consecutive frames that are identical (compared by `same`) become one frame shown longer:
 * a held pose costs nothing but a longer delay.
 */
export function holdRepeats<T>(frames: T[], same: (a: T, b: T) => boolean): HeldFrame[] {
  const held: HeldFrame[] = []
  frames.forEach((frame, index) => {
    const last = held.at(-1)
    if (last && same(frames[last.index]!, frame)) last.ticks++
    else held.push({ index, start: index, ticks: 1 })
  })
  return held
}

/** The bytes under a typed array. */
export function bytesOf(values: Uint8Array | Uint32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength)
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 && a.length % 4 === 0) {
    const x = new Uint32Array(a.buffer, a.byteOffset, a.length / 4)
    const y = new Uint32Array(b.buffer, b.byteOffset, b.length / 4)
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false
    return true
  }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Grows a bounding box, kept as [left, top, right, bottom] inclusive; right < left means empty. */
export class Bounds {
  left = Infinity
  top = Infinity
  right = -1
  bottom = -1

  add(x: number, y: number): void {
    if (x < this.left) this.left = x
    if (x > this.right) this.right = x
    if (y < this.top) this.top = y
    if (y > this.bottom) this.bottom = y
  }

  addRect(r: Rect): void {
    this.add(r.x, r.y)
    this.add(r.x + r.w - 1, r.y + r.h - 1)
  }

  get empty(): boolean {
    return this.right < 0
  }

  /** The box, or a 1x1 rectangle at the origin when nothing was added (formats need some area). */
  rect(): Rect {
    return this.empty
      ? { x: 0, y: 0, w: 1, h: 1 }
      : { x: this.left, y: this.top, w: this.right - this.left + 1, h: this.bottom - this.top + 1 }
  }
}

export function inRect(r: Rect, x: number, y: number): boolean {
  return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h
}

export function rectArea(r: Rect): number {
  return r.w * r.h
}

/** The frames centred on a transparent square canvas (platforms that want squares get non-square art this way). */
export function padToSquare(seq: FrameSequence): FrameSequence {
  const side = Math.max(seq.width, seq.height)
  if (seq.width === side && seq.height === side) return seq
  const left = Math.floor((side - seq.width) / 2)
  const top = Math.floor((side - seq.height) / 2)
  const frames = seq.frames.map((frame) => {
    const out = new Uint8Array(side * side * 4)
    for (let y = 0; y < seq.height; y++) out.set(frame.subarray(y * seq.width * 4, (y + 1) * seq.width * 4), ((top + y) * side + left) * 4)
    return out
  })
  return { width: side, height: side, fps: seq.fps, frames }
}

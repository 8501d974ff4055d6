// Small builders for Lottie JSON (bodymovin 5.x): properties, shapes, groups, layers, compositions.

export type Vec2 = [number, number]
type Value = number | number[]
type Ease = { i: { x: number[]; y: number[] }; o: { x: number[]; y: number[] } }

export interface Keyframe {
  t: number
  s: number[]
  i?: Ease['i']
  o?: Ease['o']
  h?: 1
}
export type Prop = { a: 0; k: Value } | { a: 1; k: Keyframe[] }
/** A raw value (static) or an already built property. */
export type Animatable = Value | Prop

export const SMOOTH: Ease = { o: { x: [0.42], y: [0] }, i: { x: [0.58], y: [1] } }
export const LINEAR: Ease = { o: { x: [0], y: [0] }, i: { x: [1], y: [1] } }
export const EASE_OUT: Ease = { o: { x: [0.2], y: [0.6] }, i: { x: [0.4], y: [1] } }
export const EASE_IN: Ease = { o: { x: [0.6], y: [0] }, i: { x: [0.8], y: [0.4] } }

const asArray = (v: Value): number[] => (Array.isArray(v) ? v : [v])

/** Animated property from [frame, value] pairs (or [frame, value, ease] to ease the segment that starts there). */
export function keys(frames: Array<[number, Value] | [number, Value, Ease]>, ease: Ease = SMOOTH): Prop {
  const sorted = [...frames].sort((a, b) => a[0] - b[0])
  return {
    a: 1,
    k: sorted.map(([t, v, e], n) => (n === sorted.length - 1 ? { t, s: asArray(v) } : { t, s: asArray(v), ...(e ?? ease) })),
  }
}

export function prop(v: Animatable): Prop {
  return typeof v === 'object' && !Array.isArray(v) ? v : { a: 0, k: v }
}

/** Applies `fn` to every value of a (possibly animated) property. */
export function mapValues(v: Animatable, fn: (value: number, index: number) => number): Prop {
  const p = prop(v)
  const map = (s: number[]) => s.map(fn)
  return p.a === 0 ? { a: 0, k: map(asArray(p.k)) } : { a: 1, k: p.k.map((k) => ({ ...k, s: map(k.s) })) }
}

/** Adds a constant offset to a (possibly animated) vector property. */
export function shift(v: Animatable, by: Vec2): Prop {
  return mapValues(v, (x, i) => x + (by[i] ?? 0))
}

/**
 * Swings between `a` and `b` and back, `cycles` times over `frames` frames, so the loop is
 * seamless. `phase` (0..1 of a cycle) delays the swing; keys may lie outside the frame range.
 */
export function swing(a: Value, b: Value, frames: number, cycles = 1, phase = 0, ease: Ease = SMOOTH): Prop {
  const half = frames / cycles / 2
  const offset = (phase % 1) * half * 2
  const pts: Array<[number, Value]> = []
  for (let n = -2; n <= cycles * 2; n++) pts.push([n * half + offset, n % 2 === 0 ? a : b])
  return keys(pts, ease)
}

export function rgb(hex: string, alpha = 1): number[] {
  const n = parseInt(hex.replace('#', ''), 16)
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255, alpha]
}

/** Mixes two #rrggbb colours: t=0 gives a, t=1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const pa = parseInt(a.slice(1), 16)
  const pb = parseInt(b.slice(1), 16)
  const ch = (s: number) => Math.round(((pa >> s) & 255) * (1 - t) + ((pb >> s) & 255) * t)
  return `#${((ch(16) << 16) | (ch(8) << 8) | ch(0)).toString(16).padStart(6, '0')}`
}

export type Shape = Record<string, unknown>

export function ellipse(w: number, h: number, at: Vec2 = [0, 0]): Shape {
  return { ty: 'el', d: 1, p: prop(at), s: prop([w, h]) }
}

export function rect(w: number, h: number, radius: number, at: Vec2 = [0, 0]): Shape {
  return { ty: 'rc', d: 1, p: prop(at), s: prop([w, h]), r: prop(radius) }
}

/** A point of a bezier path: position plus optional in/out handles relative to it. */
export type PathPoint = Vec2 | [Vec2, Vec2, Vec2]

export function path(points: PathPoint[], closed = false): Shape {
  const norm = points.map((p) => (typeof p[0] === 'number' ? [p as Vec2, [0, 0], [0, 0]] : p) as [Vec2, Vec2, Vec2])
  return {
    ty: 'sh',
    d: 1,
    ks: { a: 0, k: { c: closed, v: norm.map((p) => p[0]), i: norm.map((p) => p[1]), o: norm.map((p) => p[2]) } },
  }
}

/** Star (points > 0) with rounded tips; sizes in pixels. */
export function star(points: number, outer: number, inner: number, at: Vec2 = [0, 0], roundness = 0): Shape {
  return {
    ty: 'sr',
    sy: 1,
    d: 1,
    pt: prop(points),
    p: prop(at),
    r: prop(0),
    or: prop(outer),
    ir: prop(inner),
    os: prop(roundness),
    is: prop(roundness),
  }
}

export function fill(color: string, opacity: Animatable = 100): Shape {
  return { ty: 'fl', c: prop(rgb(color)), o: prop(opacity), r: 1 }
}

export function stroke(color: string, width: number, opacity: Animatable = 100): Shape {
  return { ty: 'st', c: prop(rgb(color)), o: prop(opacity), w: prop(width), lc: 2, lj: 2 }
}

export interface TransformSpec {
  p?: Animatable
  a?: Animatable
  s?: Animatable
  r?: Animatable
  o?: Animatable
}

function groupTransform(t: TransformSpec): Shape {
  return {
    ty: 'tr',
    p: prop(t.p ?? [0, 0]),
    a: prop(t.a ?? [0, 0]),
    s: prop(t.s ?? [100, 100]),
    r: prop(t.r ?? 0),
    o: prop(t.o ?? 100),
    sk: prop(0),
    sa: prop(0),
  }
}

/** Shapes drawn together; in Lottie order the first item is on top. */
export function group(items: Shape[], transform: TransformSpec = {}): Shape {
  return { ty: 'gr', it: [...items, groupTransform(transform)] }
}

export interface LayerSpec {
  id: string
  parent?: string
  transform?: TransformSpec
  /** Shapes of a shape layer; absent for a null (transform-only) layer. */
  shapes?: Shape[]
}

/**
 * A 320x320 composition. Layers are listed top first; parents are named by id.
 */
export function composition(name: string, fps: number, frames: number, layers: LayerSpec[], size = 320): object {
  const index = new Map(layers.map((l, i) => [l.id, i + 1]))
  return {
    v: '5.7.4',
    fr: fps,
    ip: 0,
    op: frames,
    w: size,
    h: size,
    nm: name,
    ddd: 0,
    assets: [],
    layers: layers.map((l, i) => {
      const t = l.transform ?? {}
      const ks = { o: prop(t.o ?? 100), r: prop(t.r ?? 0), p: prop(t.p ?? [0, 0]), a: prop(t.a ?? [0, 0]), s: prop(t.s ?? [100, 100]) }
      const parent = l.parent === undefined ? undefined : index.get(l.parent)
      if (l.parent !== undefined && parent === undefined) throw new Error(`unknown parent layer ${l.parent}`)
      return {
        ddd: 0,
        ind: i + 1,
        ty: l.shapes ? 4 : 3,
        nm: l.id,
        sr: 1,
        ks,
        ao: 0,
        ...(parent === undefined ? {} : { parent }),
        ...(l.shapes ? { shapes: l.shapes } : {}),
        ip: 0,
        op: frames,
        st: 0,
        bm: 0,
      }
    }),
  }
}

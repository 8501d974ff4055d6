// Little things that float around a wumpus: z's, hearts, stars, notes, snowflakes.
// Coordinates are stage units relative to the ground point (negative y is up).
import { heart, INK } from './body'
import {
  ellipse,
  fill,
  group,
  keys,
  LINEAR,
  path,
  rect,
  star,
  stroke,
  type Keyframe,
  type LayerSpec,
  type Prop,
  type Shape,
  type Vec2,
} from './lottie'

/**
 * Keyframes for one pass of an effect that starts at `start` and lasts `duration`, repeated
 * a loop earlier and later so a pass that crosses the loop end wraps around seamlessly.
 * `at(u)` gives the value at u in 0..1 of the pass; `steps` samples are eased linearly.
 */
function pass(start: number, duration: number, frames: number, steps: number, at: (u: number) => number[]): Prop {
  const k: Keyframe[] = []
  for (const cycle of [-1, 0, 1]) {
    for (let n = 0; n <= steps; n++) {
      const u = n / steps
      k.push({ t: start + cycle * frames + u * duration, s: at(u), ...LINEAR })
    }
  }
  k.sort((a, b) => a.t - b.t)
  return { a: 1, k }
}

const lerp = (a: number, b: number, u: number) => a + (b - a) * u
const fade = (u: number) => (u < 0.2 ? u / 0.2 : u > 0.7 ? (1 - u) / 0.3 : 1) * 100

export interface FloatSpec {
  from: Vec2
  to: Vec2
  start: number
  duration: number
  frames: number
  /** Side-to-side drift in units while rising. */
  sway?: number
  /** Scale percent at the beginning and end of the pass. */
  grow?: [number, number]
  /** Tilt in degrees swinging either way while it floats. */
  tilt?: number
}

/** A shape that drifts from `from` to `to`, fading in and out. */
export function floating(id: string, shapes: Shape[], f: FloatSpec): LayerSpec {
  const [g0, g1] = f.grow ?? [60, 110]
  const sway = f.sway ?? 0
  const tilt = f.tilt ?? 0
  return {
    id,
    parent: 'stage',
    transform: {
      p: pass(f.start, f.duration, f.frames, 8, (u) => [
        lerp(f.from[0], f.to[0], u) + Math.sin(u * Math.PI * 2) * sway,
        lerp(f.from[1], f.to[1], u),
      ]),
      s: pass(f.start, f.duration, f.frames, 2, (u) => [lerp(g0, g1, u), lerp(g0, g1, u)]),
      r: pass(f.start, f.duration, f.frames, 4, (u) => [Math.sin(u * Math.PI * 2) * tilt]),
      o: pass(f.start, f.duration, f.frames, 10, (u) => [fade(u)]),
    },
    shapes,
  }
}

/** A shape that pops in, twinkles and pops out at a fixed place. */
export function twinkle(id: string, shapes: Shape[], at: Vec2, start: number, duration: number, frames: number, size = 100): LayerSpec {
  const pop = (u: number) => Math.sin(Math.min(1, Math.max(0, u)) * Math.PI) * size
  return {
    id,
    parent: 'stage',
    transform: {
      p: at,
      s: pass(start, duration, frames, 6, (u) => [pop(u), pop(u)]),
      r: pass(start, duration, frames, 2, (u) => [u * 90]),
    },
    shapes,
  }
}

/** Moves through a closed list of points (e.g. an orbit), one lap per loop. */
export function orbit(id: string, shapes: Shape[], points: (u: number) => Vec2, frames: number, steps = 24): LayerSpec {
  const k: Array<[number, number[]]> = []
  for (let n = 0; n <= steps; n++) k.push([(n / steps) * frames, points(n / steps)])
  return { id, parent: 'stage', transform: { p: keys(k, LINEAR) }, shapes }
}

export const zLetter = (size: number, color = '#ffffff'): Shape[] => {
  const z = () =>
    path([
      [-size, -size],
      [size, -size],
      [-size, size],
      [size, size],
    ])
  return [group([z(), stroke(color, size * 0.38)]), group([z(), stroke('#3b3f8f', size * 0.7)])]
}

export const heartShape = (r: number, color = '#ff4f86'): Shape[] => [
  group([ellipse(r * 0.4, r * 0.3, [-r * 0.45, -r * 0.35]), fill('#ffffff', 70)]),
  group([heart(r), fill(color), stroke('#b3204f', r * 0.18)]),
]

export const starShape = (r: number, color = '#ffd23f'): Shape[] => [
  group([star(5, r, r * 0.48, [0, 0], 20), fill(color), stroke('#c98a00', r * 0.14)]),
]

export const sparkle = (r: number, color = '#ffffff'): Shape[] => [group([star(4, r, r * 0.28), fill(color), stroke('#f2a93b', r * 0.12)])]

export const noteShape = (s: number, color = INK): Shape[] => [
  group([ellipse(s * 1.1, s * 0.8, [-s * 0.45, s * 1.1]), fill(color)], { r: -20 }),
  group([rect(s * 0.18, s * 1.6, 0, [s * 0.05, 0.25 * s]), fill(color)]),
  group([
    path([
      [s * 0.05, -s * 0.55],
      [
        [s * 0.7, -s * 0.05],
        [0, -s * 0.3],
        [0, 0],
      ],
    ]),
    stroke(color, s * 0.22),
  ]),
]

export const snowflake = (r: number, color = '#ffffff'): Shape[] => {
  const arms = [0, 60, 120].map((deg) =>
    group(
      [
        path([
          [0, -r],
          [0, r],
        ]),
      ],
      { r: deg },
    ),
  )
  return [group([...arms, stroke(color, r * 0.2)]), group([...arms, stroke('#3f86c6', r * 0.46)])]
}

export const confetti = (w: number, color: string): Shape[] => [group([rect(w, w * 0.45, w * 0.15), fill(color)])]

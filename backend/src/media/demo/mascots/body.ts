// The shared wumpus character: a round soft body with big eyes, small ears, stubby arms and feet.
// Mascot files pick a colour, a face and a few animated properties; this file draws the rest.
import {
  composition,
  ellipse,
  fill,
  group,
  keys,
  mapValues,
  mix,
  path,
  rect,
  shift,
  stroke,
  type Animatable,
  type Keyframe,
  type LayerSpec,
  type PathPoint,
  type Prop,
  type Shape,
  type Vec2,
} from './lottie'

export const SIZE = 320
/** Where the feet touch the ground, in composition pixels. */
export const GROUND: Vec2 = [160, 286]
/**
 * Layers parented to 'stage' use coordinates relative to the ground point, in character
 * units (the stage is scaled up a little); 'root' additionally follows the body motion.
 */
const STAGE_SCALE = 116
/** Body centre relative to the ground point: the pivot for spins and wobbles. */
export const CENTER_Y = -88
export const INK = '#2a2238'
const OUTLINE = 5

export type Eyes = 'open' | 'happy' | 'closed' | 'spiral' | 'heart' | 'wide' | 'squint'
export type Mouth = 'smile' | 'open' | 'o' | 'wavy' | 'grin' | 'small'
export type Ears = 'round' | 'pointy' | 'horns' | 'floppy'

export interface Mascot {
  slug: string
  name: string
  description: string
  /** Lower-case words (contract/search.ts rules), for search and the gallery's tag chips. */
  tags: string[]
  /** Emoji as typed (contract/emoji.ts), the first ones what chat apps show. */
  emoji: string[]
  /** Search keywords (Telegram's too). */
  keywords: string[]
  lottie: object
}

export interface WumpusSpec {
  name: string
  color: string
  frames: number
  fps?: number
  eyes?: Eyes
  mouth?: Mouth
  /** Whole-body motion about the feet (default) or the body centre. */
  pivot?: 'feet' | 'center'
  root?: { offset?: Animatable; scale?: Animatable; rotation?: Animatable }
  /** Face slide (looking around) and tilt, in pixels and degrees. */
  face?: { offset?: Animatable; rotation?: Animatable }
  /** Blinks (frame numbers) or closed spans ([from, to]); open or wide eyes only. */
  blink?: Array<number | [number, number]>
  eyeScale?: Animatable
  eyeRotation?: Animatable
  mouthScale?: Animatable
  /** Arm rotations in degrees; 0 hangs straight down, left is the viewer's left. */
  arms?: { left?: Animatable; right?: Animatable }
  ears?: { style?: Ears; rotation?: Animatable }
  cheeks?: { opacity?: Animatable }
  shadow?: { scale?: Animatable } | false
  /** Extra layers in front of / behind the character; parent them to 'stage' or 'root'. */
  front?: LayerSpec[]
  back?: LayerSpec[]
}

export interface Colors {
  body: string
  belly: string
  outline: string
  inner: string
  cheek: string
}

export function colorsFor(body: string): Colors {
  return {
    body,
    belly: mix(body, '#ffffff', 0.5),
    outline: mix(body, INK, 0.62),
    inner: mix(mix(body, '#ffffff', 0.45), '#ffa3c6', 0.45),
    cheek: '#ff7fa6',
  }
}

const outlined = (items: Shape[], c: Colors, transform = {}) => group([...items, stroke(c.outline, OUTLINE), fill(c.body)], transform)

function earShape(style: Ears, side: -1 | 1, c: Colors): Shape {
  const inner = (shape: Shape) => group([shape, fill(c.inner)])
  switch (style) {
    case 'round':
      return group([inner(ellipse(18, 26, [0, 2])), outlined([ellipse(40, 52)], c)], { p: [side * 44, -150], r: side * 24 })
    case 'pointy': {
      const tri = (w: number, h: number) =>
        path(
          [
            [
              [-w, h],
              [0, 0],
              [0, -h * 0.5],
            ],
            [
              [0, -h],
              [-w * 0.35, 0],
              [w * 0.35, 0],
            ],
            [
              [w, h],
              [0, -h * 0.5],
              [0, 0],
            ],
            [
              [0, h * 1.15],
              [w * 0.6, 0],
              [-w * 0.6, 0],
            ],
          ],
          true,
        )
      return group([inner(tri(10, 18)), outlined([tri(22, 34)], c)], { p: [side * 42, -150], r: side * 18 })
    }
    case 'horns': {
      const horn = path(
        [
          [
            [-11, 14],
            [0, 0],
            [0, -10],
          ],
          [
            [0, -18],
            [-7, 0],
            [7, 0],
          ],
          [
            [11, 14],
            [0, -10],
            [0, 0],
          ],
        ],
        true,
      )
      return group([horn, stroke(c.outline, OUTLINE), fill('#fff1cf')], { p: [side * 36, -160], r: side * 16 })
    }
    case 'floppy':
      return group([inner(ellipse(14, 40, [0, 4])), outlined([ellipse(32, 68)], c)], { p: [side * 70, -136], r: side * 62 })
  }
}

/** A soft bean: slightly narrower on top, wide flat bottom. */
function bodyShape(): Shape {
  const pts: PathPoint[] = [
    [
      [0, -160],
      [-46, 0],
      [46, 0],
    ],
    [
      [78, -84],
      [0, -42],
      [0, 40],
    ],
    [
      [0, -12],
      [52, 0],
      [-52, 0],
    ],
    [
      [-78, -84],
      [0, 40],
      [0, -42],
    ],
  ]
  return path(pts, true)
}

function eyeShapes(kind: Eyes): Shape[] {
  const ink = fill(INK)
  const shine = (w: number, at: Vec2) => group([ellipse(w, w, at), fill('#ffffff')])
  const arc = (dy: number) =>
    group([
      path([
        [
          [-12, -dy / 2],
          [0, 0],
          [5, dy],
        ],
        [
          [12, -dy / 2],
          [-5, dy],
          [0, 0],
        ],
      ]),
      stroke(INK, 5),
    ])
  switch (kind) {
    case 'open':
      return [shine(5, [-5, 8]), shine(11, [5, -8]), group([ellipse(28, 36), ink])]
    case 'wide':
      return [shine(6, [-6, 10]), shine(13, [6, -9]), group([ellipse(33, 41), ink])]
    case 'squint':
      return [
        group([
          path([
            [-12, -6],
            [10, 0],
            [-12, 6],
          ]),
          stroke(INK, 5),
        ]),
      ]
    case 'happy':
      return [arc(-18)]
    case 'closed':
      return [arc(14)]
    case 'spiral':
      return [group([spiral(15, 2.25), stroke(INK, 3.5)])]
    case 'heart':
      return [shine(6, [6, -7]), group([heart(15), fill('#ff3d6e')])]
  }
}

function mouthShapes(kind: Mouth): Shape[] {
  const line = (pts: PathPoint[], w = 4.5) => group([path(pts), stroke(INK, w)])
  switch (kind) {
    case 'smile':
      return [
        line([
          [
            [-11, -2],
            [0, 0],
            [4, 10],
          ],
          [
            [11, -2],
            [-4, 10],
            [0, 0],
          ],
        ]),
      ]
    case 'small':
      return [
        line([
          [
            [-6, -1],
            [0, 0],
            [2, 6],
          ],
          [
            [6, -1],
            [-2, 6],
            [0, 0],
          ],
        ]),
      ]
    case 'grin':
      return [
        group([
          path(
            [
              [
                [-16, -4],
                [0, 0],
                [4, 18],
              ],
              [
                [16, -4],
                [-4, 18],
                [0, 0],
              ],
            ],
            true,
          ),
          fill('#ffffff'),
          stroke(INK, 4),
        ]),
      ]
    case 'open':
      return [
        group([ellipse(16, 9, [0, 9]), fill('#ff7b9c')]),
        group([
          path(
            [
              [
                [-15, -4],
                [0, 0],
                [2, 24],
              ],
              [
                [15, -4],
                [-2, 24],
                [0, 0],
              ],
            ],
            true,
          ),
          fill('#5b1d3d'),
          stroke(INK, 4),
        ]),
      ]
    case 'o':
      return [group([ellipse(15, 19), fill('#5b1d3d'), stroke(INK, 4)])]
    case 'wavy':
      return [
        line(
          [
            [-14, 0],
            [-7, -3],
            [0, 1],
            [7, -3],
            [14, 0],
          ],
          4,
        ),
      ]
  }
}

/** Archimedean spiral of `turns` turns out to radius `r`, as smooth bezier segments. */
export function spiral(r: number, turns: number): Shape {
  const steps = Math.ceil(turns * 8)
  const total = turns * Math.PI * 2
  const b = r / total
  const pts: PathPoint[] = []
  for (let n = 0; n <= steps; n++) {
    const th = (n / steps) * total
    const rad = b * th
    const d = total / steps / 3
    const tx = (b * Math.cos(th) - rad * Math.sin(th)) * d
    const ty = (b * Math.sin(th) + rad * Math.cos(th)) * d
    pts.push([
      [rad * Math.cos(th), rad * Math.sin(th)],
      [-tx, -ty],
      [tx, ty],
    ])
  }
  return path(pts)
}

/** Heart of half-width `r`, centred on its middle. */
export function heart(r: number): Shape {
  const s = (x: number, y: number): Vec2 => [x * r, y * r]
  return path(
    [
      [s(0, 0.95), s(0.35, -0.3), s(-0.35, -0.3)],
      [s(-1, -0.22), s(0, 0.45), s(0, -0.55)],
      [s(0, -0.5), s(-0.42, -0.62), s(0.42, -0.62)],
      [s(1, -0.22), s(0, -0.55), s(0, 0.45)],
    ],
    true,
  )
}

/**
 * Eye scale and closed-lid opacity: a frame number is a quick blink centred there,
 * a [from, to] pair keeps the eyes shut in between.
 */
export function blinks(at: Array<number | [number, number]>): { scale: Prop; lid: Prop } {
  const scale: Array<[number, number[]]> = [[0, [100, 100]]]
  const lid: Keyframe[] = [{ t: 0, s: [0], h: 1 }]
  for (const b of at) {
    const [from, to] = typeof b === 'number' ? [b - 1, b + 1] : b
    scale.push([from - 2, [100, 100]], [from, [100, 0]], [to, [100, 0]], [to + 2, [100, 100]])
    lid.push({ t: from, s: [100], h: 1 }, { t: to + 1, s: [0], h: 1 })
  }
  return { scale: keys(scale), lid: { a: 1, k: lid } }
}

/** Builds the Lottie JSON for one wumpus. */
export function wumpus(spec: WumpusSpec): object {
  const c = colorsFor(spec.color)
  const pivotY = spec.pivot === 'center' ? CENTER_Y : 0
  const eyes = spec.eyes ?? 'open'
  const blink = spec.blink && (eyes === 'open' || eyes === 'wide') ? blinks(spec.blink) : undefined
  const eyeScale = spec.eyeScale ?? blink?.scale ?? [100, 100]
  const arm = (side: -1 | 1, rotation: Animatable | undefined): LayerSpec => ({
    id: side < 0 ? 'arm-left' : 'arm-right',
    parent: 'root',
    transform: { p: [side * 64, -84], r: rotation ?? -side * 22 },
    shapes: [outlined([rect(26, 52, 13, [0, 18])], c)],
  })
  const eye = (side: -1 | 1) =>
    group(
      [...(blink ? [group(eyeShapes('closed'), { o: blink.lid })] : []), group(eyeShapes(eyes), { s: eyeScale, r: spec.eyeRotation ?? 0 })],
      {
        p: [side * 30, -106],
      },
    )
  const cheek = (side: -1 | 1) => group([ellipse(24, 13, [side * 55, -80]), fill(c.cheek, spec.cheeks?.opacity ?? 70)])
  // Ears wiggle in mirror image about their base.
  const ear = (side: -1 | 1) =>
    group([earShape(spec.ears?.style ?? 'round', side, c)], {
      p: [side * 40, -132],
      a: [side * 40, -132],
      r: mapValues(spec.ears?.rotation ?? 0, (r) => r * side),
    })
  const foot = (side: -1 | 1) => outlined([ellipse(46, 26, [side * 32, -10])], c)

  const layers: LayerSpec[] = [
    ...(spec.front ?? []),
    arm(-1, spec.arms?.left),
    arm(1, spec.arms?.right),
    {
      id: 'face',
      parent: 'root',
      transform: { p: shift(spec.face?.offset ?? [0, 0], [0, -92]), a: [0, -92], r: spec.face?.rotation ?? 0 },
      shapes: [
        eye(-1),
        eye(1),
        group(mouthShapes(spec.mouth ?? 'smile'), { p: [0, -80], s: spec.mouthScale ?? [100, 100] }),
        cheek(-1),
        cheek(1),
      ],
    },
    {
      id: 'body',
      parent: 'root',
      shapes: [group([ellipse(100, 66, [0, -50]), fill(c.belly)]), outlined([bodyShape()], c)],
    },
    { id: 'ears', parent: 'root', shapes: [ear(-1), ear(1)] },
    { id: 'feet', parent: 'root', shapes: [foot(-1), foot(1)] },
    {
      id: 'root',
      parent: 'stage',
      transform: {
        a: [0, pivotY],
        p: shift(spec.root?.offset ?? [0, 0], [0, pivotY]),
        s: spec.root?.scale ?? [100, 100],
        r: spec.root?.rotation ?? 0,
      },
    },
  ]
  if (spec.shadow !== false) {
    layers.push({
      id: 'shadow',
      parent: 'stage',
      transform: { p: [0, 2], s: spec.shadow?.scale ?? [100, 100] },
      shapes: [group([ellipse(132, 18), fill('#1b1530', 16)])],
    })
  }
  layers.push(...(spec.back ?? []), { id: 'stage', transform: { p: GROUND, s: [STAGE_SCALE, STAGE_SCALE] } })
  return composition(spec.name, spec.fps ?? 30, spec.frames, layers, SIZE)
}

// Telegram's animated stickers are gzipped Lottie (.tgs) on a 512x512 canvas at exactly 60 fps, with
// a reduced feature set; its custom emoji are the same on a 100x100 canvas. This rewrites a Lottie
// towards those rules: the whole scene is scaled onto the canvas by a null parent layer, every time value is retimed to 60 fps (keyframes move; no time
// remapping), idle time stretches are removed, and star and polygon shapes become bezier paths.
// What cannot be converted is left as it is, for the platform check to refuse with its reason.
import { gzipSync } from 'node:zlib'
import { addSceneParent, isObject, layerLists, retime, type Json } from '../../../../contract/remix/lottie-walk'
import { lottieBytes } from '../encode/lottie-json'
import { lottieHeader } from '../render/render-lottie'

/** The canvas of a sticker; custom emoji have 100 (contract/stickers.ts). */
export const TELEGRAM_SIZE = 512
export const TELEGRAM_FPS = 60

export interface TelegramConversion {
  lottie: Json
  /** What was changed to fit, in words for people. */
  notes: string[]
}

/** A copy of the Lottie rewritten for Telegram on a `size` canvas (see the file comment). Throws on a broken Lottie. */
export function toTelegramLottie(source: unknown, size = TELEGRAM_SIZE): TelegramConversion {
  const header = lottieHeader(source)
  const lottie = structuredClone(source) as Json
  const notes: string[] = []

  const stars = convertStars(lottie)
  if (stars > 0)
    notes.push(`${stars === 1 ? 'A star shape was' : `${stars} star shapes were`} redrawn as ${stars === 1 ? 'a path' : 'paths'}`)
  if (resetIdleTimeStretch(lottie)) notes.push('A time stretch that players ignore was removed')
  if (header.fr !== TELEGRAM_FPS) {
    retime(lottie, TELEGRAM_FPS / header.fr)
    notes.push(`Retimed from ${round(header.fr)} to ${TELEGRAM_FPS} fps`)
  }
  if (header.w !== size || header.h !== size) {
    fitCanvas(lottie, header.w, header.h, size)
    notes.push(`Scaled from ${header.w}x${header.h} to a ${size}x${size} canvas`)
  }
  lottie.fr = TELEGRAM_FPS
  // Telegram's own exporter marks its files so.
  lottie.tgs = 1
  return { lottie, notes }
}

/** The .tgs file: the JSON (numbers to 3 decimals) gzipped at the highest level. */
export function tgsBytes(lottie: object): Uint8Array {
  return new Uint8Array(gzipSync(lottieBytes(lottie), { level: 9 }))
}

const round = (n: number) => Math.round(n * 100) / 100

/**
 * A time stretch (sr) only plays a precomposition's content slower or faster: players (lottie-web,
 * ThorVG, rlottie) ignore it on other layers, so there it is reset to 1 and nothing on screen changes.
 * Precomposition layers keep theirs, and the check refuses them.
 */
function resetIdleTimeStretch(lottie: Json): boolean {
  let reset = false
  for (const layers of layerLists(lottie)) {
    for (const layer of layers) {
      if (!isObject(layer) || typeof layer.sr !== 'number' || layer.sr === 1 || layer.ty === 0) continue
      layer.sr = 1
      reset = true
    }
  }
  return reset
}

/** Scales and centres the scene on the `size` canvas through a null layer that parents every root layer. */
function fitCanvas(lottie: Json, width: number, height: number, size: number): void {
  const scale = size / Math.max(width, height)
  addSceneParent(lottie, 'telegram canvas', {
    p: [(size - width * scale) / 2, (size - height * scale) / 2, 0],
    s: [scale * 100, scale * 100, 100],
  })
  lottie.w = size
  lottie.h = size
}

/** Replaces every star or polygon whose outline does not animate; answers how many. */
function convertStars(lottie: Json): number {
  let converted = 0
  const visit = (shapes: unknown) => {
    if (!Array.isArray(shapes)) return
    shapes.forEach((shape, i) => {
      if (!isObject(shape)) return
      if (shape.ty === 'gr') visit(shape.it)
      if (shape.ty === 'sr') {
        const group = starAsPath(shape)
        if (group) {
          shapes[i] = group
          converted++
        }
      }
    })
  }
  for (const layers of layerLists(lottie)) for (const layer of layers) if (isObject(layer)) visit(layer.shapes)
  return converted
}

const staticValue = (prop: unknown): number | undefined => {
  if (!isObject(prop) || prop.a === 1) return undefined
  const k = Array.isArray(prop.k) ? prop.k[0] : prop.k
  return typeof k === 'number' ? k : undefined
}

/**
 * A star (sy 1) or polygon (sy 2) as a group holding the same outline as a bezier path at the
 * origin, moved and turned by the group's transform, which takes the star's position and rotation
 * as they are (animated or not). Answers undefined when the outline itself animates.
 */
function starAsPath(star: Json): Json | undefined {
  const points = staticValue(star.pt)
  const outer = staticValue(star.or)
  const outerRoundness = staticValue(star.os) ?? 0
  const polygon = star.sy === 2
  const inner = polygon ? 0 : staticValue(star.ir)
  const innerRoundness = polygon ? 0 : (staticValue(star.is) ?? 0)
  if (points === undefined || outer === undefined || inner === undefined) return undefined
  if (polygon ? isObject(star.os) && star.os.a === 1 : [star.os, star.is].some((p) => isObject(p) && p.a === 1)) return undefined
  const clockwise = star.d !== 3
  const path = polygon
    ? polygonPath(points, outer, outerRoundness / 100, clockwise)
    : starPath(points, outer, inner, outerRoundness / 100, innerRoundness / 100, clockwise)
  const still = (k: unknown) => ({ a: 0, k })
  return {
    ty: 'gr',
    nm: typeof star.nm === 'string' ? star.nm : 'star',
    it: [
      { ty: 'sh', d: star.d ?? 1, ks: still(path) },
      {
        ty: 'tr',
        p: star.p ?? still([0, 0]),
        a: still([0, 0]),
        s: still([100, 100]),
        r: star.r ?? still(0),
        o: still(100),
        sk: still(0),
        sa: still(0),
      },
    ],
  }
}

interface BezierPath {
  c: true
  v: number[][]
  i: number[][]
  o: number[][]
}

/** Roundness tangents as rlottie and ThorVG draw them. */
const STAR_ROUNDNESS = 0.47829 / 0.28
const POLYGON_ROUNDNESS = 0.25

/** Closed path through points; `tangents[k]` is [cp1 (out of the previous point), cp2 (into point k)] or undefined for straight edges. */
function closedPath(start: number[], points: number[][], tangents: Array<[number[], number[]] | undefined>): BezierPath {
  // The last point lands back on the start: the path's vertices are the start and every point but the last.
  const vertices = [start, ...points.slice(0, -1)]
  const ins = vertices.map(() => [0, 0])
  const outs = vertices.map(() => [0, 0])
  tangents.forEach((t, k) => {
    if (!t) return
    const from = k % vertices.length
    const to = (k + 1) % vertices.length
    outs[from] = [-t[0][0]!, -t[0][1]!]
    ins[to] = [t[1][0]!, t[1][1]!]
  })
  return { c: true, v: vertices, i: ins, o: outs }
}

function roundTangents(
  previous: number[],
  point: number[],
  radii: [number, number],
  roundness: [number, number],
  factor: number,
  direction: number,
): [number[], number[]] {
  const theta1 = Math.atan2(previous[1]!, previous[0]!) - (Math.PI / 2) * direction
  const theta2 = Math.atan2(point[1]!, point[0]!) - (Math.PI / 2) * direction
  const cp1 = radii[0] * roundness[0] * factor
  const cp2 = radii[1] * roundness[1] * factor
  return [
    [cp1 * Math.cos(theta1), cp1 * Math.sin(theta1)],
    [cp2 * Math.cos(theta2), cp2 * Math.sin(theta2)],
  ]
}

function starPath(count: number, outer: number, inner: number, outerRound: number, innerRound: number, clockwise: boolean): BezierPath {
  const direction = clockwise ? 1 : -1
  const perPoint = (2 * Math.PI) / count
  const half = perPoint / 2
  const partial = count - Math.floor(count)
  const steps = Math.ceil(count) * 2
  let angle = -Math.PI / 2
  let partialRadius = 0
  let start: number[]
  if (partial !== 0) {
    angle += half * (1 - partial) * direction
    partialRadius = inner + partial * (outer - inner)
    start = [partialRadius * Math.cos(angle), partialRadius * Math.sin(angle)]
    angle += perPoint * partial * 0.5 * direction
  } else {
    start = [outer * Math.cos(angle), outer * Math.sin(angle)]
    angle += half * direction
  }
  const rounded = outerRound !== 0 || innerRound !== 0
  const points: number[][] = []
  const tangents: Array<[number[], number[]] | undefined> = []
  let long = false
  let previous = start
  for (let i = 0; i < steps; i++) {
    let radius = long ? outer : inner
    let step = half
    if (partialRadius !== 0 && i === steps - 2) step = perPoint * partial * 0.5
    if (partialRadius !== 0 && i === steps - 1) radius = partialRadius
    const point = [radius * Math.cos(angle), radius * Math.sin(angle)]
    tangents.push(
      rounded
        ? roundTangents(
            previous,
            point,
            long ? [inner, outer] : [outer, inner],
            long ? [innerRound, outerRound] : [outerRound, innerRound],
            STAR_ROUNDNESS / count,
            direction,
          )
        : undefined,
    )
    points.push(point)
    previous = point
    angle += step * direction
    long = !long
  }
  return closedPath(start, points, tangents)
}

function polygonPath(count: number, radius: number, roundness: number, clockwise: boolean): BezierPath {
  const direction = clockwise ? 1 : -1
  const sides = Math.floor(count)
  const perPoint = (2 * Math.PI) / sides
  let angle = -Math.PI / 2
  const start = [radius * Math.cos(angle), radius * Math.sin(angle)]
  angle += perPoint * direction
  const points: number[][] = []
  const tangents: Array<[number[], number[]] | undefined> = []
  let previous = start
  for (let i = 0; i < sides; i++) {
    const point = [radius * Math.cos(angle), radius * Math.sin(angle)]
    tangents.push(
      roundness !== 0 ? roundTangents(previous, point, [radius, radius], [roundness, roundness], POLYGON_ROUNDNESS, direction) : undefined,
    )
    points.push(point)
    previous = point
    angle += perPoint * direction
  }
  return closedPath(start, points, tangents)
}

// Colour slots: an animation's distinct fill, stroke, gradient and solid colours, grouped so that shades
// of one colour (a body, its shadow and its highlight) form one slot that is recoloured as one. Each
// member keeps its offset from the slot's colour, so the shading survives a new colour.
import { MAX_LOTTIE_GRADIENT_STOPS } from '../limits'
import { chroma, hexToRgb, labToRgb, rgbToHex, rgbToLab, type Lab } from './colour-space'
import { forEachShapeItem, isObject, layerLists, mapPropValues, propValues, type Json, type Lottie, type LottieProp } from './lottie-walk'

/** Slots an animation offers at most. */
export const COLOUR_SLOTS_MAX = 8
/**
 * Bump when colourSlots answers other slots for the same Lottie: the server keeps each animation's slots
 * (backend/src/services/colour-slots.ts) and reads them again when they were read by other rules.
 */
export const COLOUR_SLOTS_VERSION = 1
/** The most covering colours grouped by shade; real stickers have a few dozen. */
const CLUSTERED_COLOURS_MAX = 256

export interface ColourSlot {
  /** The slot's colour without `#`: stable as long as the drawing's main colours stay. */
  id: string
  /** `#rrggbb`: the member that covers the most. */
  colour: string
  /** About how much of the drawing this slot covers, 0 to 1 (from the shapes' sizes, not a render). */
  share: number
  /** Every `#rrggbb` of the drawing in this slot. */
  members: string[]
}

/** A slot as GET /api/wumpus/{id}/colours shows it and a recipe names it: without its members. */
export type ColourSlotSummary = Pick<ColourSlot, 'id' | 'colour' | 'share'>

export interface ColourPreset {
  id: 'night' | 'pastel' | 'mono'
  name: string
  colours: Record<string, string>
}

const MIN_WEIGHT = 1

type Use = { hex: string; weight: number }

/** Every place a colour is painted, with the (rough) area it paints. */
function colourUses(lottie: Lottie): Use[] {
  const uses: Use[] = []
  const add = (rgb: number[], weight: number) => uses.push({ hex: rgbToHex(scaled(rgb)), weight: Math.max(MIN_WEIGHT, weight) })
  // The area of the shapes before each item of a list, summed once per list rather than once per item.
  const areasBefore = new Map<Json[], number[]>()
  const areaBefore = (siblings: Json[], index: number) => {
    let sums = areasBefore.get(siblings)
    if (!sums) {
      sums = [0]
      for (const shape of siblings) sums.push(sums[sums.length - 1]! + (isObject(shape) ? shapeArea(shape) : 0))
      areasBefore.set(siblings, sums)
    }
    return sums[index] ?? 0
  }
  forEachShapeItem(lottie, (item, siblings, index) => {
    if ((item.ty === 'fl' || item.ty === 'st') && isObject(item.c)) {
      const area = areaBefore(siblings, index)
      const weight = item.ty === 'fl' ? area : Math.sqrt(area) * 4 * staticNumber(item.w, 1)
      for (const value of propValues(item.c as LottieProp)) add(value, weight)
    }
    if ((item.ty === 'gf' || item.ty === 'gs') && isObject(item.g)) {
      const area = areaBefore(siblings, index)
      for (const value of propValues(item.g.k as LottieProp)) {
        const stops = gradientStops(item.g, value)
        for (let i = 0; i < stops; i++) add(value.slice(i * 4 + 1, i * 4 + 4), area / stops)
      }
    }
  })
  for (const layers of layerLists(lottie)) {
    for (const layer of layers) {
      if (layer.ty === 1 && typeof layer.sc === 'string')
        uses.push({ hex: layer.sc.toLowerCase(), weight: staticNumber(layer.sw) * staticNumber(layer.sh) })
    }
  }
  return uses
}

/**
 * The colour stops of a gradient value that are read: its `p`, never more than the value holds nor than an
 * upload may have (files stored before that cap are read only that far).
 */
function gradientStops(gradient: Json, value: number[]): number {
  const stops = Math.floor(Number(gradient.p) || 0)
  return Math.max(0, Math.min(stops, Math.floor(value.length / 4), MAX_LOTTIE_GRADIENT_STOPS))
}

/** Some files write colour channels 0..255 instead of 0..1. */
const scaled = (rgb: number[]) => (rgb.slice(0, 3).some((c) => c > 1) ? rgb.map((c) => c / 255) : rgb)

function staticNumber(value: unknown, fallback = 0): number {
  if (typeof value === 'number') return value
  if (isObject(value) && typeof value.k === 'number') return value.k
  return fallback
}

/** The rough area of a path-making shape item (ellipses, rectangles, paths by their bounds, groups by their paths). */
function shapeArea(shape: Json): number {
  const size = () => {
    const k = isObject(shape.s) ? shape.s.k : undefined
    if (Array.isArray(k) && typeof k[0] === 'number') return k as number[]
    if (Array.isArray(k) && isObject(k[0]) && Array.isArray(k[0].s)) return k[0].s as number[]
    return [0, 0]
  }
  switch (shape.ty) {
    case 'el':
      return (Math.PI / 4) * (size()[0] ?? 0) * (size()[1] ?? 0)
    case 'rc':
      return (size()[0] ?? 0) * (size()[1] ?? 0)
    case 'sh': {
      const k = isObject(shape.ks) ? shape.ks.k : undefined
      const path = (Array.isArray(k) ? (k[0] as Json | undefined)?.s : k) as Json | Json[] | undefined
      const vertices = (Array.isArray(path) ? path[0]?.v : path?.v) as number[][] | undefined
      if (!Array.isArray(vertices) || vertices.length === 0) return 0
      const xs = vertices.map((v) => v[0] ?? 0)
      const ys = vertices.map((v) => v[1] ?? 0)
      return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys))
    }
    case 'gr':
      return Array.isArray(shape.it) ? (shape.it as Json[]).reduce((sum, item) => sum + shapeArea(item), 0) : 0
    default:
      return 0
  }
}

type Colour = Use & { lab: Lab }
type Cluster = { members: Colour[]; weight: number }

/** Below this lightness a colour is ink (outlines, eyes); below this chroma a grey: neither has a hue that counts. */
const INK_LIGHTNESS = 0.3
const GREY_CHROMA = 0.03
/** Greys and inks are shades of one another within this lightness. */
const SAME_GREY = 0.12
/** Colours are shades of one hue within this many degrees, more when their lightness differs (shadows drift). */
const SAME_HUE_DEGREES = 12
const HUE_DRIFT_PER_LIGHTNESS = 50

const hueOf = (lab: Lab) => (Math.atan2(lab.b, lab.a) * 180) / Math.PI
const family = (lab: Lab) => (lab.L < INK_LIGHTNESS ? 'ink' : chroma(lab) < GREY_CHROMA ? 'grey' : 'hue')

function hueDifference(x: Lab, y: Lab): number {
  const d = Math.abs(hueOf(x) - hueOf(y)) % 360
  return d > 180 ? 360 - d : d
}

/** How unlike two colours are as shades of one colour: Infinity when they are not. */
function shadeGap(x: Lab, y: Lab): number {
  const kind = family(x)
  if (kind !== family(y)) return Infinity
  const dL = Math.abs(x.L - y.L)
  if (kind !== 'hue') return dL < SAME_GREY ? dL : Infinity
  const dh = hueDifference(x, y)
  return dh <= SAME_HUE_DEGREES + HUE_DRIFT_PER_LIGHTNESS * dL ? dh / 60 + dL : Infinity
}

function centre(cluster: Cluster): Lab {
  const mean = (key: keyof Lab) => cluster.members.reduce((sum, m) => sum + m.lab[key] * m.weight, 0) / cluster.weight
  return { L: mean('L'), a: mean('a'), b: mean('b') }
}

const labDistance = (x: Lab, y: Lab) => Math.hypot(x.L - y.L, x.a - y.a, x.b - y.b)

/** Merges the closest pair by `gap`. */
function mergeClosest(clusters: Cluster[], gap: (x: Cluster, y: Cluster) => number): void {
  let best: [number, number, number] | undefined
  for (let i = 0; i < clusters.length; i++) {
    for (let j = i + 1; j < clusters.length; j++) {
      const d = gap(clusters[i]!, clusters[j]!)
      if (!best || d < best[2]) best = [i, j, d]
    }
  }
  if (!best) return
  const [i, j] = best
  const x = clusters[i]!
  const y = clusters[j]!
  clusters.splice(j, 1)
  clusters.splice(i, 1, { members: [...x.members, ...y.members], weight: x.weight + y.weight })
}

/** The animation's colour slots, most covering first: at most 8, shades of one colour together. */
export function colourSlots(lottie: Lottie): ColourSlot[] {
  const byHex = new Map<string, number>()
  for (const use of colourUses(lottie)) byHex.set(use.hex, (byHex.get(use.hex) ?? 0) + use.weight)
  // The most covering colours come first and anchor the slots; each next colour joins the slot it is a
  // shade of (of every member, so a shadow never links two colours), the closest one, or starts its own.
  const colours: Colour[] = [...byHex]
    .map(([hex, weight]) => ({ hex, weight, lab: rgbToLab(hexToRgb(hex)) }))
    .sort((x, y) => y.weight - x.weight || (x.hex < y.hex ? -1 : 1))
  const clusters: Cluster[] = []
  for (const colour of colours.slice(0, CLUSTERED_COLOURS_MAX)) {
    let best: { cluster: Cluster; gap: number } | undefined
    for (const cluster of clusters) {
      const gaps = cluster.members.map((member) => shadeGap(member.lab, colour.lab))
      const gap = Math.max(...gaps)
      if (gap !== Infinity && (!best || gap < best.gap)) best = { cluster, gap }
    }
    if (best) {
      best.cluster.members.push(colour)
      best.cluster.weight += colour.weight
    } else {
      clusters.push({ members: [colour], weight: colour.weight })
    }
  }
  // Past that many, a colour joins the slot of the closest one already placed: the shade rule above
  // compares each colour with every member, which would take minutes for a drawing of 20,000 colours.
  const placed = clusters.flatMap((cluster) => cluster.members.map((member) => ({ cluster, lab: member.lab })))
  for (const colour of colours.slice(CLUSTERED_COLOURS_MAX)) {
    let nearest = placed[0]!
    for (const member of placed) if (labDistance(member.lab, colour.lab) < labDistance(nearest.lab, colour.lab)) nearest = member
    nearest.cluster.members.push(colour)
    nearest.cluster.weight += colour.weight
  }
  while (clusters.length > COLOUR_SLOTS_MAX) {
    const centres = new Map(clusters.map((cluster) => [cluster, centre(cluster)]))
    mergeClosest(clusters, (x, y) => labDistance(centres.get(x)!, centres.get(y)!))
  }
  const total = clusters.reduce((sum, cluster) => sum + cluster.weight, 0) || 1
  return clusters
    .map((cluster) => {
      const main = [...cluster.members].sort((x, y) => y.weight - x.weight || (x.hex < y.hex ? -1 : 1))[0]!
      return {
        id: main.hex.slice(1),
        colour: main.hex,
        share: Math.round((cluster.weight / total) * 1000) / 1000,
        members: cluster.members.map((member) => member.hex).sort(),
      }
    })
    .sort((x, y) => y.share - x.share || (x.id < y.id ? -1 : 1))
}

/** Where a member lands when its slot's colour moves from `from` to `to`: its offset from the slot is kept. */
function moved(member: string, from: string, to: string): string {
  if (member === from) return to
  const m = rgbToLab(hexToRgb(member))
  const f = rgbToLab(hexToRgb(from))
  const t = rgbToLab(hexToRgb(to))
  const L = m.L + (t.L - f.L)
  // A coloured slot turns (and scales) its members' hue and chroma; a grey one shifts them.
  if (chroma(f) > 0.02) {
    const turn = Math.atan2(t.b, t.a) - Math.atan2(f.b, f.a)
    const scale = chroma(t) / chroma(f)
    const a = (m.a * Math.cos(turn) - m.b * Math.sin(turn)) * scale
    const b = (m.a * Math.sin(turn) + m.b * Math.cos(turn)) * scale
    return rgbToHex(labToRgb({ L, a, b }))
  }
  return rgbToHex(labToRgb({ L, a: m.a + t.a - f.a, b: m.b + t.b - f.b }))
}

/**
 * A copy of the animation with slots recoloured: `colours` maps slot ids to `#rrggbb`. Unknown slot ids
 * change nothing; opacity stays.
 */
export function recolour<T extends Lottie>(lottie: T, colours: Record<string, string>): T {
  const slots = colourSlots(lottie)
  const mapping = new Map<string, string>()
  for (const slot of slots) {
    const to = colours[slot.id]?.toLowerCase()
    if (!to || to === slot.colour) continue
    for (const member of slot.members) mapping.set(member, moved(member, slot.colour, to))
  }
  const copy = structuredClone(lottie)
  if (mapping.size === 0) return copy
  const swap = (rgb: number[]) => {
    const to = mapping.get(rgbToHex(scaled(rgb)))
    if (!to) return rgb
    const [r, g, b] = hexToRgb(to)
    const factor = rgb.slice(0, 3).some((c) => c > 1) ? 255 : 1
    return [r * factor, g * factor, b * factor, ...rgb.slice(3)]
  }
  forEachShapeItem(copy, (item) => {
    if ((item.ty === 'fl' || item.ty === 'st') && isObject(item.c)) mapPropValues(item.c as LottieProp, swap)
    if ((item.ty === 'gf' || item.ty === 'gs') && isObject(item.g)) {
      const gradient = item.g
      mapPropValues(item.g.k as LottieProp, (value) => {
        const next = [...value]
        const stops = gradientStops(gradient, value)
        for (let i = 0; i < stops; i++) next.splice(i * 4 + 1, 3, ...swap(value.slice(i * 4 + 1, i * 4 + 4)).slice(0, 3))
        return next
      })
    }
  })
  for (const layers of layerLists(copy)) {
    for (const layer of layers)
      if (layer.ty === 1 && typeof layer.sc === 'string') layer.sc = mapping.get(layer.sc.toLowerCase()) ?? layer.sc
  }
  return copy
}

const NIGHT_HUE = Math.atan2(-0.12, -0.03)

/** A few ready-made recolourings of the slots: night, pastel and mono. */
export function colourPresets(slots: readonly Pick<ColourSlot, 'id' | 'colour'>[]): ColourPreset[] {
  const each = (fn: (lab: Lab) => Lab) =>
    Object.fromEntries(slots.map((slot) => [slot.id, rgbToHex(labToRgb(fn(rgbToLab(hexToRgb(slot.colour)))))]))
  return [
    {
      id: 'night',
      name: 'Night',
      colours: each((lab) => {
        const c = chroma(lab) * 0.7 + 0.03
        return { L: lab.L * 0.6, a: c * Math.cos(NIGHT_HUE) * 0.5 + lab.a * 0.5, b: c * Math.sin(NIGHT_HUE) * 0.5 + lab.b * 0.5 }
      }),
    },
    { id: 'pastel', name: 'Pastel', colours: each((lab) => ({ L: 0.8 + lab.L * 0.18, a: lab.a * 0.45, b: lab.b * 0.45 })) },
    { id: 'mono', name: 'Mono', colours: each((lab) => ({ L: lab.L, a: 0, b: 0 })) },
  ]
}

// Just enough of the Lottie (bodymovin 5) layout to edit an animation as data: the layers of the root and
// of every precomposition, and the shape items inside shape layers, however deeply grouped.

export type Json = Record<string, unknown>
/** A Lottie property: a static value (`a` 0) or keyframes (`a` 1), each with its value in `s`. */
export type LottieProp = { a?: 0 | 1; k: unknown }
export type Keyframe = { t: number; s?: number[]; e?: number[] } & Json

export interface Lottie extends Json {
  fr: number
  ip: number
  op: number
  w: number
  h: number
  layers: Json[]
  assets?: Json[]
}

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A deep copy: the edits change the copy, never the original. */
export function cloneLottie<T>(lottie: T): T {
  return structuredClone(lottie)
}

/** Every list of layers: the root's, then each precomposition's. */
export function layerLists(lottie: Json): Json[][] {
  const lists = Array.isArray(lottie.layers) ? [(lottie.layers as unknown[]).filter(isObject)] : []
  for (const asset of Array.isArray(lottie.assets) ? lottie.assets : []) {
    if (isObject(asset) && Array.isArray(asset.layers)) lists.push((asset.layers as unknown[]).filter(isObject))
  }
  return lists
}

/** Multiplies every time value by `factor`: in and out points, start times, keyframes, markers (never time remapping). */
export function retime(lottie: Json, factor: number): void {
  for (const key of ['ip', 'op'] as const) if (typeof lottie[key] === 'number') lottie[key] = lottie[key] * factor
  for (const marker of Array.isArray(lottie.markers) ? lottie.markers : []) {
    if (!isObject(marker)) continue
    if (typeof marker.tm === 'number') marker.tm *= factor
    if (typeof marker.dr === 'number') marker.dr *= factor
  }
  const seen = new Set<object>()
  for (const layers of layerLists(lottie)) {
    for (const layer of layers) {
      if (!isObject(layer) || seen.has(layer)) continue
      for (const key of ['ip', 'op', 'st'] as const) if (typeof layer[key] === 'number') layer[key] = layer[key] * factor
      scaleKeyframeTimes(layer, factor, seen)
    }
  }
}

/**
 * Scales `t` of every keyframe under `node` (animated properties are `{ a: 1, k: [{ t, s, ... }] }`;
 * paths and gradients nest deeper, so the whole subtree is walked). A JSON file never shares
 * objects, but a Lottie built in code may: each object is scaled once.
 */
function scaleKeyframeTimes(node: unknown, factor: number, seen: Set<object>): void {
  const stack: unknown[] = [node]
  while (stack.length > 0) {
    const item = stack.pop()
    if (typeof item !== 'object' || item === null || seen.has(item)) continue
    seen.add(item)
    if (Array.isArray(item)) {
      for (const child of item) if (typeof child === 'object' && child !== null) stack.push(child)
      continue
    }
    const node = item as Json
    if (Array.isArray(node.k) && node.k.some((k) => isObject(k) && typeof k.t === 'number')) {
      for (const keyframe of node.k) if (isObject(keyframe) && typeof keyframe.t === 'number') keyframe.t *= factor
    }
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value)
  }
}

/**
 * Adds a null layer (with `transform`) that parents every root layer without a parent, so the whole scene
 * moves, scales or flips as one. Answers the new layer.
 */
export function addSceneParent(lottie: Json, name: string, transform: { p: number[]; a?: number[]; s: number[] }): Json {
  const layers = lottie.layers as Json[]
  const index = Math.max(0, ...layers.map((layer) => (typeof layer.ind === 'number' ? layer.ind : 0))) + 1
  for (const layer of layers) if (isObject(layer) && layer.parent === undefined) layer.parent = index
  const still = (k: unknown) => ({ a: 0, k })
  const parent: Json = {
    ddd: 0,
    ind: index,
    ty: 3,
    nm: name,
    sr: 1,
    ao: 0,
    ks: { o: still(100), r: still(0), a: still(transform.a ?? [0, 0, 0]), p: still(transform.p), s: still(transform.s) },
    ip: lottie.ip,
    op: lottie.op,
    st: 0,
    bm: 0,
  }
  layers.push(parent)
  return parent
}

/**
 * Calls `visit` for each shape item of every shape layer, depth first, with the items beside it (a fill
 * paints the paths of its group that come before it).
 */
export function forEachShapeItem(lottie: Json, visit: (item: Json, siblings: Json[], index: number) => void): void {
  const walk = (items: unknown) => {
    if (!Array.isArray(items)) return
    for (const [index, item] of (items as Json[]).entries()) {
      if (!isObject(item)) continue
      visit(item, items as Json[], index)
      if (item.ty === 'gr') walk(item.it)
    }
  }
  for (const layers of layerLists(lottie)) for (const layer of layers) if (layer.ty === 4) walk(layer.shapes)
}

/** Whether a property holds keyframes. */
export function isAnimated(prop: LottieProp): prop is { a: 1; k: Keyframe[] } {
  return prop.a === 1 && Array.isArray(prop.k) && prop.k.length > 0 && isObject(prop.k[0])
}

/** Applies `fn` to the property's value (static) or to each keyframe's start and end values. */
export function mapPropValues(prop: LottieProp, fn: (value: number[]) => number[]): void {
  if (isAnimated(prop)) {
    for (const key of prop.k) {
      if (Array.isArray(key.s)) key.s = fn(key.s)
      if (Array.isArray(key.e)) key.e = fn(key.e)
    }
  } else if (Array.isArray(prop.k) && prop.k.every((n) => typeof n === 'number')) {
    prop.k = fn(prop.k)
  }
}

/** The property's values: the static one, or each keyframe's. */
export function propValues(prop: LottieProp): number[][] {
  if (isAnimated(prop)) return prop.k.flatMap((key) => [key.s, key.e].filter((v): v is number[] => Array.isArray(v)))
  return Array.isArray(prop.k) && prop.k.every((n) => typeof n === 'number') ? [prop.k] : []
}

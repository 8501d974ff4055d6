// A white outline around the silhouette, as WhatsApp and Telegram recommend for stickers: the scene is
// drawn once more underneath, all white, with a white stroke along every filled shape. Image and text
// layers cannot be outlined as vectors: `rasterOutlineNeeded` tells the renderer to draw theirs on the
// rendered frames.
import { cloneLottie, isObject, layerLists, type Json, type Lottie, type LottieProp } from './lottie-walk'

/** The outline's width, as a fraction of the canvas's longer side (8 px on a 320 px sticker). */
export const OUTLINE_WIDTH = 0.025
const OUTLINE_ASSET = 'outline (Wumpus Gallery)'
const WHITE = [1, 1, 1, 1]
/** Fills fainter than this (ground shadows, glows) are not part of the silhouette. */
const SILHOUETTE_OPACITY = 60
const still = (k: unknown) => ({ a: 0, k })

/** Whether the animation has layers a vector outline cannot follow (images, text). */
export function rasterOutlineNeeded(lottie: Lottie): boolean {
  return layerLists(lottie).some((layers) => layers.some((layer) => layer.ty === 2 || layer.ty === 5))
}

/** The animation as it was before `withOutline`, or undefined when it carries no outline of its making. */
export function withoutOutline<T extends Lottie>(lottie: T): T | undefined {
  const outline = lottie.layers.find((layer) => isObject(layer) && layer.refId === OUTLINE_ASSET)
  if (!outline) return undefined
  const ours = (asset: unknown) =>
    isObject(asset) && typeof asset.id === 'string' && (asset.id === OUTLINE_ASSET || asset.id.endsWith(`|${OUTLINE_ASSET}`))
  const assets = Array.isArray(lottie.assets) ? lottie.assets.filter((asset) => !ours(asset)) : lottie.assets
  return { ...lottie, layers: lottie.layers.filter((layer) => layer !== outline), assets }
}

/** The first value of a (possibly animated) property. */
function firstValue(prop: unknown): number[] | undefined {
  if (!isObject(prop)) return undefined
  const k = prop.k
  if (Array.isArray(k) && typeof k[0] === 'number') return k as number[]
  if (Array.isArray(k) && isObject(k[0]) && Array.isArray(k[0].s)) return k[0].s as number[]
  return typeof k === 'number' ? [k] : undefined
}

/** How much a layer and its parents scale what it draws (from their first scale values). */
function layerScale(layer: Json, byIndex: Map<unknown, Json>): number {
  let scale = 1
  const seen = new Set<Json>()
  for (let current: Json | undefined = layer; current && !seen.has(current); current = byIndex.get(current.parent)) {
    seen.add(current)
    const s = firstValue(isObject(current.ks) ? current.ks.s : undefined)
    if (s) scale *= Math.max(Math.abs(s[0] ?? 100), 1) / 100
  }
  return scale
}

function addToProp(prop: LottieProp, extra: number): LottieProp {
  if (typeof prop.k === 'number') return { ...prop, k: prop.k + extra }
  if (Array.isArray(prop.k)) {
    return {
      ...prop,
      k: (prop.k as unknown[]).map((key) =>
        isObject(key) && Array.isArray(key.s) ? { ...key, s: (key.s as number[]).map((n) => n + extra) } : key,
      ),
    }
  }
  return prop
}

/** The shape items all white, with a stroke of `stroke` along each filled shape. */
function whiten(items: unknown, stroke: number): Json[] {
  if (!Array.isArray(items)) return []
  const out: Json[] = []
  for (const item of items as Json[]) {
    if (!isObject(item)) continue
    const opacity = item.o ?? still(100)
    switch (item.ty) {
      case 'gr':
        out.push({ ...item, it: whiten(item.it, stroke) })
        break
      case 'fl':
      case 'gf':
        if ((firstValue(opacity)?.[0] ?? 100) < SILHOUETTE_OPACITY) break
        out.push({ ty: 'fl', c: still(WHITE), o: opacity, r: item.r ?? 1 })
        out.push({ ty: 'st', c: still(WHITE), o: opacity, w: still(stroke), lc: 2, lj: 2 })
        break
      case 'st':
      case 'gs':
        out.push({ ...item, ty: 'st', c: still(WHITE), w: addToProp((item.w ?? still(0)) as LottieProp, stroke) })
        break
      default:
        out.push(item)
    }
  }
  return out
}

/** A white copy of a list of layers, precompositions pointing at their white copies. */
function whiteLayers(layers: Json[], width: number): Json[] {
  const byIndex = new Map(layers.map((layer) => [layer.ind, layer]))
  return layers.map((layer) => {
    const copy: Json = { ...layer }
    // Effects could tint the copy back.
    delete copy.ef
    if (copy.ty === 0 && typeof copy.refId === 'string') copy.refId = `${copy.refId}|${OUTLINE_ASSET}`
    if (copy.ty === 1) copy.sc = '#ffffff'
    if (copy.ty === 4) copy.shapes = whiten(copy.shapes, (2 * width) / layerScale(layer, byIndex))
    return copy
  })
}

/** A copy of the animation with a white outline around everything it draws. */
export function withOutline<T extends Lottie>(lottie: T): T {
  const copy = cloneLottie(lottie)
  const width = OUTLINE_WIDTH * Math.max(copy.w, copy.h)
  const assets = copy.assets ?? []
  const whiteAssets = assets
    .filter((asset) => Array.isArray(asset.layers))
    .map((asset) => ({
      ...cloneLottie(asset),
      id: `${String(asset.id)}|${OUTLINE_ASSET}`,
      layers: whiteLayers(asset.layers as Json[], width),
    }))
  copy.assets = [...assets, ...whiteAssets, { id: OUTLINE_ASSET, layers: whiteLayers(cloneLottie(copy.layers), width) }]
  const index = Math.max(0, ...copy.layers.map((layer) => (typeof layer.ind === 'number' ? layer.ind : 0))) + 1
  // Last in the list: drawn under everything.
  copy.layers.push({
    ddd: 0,
    ind: index,
    ty: 0,
    nm: 'outline',
    refId: OUTLINE_ASSET,
    sr: 1,
    ao: 0,
    ks: { o: still(100), r: still(0), p: still([0, 0, 0]), a: still([0, 0, 0]), s: still([100, 100, 100]) },
    w: copy.w,
    h: copy.h,
    ip: copy.ip,
    op: copy.op,
    st: 0,
    bm: 0,
  })
  return copy
}

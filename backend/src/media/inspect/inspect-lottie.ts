import {
  MAX_LOTTIE_EFFECTS,
  MAX_LOTTIE_GRADIENT_STOPS,
  MAX_LOTTIE_IMAGES,
  MAX_LOTTIE_LAYERS,
  MAX_LOTTIE_PRECOMP_DEPTH,
  MAX_LOTTIE_SHAPES,
  MAX_MEDIA_DIMENSION,
} from '../../../../contract/limits'
import { INSPECTED_CONTENT_TYPE, type MediaInfo } from '../../../../contract/media'
import { MediaError, assertFrameCount } from './media-error'

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const BOM = [0xef, 0xbb, 0xbf]
const VERSION = /^\d+(\.\d+){0,3}([-+][\w.]+)?$/

// Keys refused at any depth. JSON.parse makes `__proto__` a plain own property, so parsing is safe,
// but code that later merges or spreads the animation (players, editors, deep-merge helpers) can
// turn `__proto__` or `constructor.prototype` into prototype pollution. The Lottie schema never uses
// these names, so refusing them everywhere costs real files nothing.
const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype']

/**
 * A Lottie (Bodymovin) JSON animation: strict UTF-8, one JSON object with `v`, `fr`, `ip`, `op`,
 * `w`, `h` and `layers`. frames = op - ip (rounded up), durationMs = (op - ip) / fr seconds.
 * The file does not say whether to loop; players loop by default, so loop is reported as 0.
 */
export function inspectLottie(bytes: Uint8Array): MediaInfo {
  if (bytes.length === 0) throw new MediaError('EMPTY')
  checkLeadingBom(bytes)

  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    throw new MediaError('INVALID_JSON', { reason: 'not valid UTF-8' })
  }
  let data: unknown
  try {
    // Also refuses anything before or after the single JSON value.
    data = JSON.parse(text)
  } catch (error) {
    throw new MediaError('INVALID_JSON', { reason: error instanceof Error ? error.message : String(error) })
  }

  if (!isObject(data)) notLottie('the JSON is not an object')
  if (mayHaveForbiddenKeys(text)) assertNoForbiddenKeys(data)

  const { v, fr, ip, op, w, h, layers } = data
  if (!(typeof v === 'string' ? VERSION.test(v) : isFiniteNumber(v))) notLottie('v (version) is missing or invalid')
  if (!isFiniteNumber(fr) || fr <= 0) notLottie('fr (frame rate) must be a number above 0')
  if (!isFiniteNumber(ip)) notLottie('ip (in point) must be a number')
  if (!isFiniteNumber(op) || op <= ip) notLottie('op (out point) must be a number above ip')
  if (!isPositiveInteger(w) || !isPositiveInteger(h)) notLottie('w and h must be positive integers')
  if (w > MAX_MEDIA_DIMENSION || h > MAX_MEDIA_DIMENSION) {
    throw new MediaError('TOO_LARGE', { width: w, height: h, maxDimension: MAX_MEDIA_DIMENSION })
  }
  if (!Array.isArray(layers) || !layers.every(isObject)) notLottie('layers must be an array of objects')

  const frames = Math.ceil(op - ip)
  assertFrameCount(frames)
  assertComplexityWithinLimits(data)
  return {
    format: 'lottie',
    contentType: INSPECTED_CONTENT_TYPE.lottie,
    width: w,
    height: h,
    frames,
    durationMs: Math.round(((op - ip) / fr) * 1000),
    loop: 0,
    bytes: bytes.length,
  }
}

/**
 * Counts what makes an animation expensive to render and refuses it as TOO_COMPLEX beyond the limits:
 * layers and their effects (in precompositions too, each time they are used), shape items (each copy a
 * repeater makes of the items above it counts, and nested repeaters multiply), image assets, and how deep
 * precompositions nest (a precomposition that contains itself, directly or not, would nest for ever).
 * Iterative walks, so deep nesting cannot overflow the stack.
 */
function assertComplexityWithinLimits(lottie: Record<string, unknown>): void {
  const tooComplex = (what: string, count: number, max: number): never => {
    throw new MediaError('TOO_COMPLEX', { what, count, max })
  }
  const assets = Array.isArray(lottie.assets) ? lottie.assets.filter(isObject) : []
  const images = assets.filter((asset) => !Array.isArray(asset.layers) && (typeof asset.p === 'string' || typeof asset.u === 'string'))
  if (images.length > MAX_LOTTIE_IMAGES) tooComplex('images', images.length, MAX_LOTTIE_IMAGES)

  const precomps = new Map<string, unknown[]>()
  for (const asset of assets) if (typeof asset.id === 'string' && Array.isArray(asset.layers)) precomps.set(asset.id, asset.layers)
  let layerCount = 0
  let effectCount = 0
  // Each layer list is walked once per way of reaching it, up to the depth limit; a cycle reaches it for ever.
  const lists: { layers: unknown[]; depth: number }[] = [{ layers: lottie.layers as unknown[], depth: 0 }]
  for (let list = lists.pop(); list; list = lists.pop()) {
    if (list.depth > MAX_LOTTIE_PRECOMP_DEPTH) tooComplex('precomposition depth', list.depth, MAX_LOTTIE_PRECOMP_DEPTH)
    layerCount += list.layers.length
    if (layerCount > MAX_LOTTIE_LAYERS) tooComplex('layers', layerCount, MAX_LOTTIE_LAYERS)
    for (const layer of list.layers) {
      if (!isObject(layer)) continue
      if (Array.isArray(layer.ef)) effectCount += layer.ef.length
      if (effectCount > MAX_LOTTIE_EFFECTS) tooComplex('effects', effectCount, MAX_LOTTIE_EFFECTS)
      const nested = typeof layer.refId === 'string' ? precomps.get(layer.refId) : undefined
      if (nested) lists.push({ layers: nested, depth: list.depth + 1 })
    }
  }

  // Each shape list with how many times it is drawn: a repeater draws the items above it in its list
  // once per copy, their own lists included.
  let shapeCount = 0
  const shapeLists: { items: unknown[]; times: number }[] = []
  for (const layers of [lottie.layers as unknown[], ...precomps.values()]) {
    for (const layer of layers) if (isObject(layer) && Array.isArray(layer.shapes)) shapeLists.push({ items: layer.shapes, times: 1 })
  }
  for (let list = shapeLists.pop(); list; list = shapeLists.pop()) {
    let times = list.times
    for (let i = list.items.length - 1; i >= 0; i--) {
      const item = list.items[i]
      if (!isObject(item) || typeof item.ty !== 'string') continue
      shapeCount += times
      if (shapeCount > MAX_LOTTIE_SHAPES) tooComplex('shapes', shapeCount, MAX_LOTTIE_SHAPES)
      if ((item.ty === 'gf' || item.ty === 'gs') && isObject(item.g)) assertGradientWithinLimits(item.g, tooComplex)
      if (item.ty === 'rp') times *= repeaterCopies(item.c)
      for (const key of ['shapes', 'it']) if (Array.isArray(item[key])) shapeLists.push({ items: item[key], times })
    }
  }
}

/** Values of a gradient's stops per stop at most: position, r, g, b of a colour stop and position, alpha of an opacity stop. */
const GRADIENT_NUMBERS_PER_STOP = 6

/**
 * A gradient's stop count (`g.p`) is capped, and none of its values (`g.k`, fixed or each keyframe's) holds
 * more numbers than that many stops have: both are walked per stop when colours are read or changed.
 */
function assertGradientWithinLimits(
  gradient: Record<string, unknown>,
  tooComplex: (what: string, count: number, max: number) => never,
): void {
  const stops = Number(gradient.p)
  if (stops > MAX_LOTTIE_GRADIENT_STOPS) tooComplex('gradient stops', stops, MAX_LOTTIE_GRADIENT_STOPS)
  // Without a stop count, no stop is read.
  if (!Number.isFinite(stops)) return
  const max = Math.max(0, Math.ceil(stops)) * GRADIENT_NUMBERS_PER_STOP
  const k = isObject(gradient.k) ? gradient.k.k : undefined
  const values = Array.isArray(k) && k.some(isObject) ? k.flatMap((key) => (isObject(key) ? [key.s, key.e] : [])) : [k]
  for (const value of values) if (Array.isArray(value) && value.length > max) tooComplex('gradient values', value.length, max)
}

/** The most copies a repeater makes over the animation (its `c` property, fixed or keyframed), at least 1. */
function repeaterCopies(copies: unknown): number {
  if (!isObject(copies)) return 1
  const values = Array.isArray(copies.k) ? copies.k.map((key) => (isObject(key) ? key.s : key)) : [copies.k]
  const numbers = values.flatMap((value) => (Array.isArray(value) ? value : [value])).filter(isFiniteNumber)
  return Math.max(1, Math.ceil(Math.max(...numbers, 1)))
}

/** A BOM before JSON is only an encoding slip; a BOM before anything else is a disguised file. */
function checkLeadingBom(bytes: Uint8Array): void {
  if (!BOM.every((byte, i) => bytes[i] === byte)) return
  let i = BOM.length
  while (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09) i++
  if (bytes[i] === 0x7b || bytes[i] === 0x5b) {
    throw new MediaError('INVALID_JSON', { reason: 'starts with a byte order mark; save as UTF-8 without BOM' })
  }
  throw new MediaError('POLYGLOT', { reason: 'a byte order mark followed by non-JSON data' })
}

/**
 * The walk costs about as much as JSON.parse on big files, so skip it when no forbidden name can be
 * in the text: keys can only hide a letter or '_' behind a \u escape.
 */
function mayHaveForbiddenKeys(text: string): boolean {
  return text.includes('\\u') || FORBIDDEN_KEYS.some((key) => text.includes(key))
}

/** Iterative walk (no recursion, so deep nesting cannot overflow the stack). */
function assertNoForbiddenKeys(root: Record<string, unknown>): void {
  const stack: object[] = [root]
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) stack.push(item)
      continue
    }
    for (const key in node) {
      if (FORBIDDEN_KEYS.includes(key)) notLottie(`forbidden key "${key}"`)
      const value = (node as Record<string, unknown>)[key]
      if (typeof value === 'object' && value !== null) stack.push(value)
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function isPositiveInteger(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) > 0
}

function notLottie(reason: string): never {
  throw new MediaError('NOT_LOTTIE', { reason })
}

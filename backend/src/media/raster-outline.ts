// The outline's raster fallback ("where a vector outline is not possible for a shape, draw it on the
// rendered frames"). withOutline cannot follow image and text layers, so a Lottie it outlined that has
// such layers is rendered without its vector outline and the whole outline is drawn on each frame
// instead: one even ring around everything, images and caption included. The renderer learns it from
// the Lottie itself (renderLottie calls `rasterOutlineSource`), so every raster file made from an
// outlined Lottie gets it (originals, previews, platform exports) and no caller passes a flag. Telegram's
// .tgs is the Lottie itself and keeps the vector outline (it refuses image and text layers anyway).
import { OUTLINE_WIDTH, rasterOutlineNeeded, withoutOutline } from '../../../contract/remix/outline'
import type { Lottie } from '../../../contract/remix/lottie-walk'

/** Pixels at least this opaque are the silhouette; fainter ones (glows, shadows) are not, as for the vector outline. */
const SILHOUETTE_ALPHA = 153
/** Far beyond any outline: "no silhouette pixel in this row or column" (finite, so the arithmetic stays exact enough). */
const FAR = 1e20

/**
 * The Lottie to render when its outline is to be drawn on the frames (outlined by withOutline, with
 * image or text layers), or undefined when it renders as it is. Expects a Lottie whose header checked.
 */
export function rasterOutlineSource(lottie: object): object | undefined {
  const plain = withoutOutline(lottie as Lottie)
  return plain && rasterOutlineNeeded(plain) ? plain : undefined
}

/**
 * Paints a white outline under each straight-alpha RGBA frame, in place: every pixel within
 * OUTLINE_WIDTH of the canvas's longer side from the silhouette (exact Euclidean distance, with a
 * one-pixel soft edge).
 */
export function drawOutline(frames: Uint8Array[], width: number, height: number): void {
  const radius = OUTLINE_WIDTH * Math.max(width, height)
  const distance = new Float64Array(width * height)
  const line = new LineTransform(Math.max(width, height))
  for (const frame of frames) {
    for (let i = 0; i < distance.length; i++) distance[i] = frame[i * 4 + 3]! >= SILHOUETTE_ALPHA ? 0 : FAR
    for (let x = 0; x < width; x++) line.run(distance, x, width, height)
    for (let y = 0; y < height; y++) line.run(distance, y * width, 1, width)
    for (let i = 0; i < distance.length; i++) {
      const cover = Math.min(1, radius + 0.5 - Math.sqrt(distance[i]!))
      if (cover <= 0) continue
      const at = i * 4
      const alpha = frame[at + 3]! / 255
      const under = cover * (1 - alpha)
      const total = alpha + under
      for (let c = 0; c < 3; c++) frame[at + c] = Math.round((frame[at + c]! * alpha + 255 * under) / total)
      frame[at + 3] = Math.round(total * 255)
    }
  }
}

/**
 * The squared distance transform along one row or column, in place (Felzenszwalb and Huttenlocher's
 * lower envelope of parabolas): rows after columns give the exact squared Euclidean distance.
 */
class LineTransform {
  private readonly f: Float64Array
  private readonly v: Int32Array
  private readonly z: Float64Array

  constructor(longest: number) {
    this.f = new Float64Array(longest)
    this.v = new Int32Array(longest)
    this.z = new Float64Array(longest + 1)
  }

  run(values: Float64Array, start: number, step: number, n: number): void {
    const { f, v, z } = this
    for (let q = 0; q < n; q++) f[q] = values[start + q * step]!
    const meet = (q: number, p: number) => (f[q]! + q * q - (f[p]! + p * p)) / (2 * q - 2 * p)
    let k = 0
    v[0] = 0
    z[0] = -Infinity
    z[1] = Infinity
    for (let q = 1; q < n; q++) {
      let s = meet(q, v[k]!)
      while (s <= z[k]!) s = meet(q, v[--k]!)
      v[++k] = q
      z[k] = s
      z[k + 1] = Infinity
    }
    k = 0
    for (let q = 0; q < n; q++) {
      while (z[k + 1]! < q) k++
      const p = v[k]!
      values[start + q * step] = (q - p) * (q - p) + f[p]!
    }
  }
}

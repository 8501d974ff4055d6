// The outline's raster fallback ("where a vector outline is not possible for a shape, draw it on the
// rendered frames"). withOutline cannot follow image and text layers, so a Lottie it outlined that has
// such layers is rendered without its vector outline and the whole outline is drawn on each frame
// instead: one even ring around everything, images and caption included. The renderer learns it from
// the Lottie itself (renderLottie calls `rasterOutlineSource`), so every raster file made from an
// outlined Lottie gets it (originals, previews, platform exports) and no caller passes a flag. Telegram's
// .tgs is the Lottie itself and keeps the vector outline (it refuses image and text layers anyway).
import { OUTLINE_WIDTH, rasterOutlineNeeded, withoutOutline } from '../../../../contract/remix/outline'
import type { Lottie } from '../../../../contract/remix/lottie-walk'

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
  // Farther than this from the silhouette nothing is painted, so farther counts as FAR.
  const reach = Math.ceil(radius) + 2
  const column = new Uint16Array(width * height)
  const distance = new Float64Array(width * height)
  const line = new LineTransform(width)
  for (const frame of frames) {
    // Down each column, the distance to the nearest silhouette pixel in it: two sweeps, row by row
    // (walking the columns themselves would miss the cache at every step).
    for (let i = 0; i < column.length; i++) {
      column[i] = frame[i * 4 + 3]! >= SILHOUETTE_ALPHA ? 0 : i < width ? reach : Math.min(reach, column[i - width]! + 1)
    }
    for (let i = column.length - width - 1; i >= 0; i--) column[i] = Math.min(column[i]!, column[i + width]! + 1)
    for (let i = 0; i < column.length; i++) distance[i] = column[i]! >= reach ? FAR : column[i]! * column[i]!
    // Then along each row, the nearest of those: the squared Euclidean distance.
    for (let y = 0; y < height; y++) line.run(distance, y * width, width)
    for (let i = 0; i < distance.length; i++) {
      if (distance[i]! >= FAR) continue
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
 * The squared distance transform along a row, in place (Felzenszwalb and Huttenlocher's lower envelope
 * of parabolas): over the columns' squared distances, it gives the exact squared Euclidean distance.
 */
class LineTransform {
  private readonly f: Float64Array
  private readonly v: Int32Array
  private readonly z: Float64Array

  constructor(length: number) {
    this.f = new Float64Array(length)
    this.v = new Int32Array(length)
    this.z = new Float64Array(length + 1)
  }

  run(values: Float64Array, start: number, n: number): void {
    const { f, v, z } = this
    for (let q = 0; q < n; q++) f[q] = values[start + q]!
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
      values[start + q] = (q - p) * (q - p) + f[p]!
    }
  }
}

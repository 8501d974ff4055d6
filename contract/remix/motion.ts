// Speed and mirror: edits of a whole animation's time and direction.
import { addSceneParent, cloneLottie, isObject, retime, type Json, type Lottie } from './lottie-walk'

export const SPEED_MIN = 0.5
export const SPEED_MAX = 2

/**
 * A copy played `speed` times as fast (0.5 to 2) by moving every keyframe, never by time remapping. The
 * loop stays a whole number of frames, so the speed is rounded by less than a frame over the loop; the
 * first and last frames show what they showed.
 */
export function withSpeed<T extends Lottie>(lottie: T, speed: number): T {
  const copy = cloneLottie(lottie)
  const clamped = Math.min(SPEED_MAX, Math.max(SPEED_MIN, speed))
  const length = lottie.op - lottie.ip
  if (clamped === 1 || length <= 0) return copy
  retime(copy, Math.max(1, Math.round(length / clamped)) / length)
  return copy
}

/** The name of the null layer that flips the scene: recognised, so that mirroring again undoes it. */
const MIRROR_LAYER = 'mirror (Wumpus Gallery)'

/** A copy flipped left to right; flipping a flipped animation gives back the original. */
export function mirrored<T extends Lottie>(lottie: T): T {
  const copy = cloneLottie(lottie)
  const flip = copy.layers.findIndex((layer) => layer.ty === 3 && layer.nm === MIRROR_LAYER)
  if (flip >= 0) {
    const [layer] = copy.layers.splice(flip, 1) as [Json]
    for (const child of copy.layers) if (isObject(child) && child.parent === layer.ind) delete child.parent
    return copy
  }
  const centre = [copy.w / 2, copy.h / 2, 0]
  addSceneParent(copy, MIRROR_LAYER, { a: centre, p: centre, s: [-100, 100, 100] })
  return copy
}

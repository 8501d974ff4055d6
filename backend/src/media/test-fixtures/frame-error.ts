/** How far a decoded frame is from the expected one, colour weighted by alpha, in 0-255 units. */
export function frameError(expected: Uint8Array, actual: Uint8Array): { rms: number; max: number } {
  if (expected.length !== actual.length) throw new Error(`frames differ in size: ${expected.length} and ${actual.length}`)
  let sum = 0
  let max = 0
  for (let i = 0; i < expected.length; i += 4) {
    const ea = expected[i + 3]!
    const aa = actual[i + 3]!
    let d = (ea - aa) ** 2
    for (let c = 0; c < 3; c++) d += ((expected[i + c]! * ea - actual[i + c]! * aa) / 255) ** 2
    sum += d
    max = Math.max(max, Math.sqrt(d))
  }
  return { rms: Math.sqrt(sum / (expected.length / 4) / 4), max }
}

/** A frame as GIF's 1-bit alpha shows it: below 128 clear (all zero), the rest opaque. */
export function thresholded(frame: Uint8Array): Uint8Array {
  const out = frame.slice()
  for (let i = 0; i < out.length; i += 4) {
    if (out[i + 3]! < 128) out.fill(0, i, i + 4)
    else out[i + 3] = 255
  }
  return out
}

/** For each of `count` source frames at `fps`, the index of the decoded frame on screen at its time. */
export function shownFrames(delaysMs: number[], fps: number, count: number): number[] {
  const shown: number[] = []
  let index = 0
  let end = delaysMs[0] ?? 0
  for (let n = 0; n < count; n++) {
    const at = (n * 1000) / fps + 0.5
    while (at >= end && index < delaysMs.length - 1) end += delaysMs[++index]!
    shown.push(index)
  }
  return shown
}

/** How many pixels are opaque white in `outlined` where `plain` is (nearly) transparent: an outline's ring. */
export function whiteRing(plain: Uint8Array, outlined: Uint8Array): number {
  if (plain.length !== outlined.length) throw new Error(`frames differ in size: ${plain.length} and ${outlined.length}`)
  let ring = 0
  for (let at = 0; at < plain.length; at += 4) {
    const white = outlined[at + 3]! > 200 && outlined[at]! > 230 && outlined[at + 1]! > 230 && outlined[at + 2]! > 230
    if (plain[at + 3]! < 10 && white) ring++
  }
  return ring
}

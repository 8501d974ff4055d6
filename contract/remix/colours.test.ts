import { describe, expect, it } from 'vitest'
import { colourSlots, recolour } from './colours'
import type { Lottie } from './lottie-walk'

/** A drawing of one square filled with a two-stop gradient (red to blue) whose `p` says `stops`. */
function withGradient(stops: number): Lottie {
  const square = { ty: 'rc', s: { a: 0, k: [100, 100] }, p: { a: 0, k: [0, 0] }, r: { a: 0, k: 0 } }
  const gradient = { ty: 'gf', o: { a: 0, k: 100 }, t: 1, g: { p: stops, k: { a: 0, k: [0, 1, 0, 0, 1, 0, 0, 1] } } }
  return { fr: 30, ip: 0, op: 30, w: 100, h: 100, layers: [{ ty: 4, shapes: [square, gradient] }] }
}

describe('colour slots of gradients', () => {
  it('reads a gradient only as far as its values go, whatever stop count it claims', () => {
    const honest = colourSlots(withGradient(2))
    expect(honest.map((slot) => slot.colour).sort()).toEqual(['#0000ff', '#ff0000'])
    // A stored file from before the upload cap: 3,000,000 claimed stops are read as the 2 it has.
    expect(colourSlots(withGradient(3_000_000))).toEqual(honest)
  })

  it('recolours such a gradient without growing it', () => {
    const changed = recolour(withGradient(3_000_000), { ff0000: '#00ff00' })
    const shapes = (changed.layers[0] as { shapes: { g?: { k: { k: number[] } } }[] }).shapes
    expect(shapes[1]!.g!.k.k).toEqual([0, 0, 1, 0, 1, 0, 0, 1])
  })
})

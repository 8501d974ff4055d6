import { describe, expect, it, vi } from 'vitest'
import { tagsSchema } from '../../../../contract/wumpus-write'
import { demoMascots, renderDemoSet } from './demo-set'
import { inspectLottie } from '../inspect/inspect-lottie'
import { lottieBytes } from '../encode/lottie-json'

import { renderLottie } from '../render/render-lottie'

vi.mock('../render/render-pool', () => ({
  renderAnimation: vi.fn(async (lottie: { nm: string }) => ({
    gif: new TextEncoder().encode(`gif:${lottie.nm}`),
    apng: new TextEncoder().encode(`apng:${lottie.nm}`),
    frames: 1,
    durationMs: 1000,
    width: 320,
    height: 320,
  })),
}))

type Lottie = { v: string; fr: number; ip: number; op: number; w: number; h: number; nm: string; layers: Array<{ op: number }> }
const mascots = demoMascots()
const alphaAt = (frame: Uint8Array, x: number, y: number) => frame[(y * 320 + x) * 4 + 3]!

describe('demoMascots', () => {
  it('has at least a dozen mascots with unique slugs and names and real descriptions', () => {
    expect(mascots.length).toBeGreaterThanOrEqual(12)
    expect(new Set(mascots.map((m) => m.slug)).size).toBe(mascots.length)
    expect(new Set(mascots.map((m) => m.name)).size).toBe(mascots.length)
    for (const m of mascots) {
      expect(m.slug).toMatch(/^[a-z]+(-[a-z]+)*$/)
      expect(m.name).toMatch(/ Wumpus$/)
      expect(m.description.length).toBeGreaterThanOrEqual(10)
    }
  })

  it("keeps every mascot within the Lottie inspector's limits (complexity caps included)", () => {
    for (const m of mascots) expect(inspectLottie(lottieBytes(m.lottie)).format).toBe('lottie')
  })

  it('tags every mascot with a few valid tags, several of them shared, as chips to browse by', () => {
    for (const m of mascots) {
      expect(tagsSchema.parse(m.tags)).toEqual(m.tags)
      expect(m.tags.length).toBeGreaterThanOrEqual(2)
      expect(m.tags.length).toBeLessThanOrEqual(4)
    }
    const uses = new Map<string, number>()
    for (const tag of mascots.flatMap((m) => m.tags)) uses.set(tag, (uses.get(tag) ?? 0) + 1)
    expect([...uses.values()].filter((count) => count > 1).length).toBeGreaterThanOrEqual(6)
  })

  it.each(mascots.map((m) => [m.slug, m.lottie as Lottie] as const))('%s is a 320x320 Lottie of 1.5 to 3 s', (_slug, lottie) => {
    expect(typeof lottie.v).toBe('string')
    expect(lottie).toMatchObject({ ip: 0, w: 320, h: 320 })
    expect(lottie.fr).toBeGreaterThan(0)
    const seconds = (lottie.op - lottie.ip) / lottie.fr
    expect(seconds).toBeGreaterThanOrEqual(1.5)
    expect(seconds).toBeLessThanOrEqual(3)
    expect(lottie.layers.length).toBeGreaterThan(5)
  })

  it.each(mascots.map((m) => [m.slug, m.lottie as Lottie] as const))(
    '%s draws a body on a clear background and loops seamlessly',
    async (_slug, lottie) => {
      // Play on to twice the length and grab frames 0 and op: a seamless loop makes them match.
      const twice = { ...lottie, op: lottie.op * 2, layers: lottie.layers.map((l) => ({ ...l, op: lottie.op * 2 })) }
      const { frames } = await renderLottie(twice, { fps: lottie.fr / lottie.op })
      expect(frames).toHaveLength(2)
      const [first, looped] = frames as [Uint8Array, Uint8Array]
      expect(alphaAt(first, 160, 200)).toBe(255) // the belly
      for (const [x, y] of [
        [0, 0],
        [319, 0],
        [0, 319],
        [319, 319],
      ] as const)
        expect(alphaAt(first, x, y)).toBe(0)
      let diff = 0
      for (let i = 0; i < first.length; i++) diff += Math.abs(first[i]! - looped[i]!)
      expect(diff / first.length).toBeLessThan(0.01)
    },
  )
})

describe('renderDemoSet', () => {
  it('returns the three files of every mascot, named after its slug', async () => {
    const set = await renderDemoSet()
    expect(set.map((d) => d.slug)).toEqual(mascots.map((m) => m.slug))
    for (const [i, d] of set.entries()) {
      const m = mascots[i]!
      expect(d).toMatchObject({ name: m.name, description: m.description })
      expect(d.files.gif.filename).toBe(`${m.slug}.gif`)
      expect(d.files.apng.filename).toBe(`${m.slug}.png`)
      expect(d.files.lottie.filename).toBe(`${m.slug}.json`)
      expect(new TextDecoder().decode(d.files.gif.bytes)).toBe(`gif:${m.name}`)
      expect(new TextDecoder().decode(d.files.apng.bytes)).toBe(`apng:${m.name}`)
      const parsed = JSON.parse(new TextDecoder().decode(d.files.lottie.bytes)) as Lottie
      expect(parsed).toMatchObject({ v: (m.lottie as Lottie).v, op: (m.lottie as Lottie).op, nm: m.name })
    }
  })
})

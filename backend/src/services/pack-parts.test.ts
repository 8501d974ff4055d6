import { describe, expect, it } from 'vitest'
import { PLATFORMS, type Platform } from '../../../contract/stickers'
import { listInWords, partsInWords } from '../../../contract/pack-parts'
import { balanced, splitNotes, splitPack, type PackSplit } from './pack-parts'

/** Stickers named by position ("s1"...), stills named "still1"...: their kind is in their name. */
type Sticker = string
const animated = (count: number, from = 1): Sticker[] => Array.from({ length: count }, (_, i) => `s${from + i}`)
const stills = (count: number, from = 1): Sticker[] => Array.from({ length: count }, (_, i) => `still${from + i}`)
const isStill = (sticker: Sticker) => sticker.startsWith('still')
const split = (platform: Platform, items: Sticker[]) => splitPack(platform, items, isStill)
const sizes = (result: PackSplit<Sticker>) => result.parts.map((part) => part.items.length)
const notes = (platform: Platform, items: Sticker[], label: string) => splitNotes(platform, split(platform, items), (s) => s, label)

describe('balanced', () => {
  it('cuts a total into even sizes, larger first', () => {
    expect(balanced(31, 2)).toEqual([16, 15])
    expect(balanced(61, 3)).toEqual([21, 20, 20])
    expect(balanced(60, 2)).toEqual([30, 30])
    expect(balanced(7, 1)).toEqual([7])
  })
})

describe('splitPack: WhatsApp, 3 to 30 per pack, never still and animated together', () => {
  const cases: [number, number[], number][] = [
    // stickers, part sizes, left out
    [0, [], 0],
    [1, [], 1],
    [2, [], 2],
    [3, [3], 0],
    [30, [30], 0],
    [31, [16, 15], 0],
    [60, [30, 30], 0],
    [61, [21, 20, 20], 0],
    [200, [29, 29, 29, 29, 28, 28, 28], 0],
  ]
  for (const [count, parts, left] of cases) {
    it(`${count} animated -> ${parts.join(' + ') || 'no pack'}${left ? `, ${left} left out` : ''}`, () => {
      const result = split('whatsapp', animated(count))
      expect(sizes(result)).toEqual(parts)
      expect(result.leftOut).toHaveLength(left)
      expect(result.parts.every((part) => !part.still)).toBe(true)
      // Every sticker once, in pack order.
      expect([...result.parts.flatMap((part) => part.items), ...result.leftOut]).toEqual(animated(count))
    })
  }

  it('puts stills in packs of their own, after the animated ones, each group balanced', () => {
    const items = [...animated(20), ...stills(2), ...animated(15, 21), ...stills(3, 3)]
    const result = split('whatsapp', items)
    expect(result.parts.map((part) => [part.items.length, part.still])).toEqual([
      [18, false],
      [17, false],
      [5, true],
    ])
    expect(result.parts[0]!.items).toEqual(animated(18))
    expect(result.parts[1]!.items).toEqual([...animated(2, 19), ...animated(15, 21)])
    expect(result.parts[2]!.items).toEqual(stills(5))
    expect(result.leftOut).toEqual([])
  })

  it('leaves out a group too small for a pack of its own (2 stills beside 30 animated)', () => {
    const items = [...stills(1), ...animated(30), ...stills(1, 2)]
    const result = split('whatsapp', items)
    expect(sizes(result)).toEqual([30])
    expect(result.leftOut).toEqual(['still1', 'still2'])
    const stillOnly = split('whatsapp', [...animated(2), ...stills(4)])
    expect(stillOnly.parts.map((part) => [part.items.length, part.still])).toEqual([[4, true]])
    expect(stillOnly.leftOut).toEqual(animated(2))
    // Two of each: no pack at all.
    expect(split('whatsapp', [...animated(2), ...stills(2)])).toEqual({ parts: [], leftOut: [...animated(2), ...stills(2)] })
  })

  it('says how the pack is split and names what is left out', () => {
    expect(notes('whatsapp', animated(30), 'WhatsApp')).toEqual([])
    expect(notes('whatsapp', animated(85), 'WhatsApp')).toEqual([
      'WhatsApp takes at most 30 stickers per pack: this pack comes as 3 packs of 29, 28 and 28.',
    ])
    expect(notes('whatsapp', stills(31), 'WhatsApp')).toEqual([
      'WhatsApp takes at most 30 stickers per pack: this pack comes as 2 packs of 16 and 15 still stickers.',
    ])
    expect(notes('whatsapp', [...animated(31), ...stills(4)], 'WhatsApp')).toEqual([
      'WhatsApp keeps still and animated stickers in separate packs of at most 30: this pack comes as 3 packs of 16 animated, 15 animated and 4 still stickers.',
    ])
    expect(notes('whatsapp', [...animated(20), ...stills(1)], 'WhatsApp')).toEqual([
      '1 still sticker is left out, as WhatsApp packs need at least 3 and never mix still and animated: “still1”.',
    ])
    expect(notes('whatsapp', [...animated(2), ...stills(5)], 'WhatsApp')).toEqual([
      '2 animated stickers are left out, as WhatsApp packs need at least 3 and never mix still and animated: “s1” and “s2”.',
    ])
  })
})

describe('splitPack: LINE sets of 8, 16 or 24, the rest left out', () => {
  const cases: [number, number[], number][] = [
    [0, [], 0],
    [1, [], 1],
    [7, [], 7],
    [8, [8], 0],
    [12, [8], 4],
    [24, [24], 0],
    [30, [24], 6],
    [31, [24], 7],
    [32, [16, 16], 0],
    [40, [24, 16], 0],
    [60, [24, 16, 16], 4],
    [61, [24, 16, 16], 5],
    [200, [24, 24, 24, 24, 24, 24, 24, 16, 16], 0],
  ]
  for (const [count, parts, left] of cases) {
    it(`${count} -> ${parts.join(' + ') || 'no set'}${left ? `, ${left} left out` : ''}`, () => {
      const result = split('line', animated(count))
      expect(sizes(result)).toEqual(parts)
      expect(result.leftOut).toEqual(animated(count).slice(count - left))
      expect([...result.parts.flatMap((part) => part.items), ...result.leftOut]).toEqual(animated(count))
    })
  }

  it('holds the most stickers in the fewest sets for every pack size', () => {
    for (let count = 1; count <= 200; count++) {
      const result = split('line', animated(count))
      for (const size of sizes(result)) expect([8, 16, 24]).toContain(size)
      expect(result.leftOut.length).toBe(count % 8)
      expect(result.parts.length).toBe(Math.ceil(Math.floor(count / 8) / 3))
    }
  })

  it('says how the pack is split and names what is left out', () => {
    expect(notes('line', animated(24), 'LINE')).toEqual([])
    expect(notes('line', animated(30), 'LINE')).toEqual([
      'LINE sets have 8, 16 or 24 stickers: this ZIP is a set of 24.',
      '6 stickers are left out, past the last set: “s25”, “s26”, “s27”, “s28”, “s29” and “s30”.',
    ])
    expect(notes('line', animated(40), 'LINE')).toEqual(['LINE sets have 8, 16 or 24 stickers: this pack comes as 2 sets of 24 and 16.'])
  })
})

describe('splitPack: Telegram 120 (custom emoji 200), Signal 200', () => {
  const cases: [Platform, number, number[]][] = [
    ['telegram', 0, []],
    ['telegram', 1, [1]],
    ['telegram', 120, [120]],
    ['telegram', 121, [61, 60]],
    ['telegram', 200, [100, 100]],
    ['telegram-emoji', 200, [200]],
    ['telegram-emoji', 201, [101, 100]],
    ['signal', 200, [200]],
    ['signal', 201, [101, 100]],
  ]
  for (const [platform, count, parts] of cases) {
    it(`${platform}: ${count} -> ${parts.join(' + ') || 'nothing'}`, () => {
      const result = split(platform, animated(count))
      expect(sizes(result)).toEqual(parts)
      expect(result.leftOut).toEqual([])
    })
  }

  it('mixes stills and animated stickers (their sets take both) and says how it is split', () => {
    const result = split('telegram', [...stills(2), ...animated(3)])
    expect(result.parts.map((part) => [part.items.length, part.still])).toEqual([[5, false]])
    expect(split('signal', stills(2)).parts[0]!.still).toBe(true)
    expect(notes('telegram', animated(121), 'Telegram')).toEqual([
      'Telegram sets hold at most 120 animated stickers: this pack comes as 2 sets of 61 and 60.',
    ])
    expect(notes('telegram-emoji', animated(201), 'Telegram emoji')).toEqual([
      'Telegram emoji sets hold at most 200 custom emoji: this pack comes as 2 sets of 101 and 100.',
    ])
    expect(notes('signal', animated(201), 'Signal')).toEqual([
      'Signal packs hold at most 200 stickers: this pack comes as 2 packs of 101 and 100.',
    ])
  })
})

describe('splitPack: Discord, Discord emoji and Slack have no packs', () => {
  for (const platform of ['discord', 'discord-emoji', 'slack'] as const) {
    it(`${platform}: one ZIP whatever the size`, () => {
      expect(sizes(split(platform, [...animated(200), ...stills(2)]))).toEqual([202])
      expect(split(platform, [])).toEqual({ parts: [], leftOut: [] })
      expect(notes(platform, animated(200), platform)).toEqual([])
    })
  }

  it('covers every platform', () => {
    for (const platform of PLATFORMS) expect(split(platform, animated(3)).parts.length, platform).toBe(platform === 'line' ? 0 : 1)
  })
})

describe('listInWords', () => {
  it('joins with commas and a final "and"', () => {
    expect(listInWords([])).toBe('')
    expect(listInWords([30])).toBe('30')
    expect(listInWords([30, 25])).toBe('30 and 25')
    expect(listInWords([30, 30, 25])).toBe('30, 30 and 25')
    expect(listInWords([8, 16, 24], 'or')).toBe('8, 16 or 24')
  })
})

describe('partsInWords', () => {
  it('names the parts as each app calls its packs', () => {
    expect(partsInWords('whatsapp', 3)).toBe('3 WhatsApp packs')
    expect(partsInWords('line', 1)).toBe('one LINE set')
    expect(partsInWords('telegram-emoji', 2)).toBe('2 Telegram emoji sets')
    expect(partsInWords('slack', 1)).toBe('one ZIP')
  })
})

import { describe, expect, it } from 'vitest'
import {
  emojiName,
  emojiSlots,
  EXPRESSIONS_PERMISSIONS,
  noSlotReason,
  splitBySlots,
  stickerName,
  stickerSlots,
  stickerTags,
  isDiscordEmojiName,
  uniqueNames,
} from './discord-rules'

describe('Discord names', () => {
  it('keep a sticker name of 2-30 characters, trimmed, cut at a word, never half an emoji', () => {
    expect(stickerName('  Waving   Wumpus ')).toBe('Waving Wumpus')
    expect(stickerName('A wumpus who waves at everyone in the channel')).toBe('A wumpus who waves at')
    expect(stickerName('x')).toBe('Wumpus')
    const emoji = stickerName('🎉'.repeat(40))
    expect([...emoji]).toHaveLength(30)
    expect(emoji).toBe('🎉'.repeat(30))
  })

  it('make an emoji name of 2-32 letters, digits and _', () => {
    expect(emojiName('Waving Wumpus!')).toBe('Waving_Wumpus')
    expect(emojiName('Crème brûlée')).toBe('Creme_brulee')
    expect(emojiName('🎉')).toBe('emoji')
    expect(emojiName('a')).toBe('a_emoji')
    expect(emojiName('x'.repeat(31) + ' y z')).toBe('x'.repeat(31))
    for (const name of ['Waving Wumpus!', 'x'.repeat(50), '??', 'a b c']) expect(emojiName(name)).toMatch(/^[A-Za-z0-9_]{2,32}$/)
  })

  it('tell repeats apart without case, within the length, and past names already taken', () => {
    expect(uniqueNames(['Wave', 'wave', 'WAVE', 'Dance'], 'sticker')).toEqual(['Wave', 'wave 2', 'WAVE 3', 'Dance'])
    const long = 'y'.repeat(30)
    expect(uniqueNames([long, long], 'sticker')).toEqual([long, `${'y'.repeat(28)} 2`])
    expect(uniqueNames(['wave', 'wave'], 'emoji', ['WAVE'])).toEqual(['wave_2', 'wave_3'])
    expect(uniqueNames(['x'.repeat(32), 'x'.repeat(32)], 'emoji')[1]).toBe(`${'x'.repeat(30)}_2`)
  })

  it('tag a sticker with the Discord name of its first emoji Discord knows, or 🙂’s', () => {
    const wave = { char: '👋', name: 'waving hand' }
    expect(stickerTags({ emoji: [wave, { char: '🎉', name: 'party popper' }] })).toBe('wave')
    expect(
      stickerTags({
        emoji: [
          { char: 'x', name: 'not an emoji' },
          { char: '👍', name: 'thumbs up' },
        ],
      }),
    ).toBe('thumbsup')
    expect(stickerTags({ emoji: [] })).toBe('slight_smile')
    expect(isDiscordEmojiName('wave')).toBe(true)
    expect(isDiscordEmojiName('slight_smile')).toBe(true)
    expect(isDiscordEmojiName('waving_hand')).toBe(false)
  })
})

describe('Discord slots', () => {
  it('follow the boost tier', () => {
    expect([0, 1, 2, 3].map(stickerSlots)).toEqual([5, 15, 30, 60])
    expect([0, 1, 2, 3].map(emojiSlots)).toEqual([50, 100, 150, 250])
    expect(stickerSlots(7)).toBe(60)
    expect(stickerSlots(-1)).toBe(5)
  })

  it('split a pack into what fits, in order, and the rest', () => {
    const pack = Array.from({ length: 30 }, (_, i) => i)
    expect(splitBySlots(pack, 5)).toEqual({ fit: [0, 1, 2, 3, 4], rest: pack.slice(5) })
    expect(splitBySlots(pack, 0).fit).toEqual([])
    expect(splitBySlots(pack, -2).rest).toHaveLength(30)
    expect(splitBySlots(pack.slice(0, 3), 60)).toEqual({ fit: [0, 1, 2], rest: [] })
    expect(noSlotReason('sticker', 5, 5, 0)).toBe('No sticker slot left: the server holds 5 of 5 (boost level 0)')
  })

  it('ask for Create and Manage Expressions', () => {
    expect(EXPRESSIONS_PERMISSIONS).toBe(String(2 ** 43 + 2 ** 30))
  })
})

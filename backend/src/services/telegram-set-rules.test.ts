import { describe, expect, it } from 'vitest'
import {
  CREATE_MAX,
  EMOJI_SET_MAX,
  isSetName,
  SET_MAX,
  SET_NAME_MAX,
  setName,
  setTitle,
  setUrl,
  splitForCreate,
  stickerEmoji,
  stickerKeywords,
} from './telegram-set-rules'

const ID = '65f0a1b2c3d4e5f60718293a'

describe('Telegram set names', () => {
  it('are the pack’s name in letters and digits, its id and the bot’s suffix', () => {
    const name = setName({ id: ID, name: 'Wumpus — Friends & Co. 2' }, 'WumpusGalleryBot')
    expect(name).toBe(`Wumpus_Friends_Co_2_${ID}_by_WumpusGalleryBot`)
    expect(isSetName(name, 'wumpusgallerybot')).toBe(true)
  })

  it('start with a letter, never hold two underscores in a row, and fit in 64 characters', () => {
    const bots = ['abcdebot', 'WumpusGalleryBot', 'a'.repeat(29) + 'bot']
    const names = ['2024 — the year', '___', 'Émoji façade', '日本語のパック', '  a  b  ', 'x'.repeat(200), '9 lives']
    for (const bot of bots) {
      for (const packName of names) {
        const name = setName({ id: ID, name: packName }, bot)
        expect(name.length, name).toBeLessThanOrEqual(SET_NAME_MAX)
        expect(name, name).toMatch(/^[A-Za-z]/)
        expect(name, name).not.toContain('__')
        expect(name.endsWith(`_${ID}_by_${bot}`), name).toBe(true)
        expect(isSetName(name, bot), name).toBe(true)
      }
    }
    expect(setName({ id: ID, name: '日本語のパック' }, 'abcdebot')).toBe(`pack_${ID}_by_abcdebot`)
    expect(setName({ id: ID, name: 'Émoji façade' }, 'abcdebot')).toBe(`Emoji_facade_${ID}_by_abcdebot`)
    expect(setName({ id: ID, name: '2024 — the year' }, 'abcdebot')).toBe(`the_year_${ID}_by_abcdebot`)
  })

  it('are checked as Telegram checks them', () => {
    expect(isSetName(`a_${ID}_by_bot`, 'BOT')).toBe(true)
    expect(isSetName(`1a_by_bot`, 'bot')).toBe(false)
    expect(isSetName(`a__b_by_bot`, 'bot')).toBe(false)
    expect(isSetName(`a-b_by_bot`, 'bot')).toBe(false)
    expect(isSetName(`ab_by_other`, 'bot')).toBe(false)
    expect(isSetName(`${'a'.repeat(58)}_by_bot`, 'bot')).toBe(false)
    expect(isSetName(`${'a'.repeat(57)}_by_bot`, 'bot')).toBe(true)
  })

  it('open in Telegram at t.me/addstickers, a custom emoji set at t.me/addemoji', () => {
    expect(setUrl('a_by_bot')).toBe('https://t.me/addstickers/a_by_bot')
    expect(setUrl('a_e_by_bot', 'emoji')).toBe('https://t.me/addemoji/a_e_by_bot')
  })

  it('of a custom emoji set differ from the sticker set’s, by the same rules', () => {
    expect(setName({ id: ID, name: 'Wumpus' }, 'WumpusGalleryBot', 'emoji')).toBe(`Wumpus_${ID}_e_by_WumpusGalleryBot`)
    for (const bot of ['abcdebot', 'a'.repeat(29) + 'bot']) {
      for (const packName of ['x'.repeat(200), '日本語', '2024 — the year']) {
        const name = setName({ id: ID, name: packName }, bot, 'emoji')
        expect(name).not.toBe(setName({ id: ID, name: packName }, bot))
        expect(name.endsWith(`_${ID}_e_by_${bot}`), name).toBe(true)
        expect(isSetName(name, bot), name).toBe(true)
      }
    }
  })
})

describe('Telegram set titles', () => {
  it('are the pack’s name, cut to 64 characters whole', () => {
    expect(setTitle({ name: ' Friends ' })).toBe('Friends')
    const long = setTitle({ name: '🐉'.repeat(70) })
    expect([...long]).toHaveLength(64)
    expect(long.endsWith('…')).toBe(true)
    expect(setTitle({ name: '' })).toBe('Stickers')
  })
})

describe('Telegram stickers’ emoji and keywords', () => {
  it('are 1-20 emoji, the fallback when none', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ char: String.fromCodePoint(0x1f600 + i), name: `e${i}` }))
    expect(stickerEmoji({ emoji: many })).toHaveLength(20)
    expect(stickerEmoji({ emoji: [] })).toEqual(['🙂'])
  })

  it('are at most 20 keywords of at most 64 characters together', () => {
    expect(stickerKeywords({ keywords: Array.from({ length: 30 }, (_, i) => `k${i}`) })).toHaveLength(20)
    const kept = stickerKeywords({ keywords: ['a'.repeat(40), 'b'.repeat(30), 'c'.repeat(24), 'd'] })
    expect(kept).toEqual(['a'.repeat(40), 'c'.repeat(24)])
    expect(kept.join('').length).toBeLessThanOrEqual(64)
  })
})

describe('splitting a pack for a new set', () => {
  it('sends the first 50 with the create and adds the rest, up to 120', () => {
    const stickers = Array.from({ length: 130 }, (_, i) => i)
    const { create, add, left } = splitForCreate(stickers)
    expect(create).toEqual(stickers.slice(0, CREATE_MAX))
    expect(add).toEqual(stickers.slice(50, SET_MAX))
    expect(left).toEqual(stickers.slice(120))
    expect(splitForCreate([1, 2, 3])).toEqual({ create: [1, 2, 3], add: [], left: [] })
    expect(splitForCreate(Array.from({ length: 50 }, (_, i) => i)).add).toEqual([])
  })

  it('keeps up to 200 for a custom emoji set', () => {
    const stickers = Array.from({ length: 230 }, (_, i) => i)
    const { create, add, left } = splitForCreate(stickers, 'emoji')
    expect(create).toEqual(stickers.slice(0, CREATE_MAX))
    expect(add).toEqual(stickers.slice(50, EMOJI_SET_MAX))
    expect(left).toEqual(stickers.slice(200))
  })
})

import { describe, expect, it } from 'vitest'
import { emojiIn, matchScore, normalizeTag, normalizeText, queryWords, searchItems, tagProblem, wordsOf } from './search'

describe('normalizing text', () => {
  it('ignores case and accents, composed or not', () => {
    expect(normalizeText('Café CRÈME Über Piñata')).toBe('cafe creme uber pinata')
    expect(normalizeText('Cafe\u0301')).toBe('cafe')
  })

  it('splits words on anything but letters and digits, in any script', () => {
    expect(wordsOf('A dozy wumpus: little z’s float-away, 2x!')).toEqual(['a', 'dozy', 'wumpus', 'little', 'z', 's', 'float', 'away', '2x'])
    expect(wordsOf('Привет, мир')).toEqual(['привет', 'мир'])
  })

  it('takes a query apart into distinct words, a few at most', () => {
    expect(queryWords('  Moon moon MOÓN  night ')).toEqual(['moon', 'night'])
    expect(queryWords(' !? ')).toEqual([])
    expect(queryWords(undefined)).toEqual([])
    expect(queryWords('a b c d e f g h i j')).toHaveLength(8)
  })

  it('takes emoji out of a query whole, without skin tones or variation selectors, beside the words', () => {
    expect(queryWords('hi👋🏽 there')).toEqual(['👋', 'hi', 'there'])
    expect(queryWords('❤️❤ 1️⃣ 🇫🇷')).toEqual(['❤', '1\u20E3', '🇫🇷'])
    expect(queryWords('👩‍👩‍👧 family')).toEqual(['👩‍👩‍👧', 'family'])
    expect(emojiIn('a😵‍💫b🏴󠁧󠁢󠁳󠁣󠁴󠁿c')).toEqual(['😵‍💫', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'])
  })
})

describe('tags', () => {
  it('normalize as typed and say what is wrong', () => {
    expect(normalizeTag(' Thumbs  Up ')).toBe('thumbs-up')
    expect(normalizeTag('Café')).toBe('cafe')
    expect(tagProblem('thumbs-up')).toBeUndefined()
    expect(tagProblem('x')).toBe('A tag has at least 2 characters')
    expect(tagProblem('a'.repeat(25))).toBe('A tag has at most 24 characters')
    for (const bad of ['snake_case', '-lead', 'trail-', 'double--dash', 'привет'])
      expect(tagProblem(bad), bad).toBe('Tags are lower-case words: letters a-z, digits and hyphens')
  })
})

describe('matchScore', () => {
  const item = { name: 'Moon Wumpus', description: 'Glows in the moonlight', tags: ['night-sky'] }

  it('weighs the name over tags over the description, whole words over prefixes, and adds up the words', () => {
    expect(matchScore(['moon'], item)).toBe(2 * 3 + 1) // whole word in the name, prefix in the description
    expect(matchScore(['sky'], item)).toBe(2 * 2)
    expect(matchScore(['glo'], item)).toBe(1)
    expect(matchScore(['moon', 'sky'], item)).toBe(7 + 4)
  })

  it('is 0 when any word matches nowhere, or only inside a word', () => {
    expect(matchScore(['moon', 'zebra'], item)).toBe(0)
    expect(matchScore(['oon'], item)).toBe(0)
  })

  it('matches a one-character word only as a whole word', () => {
    expect(matchScore(['m'], item)).toBe(0)
    expect(matchScore(['mo'], item)).toBe(3 + 1)
    expect(matchScore(['z'], { name: 'Catching z’s', description: '' })).toBe(6)
    expect(matchScore(['𝒽'], { name: '𝒽𝒾 Wumpus', description: '' })).toBe(0)
  })

  it('counts keywords and emoji (each itself, its name and shortcode) like tags', () => {
    const waving = { ...item, keywords: ['good night'], emoji: [{ char: '👋', name: 'waving hand', shortcode: 'wave' }] }
    for (const word of ['👋', 'wave', 'waving', 'hand', 'good', 'night']) expect(matchScore([word], waving), word).toBe(2 * 2)
    expect(matchScore(['wav'], waving)).toBe(2)
    // An emoji is matched whole: no prefix of another.
    expect(matchScore(['👩'], { name: 'Family', description: '', emoji: [{ char: '👩‍👩‍👧', name: 'family' }] })).toBe(0)
  })

  it('reads items without tags', () => {
    expect(matchScore(['wumpus'], { name: 'Old Wumpus', description: 'From before tags' })).toBe(6)
  })
})

describe('searchItems', () => {
  const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString()
  const items = [
    { _id: 'a', name: 'Moon Wumpus', description: 'Round', tags: ['night'], downloads: 1, createdAt: at(1) },
    { _id: 'b', name: 'Sun Wumpus', description: 'Moonless day', tags: [], downloads: 5, createdAt: at(2) },
    { _id: 'c', name: 'Star Wumpus', description: 'Night sky', tags: ['night'], downloads: 5, createdAt: at(3) },
    { _id: 'd', name: 'Old Wumpus', description: 'Stored before tags and counts' },
  ]
  const ids = (found: Array<{ _id: string }>) => found.map((item) => item._id)

  it('orders like the server: best match, newest, or most downloaded first, newer first on ties', () => {
    expect(ids(searchItems(items, { q: 'moon' }))).toEqual(['a', 'b'])
    expect(ids(searchItems(items, { q: 'moon', sort: 'new' }))).toEqual(['b', 'a'])
    expect(ids(searchItems(items, {}))).toEqual(['c', 'b', 'a', 'd'])
    expect(ids(searchItems(items, { sort: 'popular' }))).toEqual(['c', 'b', 'a', 'd'])
    expect(ids(searchItems(items, { tag: 'night', sort: 'popular' }))).toEqual(['c', 'a'])
    expect(ids(searchItems(items, { q: 'wumpus', tag: 'night' }))).toEqual(['c', 'a'])
    expect(searchItems(items, { q: 'zebra' })).toEqual([])
  })

  it('finds an emoji pasted with a skin tone, and by its name', () => {
    const waving = { _id: 'w', name: 'Waving', description: 'Hello', emoji: [{ char: '👋', name: 'waving hand', shortcode: 'wave' }] }
    expect(ids(searchItems([...items, waving], { q: '👋🏽' }))).toEqual(['w'])
    expect(ids(searchItems([...items, waving], { q: 'wave' }))).toEqual(['w'])
    expect(searchItems(items, { q: '👋' })).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { makeWumpus } from '../../test/fixtures'
import { editWumpusValues, validateEdit, wumpusChanges } from './wumpus-changes'

const wumpus = makeWumpus(1, { name: 'Old name', description: 'An old description' })

describe('wumpusChanges', () => {
  it('is empty when nothing changed, or a field was emptied (it falls back)', () => {
    expect(wumpusChanges(wumpus, editWumpusValues(wumpus))).toEqual({})
    expect(
      wumpusChanges(wumpus, { name: '  ', description: '', lottieLink: '', tags: [], emoji: [], keywords: [], sensitive: false }),
    ).toEqual({})
  })

  it('sends the sensitive flag only when it was switched', () => {
    expect(wumpusChanges(wumpus, { ...editWumpusValues(wumpus), sensitive: true })).toEqual({ sensitive: true })
    const sensitive = makeWumpus(2, { sensitive: true })
    expect(editWumpusValues(sensitive).sensitive).toBe(true)
    expect(wumpusChanges(sensitive, { ...editWumpusValues(sensitive), sensitive: false })).toEqual({ sensitive: false })
  })

  it('keeps only changed text and newly uploaded files', () => {
    const values = { ...editWumpusValues(wumpus), name: ' New name ' }
    expect(wumpusChanges(wumpus, values, { gif: 'a'.repeat(24), apng: '' })).toEqual({
      name: 'New name',
      files: { gif: 'a'.repeat(24) },
    })
  })
})

describe('tags', () => {
  const tagged = makeWumpus(3, { tags: ['happy', 'wave'] })

  it('sends the whole new list when the tags changed, an empty one to remove them, nothing when not', () => {
    expect(editWumpusValues(tagged).tags).toEqual(['happy', 'wave'])
    expect(wumpusChanges(tagged, editWumpusValues(tagged))).toEqual({})
    expect(wumpusChanges(tagged, { ...editWumpusValues(tagged), tags: ['happy'] })).toEqual({ tags: ['happy'] })
    expect(wumpusChanges(tagged, { ...editWumpusValues(tagged), tags: [] })).toEqual({ tags: [] })
    expect(wumpusChanges(tagged, { ...editWumpusValues(tagged), tags: ['wave', 'happy'] })).toEqual({ tags: ['wave', 'happy'] })
  })

  it('checks new tags with the contract rules', () => {
    const errors = validateEdit(tagged, { ...editWumpusValues(tagged), tags: ['happy', 'x'] })
    expect(Object.entries(errors)).toEqual([['tags.1', 'A tag has at least 2 characters']])
    const many = Array.from({ length: 9 }, (_, i) => `tag${i}`)
    expect(Object.values(validateEdit(tagged, { ...editWumpusValues(tagged), tags: many }))).toEqual(['At most 8 tags'])
  })
})

describe('emoji and keywords', () => {
  const waving = makeWumpus(4, { emoji: [{ char: '👋', name: 'waving hand', shortcode: 'wave' }], keywords: ['hi'] })

  it("start as the animation's own and are sent whole when they changed", () => {
    expect(editWumpusValues(waving)).toMatchObject({ emoji: ['👋'], keywords: ['hi'] })
    expect(wumpusChanges(waving, editWumpusValues(waving))).toEqual({})
    expect(wumpusChanges(waving, { ...editWumpusValues(waving), emoji: ['🎉', '👋'], keywords: [] })).toEqual({
      emoji: ['🎉', '👋'],
      keywords: [],
    })
  })

  it('are checked with the contract rules', () => {
    expect(validateEdit(waving, { ...editWumpusValues(waving), emoji: ['👋', 'x'] })).toEqual({ 'emoji.1': 'Not an emoji: x' })
    expect(validateEdit(waving, { ...editWumpusValues(waving), keywords: ['a'.repeat(65)] })).toEqual({
      keywords: 'Keywords have at most 64 characters in all',
    })
  })
})

describe('validateEdit', () => {
  it('checks changed fields with the add form rules and a new link as a URL', () => {
    expect(
      validateEdit(wumpus, {
        name: 'ab',
        description: 'short',
        lottieLink: 'not a link',
        tags: [],
        emoji: [],
        keywords: [],
        sensitive: false,
      }),
    ).toEqual({
      name: 'Name should be at least 3 characters',
      description: 'Description should be at least 10 characters',
      lottieLink: 'Enter a valid URL',
    })
    expect(
      validateEdit(wumpus, {
        name: '',
        description: '',
        lottieLink: 'https://example.com/a.json',
        tags: [],
        emoji: [],
        keywords: [],
        sensitive: false,
      }),
    ).toEqual({})
  })

  it('does not block on an unchanged old value the rules would refuse', () => {
    const legacy = makeWumpus(2, { name: 'Wumpus-2!' })
    expect(validateEdit(legacy, editWumpusValues(legacy))).toEqual({})
  })
})

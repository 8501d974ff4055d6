import { describe, expect, it } from 'vitest'
import { makeWumpus } from '../../test/fixtures'
import { editWumpusValues, validateEdit, wumpusChanges } from './wumpus-changes'

const wumpus = makeWumpus(1, { name: 'Old name', description: 'An old description' })

describe('wumpusChanges', () => {
  it('is empty when nothing changed, or a field was emptied (it falls back)', () => {
    expect(wumpusChanges(wumpus, editWumpusValues(wumpus))).toEqual({})
    expect(wumpusChanges(wumpus, { name: '  ', description: '', lottieLink: '', tags: [] })).toEqual({})
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

describe('validateEdit', () => {
  it('checks changed fields with the add form rules and a new link as a URL', () => {
    expect(validateEdit(wumpus, { name: 'ab', description: 'short', lottieLink: 'not a link', tags: [] })).toEqual({
      name: 'Name should be at least 3 characters',
      description: 'Description should be at least 10 characters',
      lottieLink: 'Enter a valid URL',
    })
    expect(validateEdit(wumpus, { name: '', description: '', lottieLink: 'https://example.com/a.json', tags: [] })).toEqual({})
  })

  it('does not block on an unchanged old value the rules would refuse', () => {
    const legacy = makeWumpus(2, { name: 'Wumpus-2!' })
    expect(validateEdit(legacy, editWumpusValues(legacy))).toEqual({})
  })
})

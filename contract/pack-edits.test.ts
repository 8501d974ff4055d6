import { describe, expect, it } from 'vitest'
import { supersededMessage, supersedesFields } from './pack-edits'

describe('supersededMessage', () => {
  it('names the fields another device edited later', () => {
    expect(supersededMessage({ name: 'Night pack', superseded: ['name'] })).toBe(
      '“Night pack” was changed on another device too: its newer name was kept.',
    )
    expect(supersededMessage({ name: 'Night pack', superseded: ['name', 'wumpusIds', 'coverWumpusId'] })).toBe(
      '“Night pack” was changed on another device too: its newer name, stickers and cover were kept.',
    )
  })
})

describe('supersedesFields', () => {
  it('recognises an edit’s answer that names fields another device kept', () => {
    expect(supersedesFields({ name: 'Night pack', superseded: ['name'] })).toBe(true)
    expect(supersedesFields({ name: 'Night pack', superseded: [] })).toBe(false)
    expect(supersedesFields(undefined)).toBe(false)
    expect(supersedesFields({ superseded: ['name'] })).toBe(false)
  })
})

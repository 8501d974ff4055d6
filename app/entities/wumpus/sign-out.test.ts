import { describe, expect, it } from 'vitest'
import { isKeptOnSignOut } from '../../lib/query-client'
import { makeWumpus } from '../../test/fixtures'
import { wumpusKeys } from './api'

describe('gallery pages at sign-out', () => {
  it('keeps pages of public animations, and forgets a page with a sensitive one in it (the signed-in person chose to see it)', () => {
    const key = wumpusKeys.list({})
    const pages = (items: ReturnType<typeof makeWumpus>[]) => ({ pages: [{ items, total: items.length }], pageParams: [null] })
    expect(isKeptOnSignOut(key, pages([makeWumpus(1), makeWumpus(2)]))).toBe(true)
    expect(isKeptOnSignOut(key, pages([makeWumpus(1), makeWumpus(2, { sensitive: true })]))).toBe(false)
  })
})

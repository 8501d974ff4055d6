import { describe, expect, it } from 'vitest'
import { nextCursorFromLink } from './api'

describe('nextCursorFromLink', () => {
  it('reads the cursor of the next link', () => {
    expect(nextCursorFromLink('</api/wumpuses?limit=24&cursor=XYZ_1-a>; rel="next"')).toBe('XYZ_1-a')
  })

  it('picks rel=next among several links', () => {
    expect(
      nextCursorFromLink('</api/wumpuses?limit=24>; rel="first", </api/wumpuses?limit=24&cursor=abc>; rel=next'),
    ).toBe('abc')
  })

  it('is null without a next link', () => {
    expect(nextCursorFromLink(null)).toBeNull()
    expect(nextCursorFromLink('</api/wumpuses?limit=24>; rel="first"')).toBeNull()
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { nextCursorFromLink, pageFrom, retryOfflineCopies } from './paging'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('nextCursorFromLink', () => {
  it('reads the cursor of the next link', () => {
    expect(nextCursorFromLink('</api/wumpuses?limit=24&cursor=XYZ_1-a>; rel="next"')).toBe('XYZ_1-a')
  })

  it('picks rel=next among several links', () => {
    expect(nextCursorFromLink('</api/wumpuses?limit=24>; rel="first", </api/wumpuses?limit=24&cursor=abc>; rel=next')).toBe('abc')
  })

  it('is null without a next link', () => {
    expect(nextCursorFromLink(null)).toBeNull()
    expect(nextCursorFromLink('</api/wumpuses?limit=24>; rel="first"')).toBeNull()
  })
})

describe('retryOfflineCopies', () => {
  const page = (fromOfflineCopy: boolean) => ({ items: [], total: 0, nextCursor: null, fromOfflineCopy })
  const query = (...pages: ReturnType<typeof page>[]) => ({ state: { data: { pages } } })

  it('asks again for pages served from the offline copy once the browser is online', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true)
    expect(retryOfflineCopies(query(page(false), page(true)))).toBe(2000)
    expect(retryOfflineCopies(query(page(false)))).toBe(false)
    expect(retryOfflineCopies({ state: {} })).toBe(false)
  })

  it('does not poll while offline', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    expect(retryOfflineCopies(query(page(true)))).toBe(false)
  })
})

describe('pageFrom', () => {
  it('reads the total, the next cursor and whether the answer was an offline copy', () => {
    const headers = new Headers({ 'X-Total-Count': '30', Link: '</api/wumpuses?limit=24&cursor=abc>; rel="next"', 'X-Offline-Copy': '1' })
    expect(pageFrom([], headers)).toEqual({ items: [], total: 30, nextCursor: 'abc', fromOfflineCopy: true })
  })
})

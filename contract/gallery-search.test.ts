import { describe, expect, it } from 'vitest'
import {
  galleryFilterFrom,
  galleryFilterFromApiQuery,
  galleryFilterFromPageQuery,
  parseSearchLikeTheRouter,
  readGalleryFilter,
} from './gallery-search'
import { wumpusListQuerySchema } from './wumpus-list-query'

describe('the gallery search, read by one set of rules', () => {
  it('keeps valid values (a tag normalized) and names the keys it refuses', () => {
    expect(readGalleryFilter({ q: 'moon', tag: 'Night Sky', fits: 'slack', sort: 'popular' })).toEqual({
      filter: { q: 'moon', tag: 'night-sky', fits: 'slack', sort: 'popular' },
      refused: [],
    })
    expect(readGalleryFilter({ q: 'a'.repeat(101), tag: 'a', fits: 'myspace', sort: 'name' })).toEqual({
      filter: {},
      refused: ['q', 'tag', 'fits', 'sort'],
    })
    expect(readGalleryFilter({ q: ['a', 'b'], tag: 7 }).refused).toEqual(['q', 'tag'])
    expect(readGalleryFilter({})).toEqual({ filter: {}, refused: [] })
  })

  it('in a page URL: tidies the search, leaves out what it refuses and sets every key', () => {
    expect(galleryFilterFrom({ q: '  moon cake ', tag: 'a', fits: 'Discord', sort: 'new' })).toEqual({
      q: 'moon cake',
      tag: undefined,
      fits: undefined,
      sort: 'new',
    })
    expect(galleryFilterFrom({ q: 42 })).toEqual({ q: '42', tag: undefined, fits: undefined, sort: undefined })
    expect(galleryFilterFrom({ q: 'a'.repeat(150) }).q).toHaveLength(100)
    // An emoji is two UTF-16 units: a cut through one leaves it out whole, never half of it.
    expect(galleryFilterFrom({ q: `a${'😀'.repeat(60)}` }).q).toBe(`a${'😀'.repeat(49)}`)
    expect(galleryFilterFrom({ q: '😀'.repeat(60) }).q).toBe('😀'.repeat(50))
    expect(galleryFilterFromPageQuery('q=moon&sort=&fits=')).toEqual(galleryFilterFrom(parseSearchLikeTheRouter('q=moon&sort=&fits=')))
  })

  it.each([
    'limit=24&q=moon',
    'limit=24&q=moon&tag=night&fits=discord&sort=popular',
    'limit=24&tag=Night%20Sky',
    'limit=24&q=',
    'limit=24&cursor=abc&q=%20moon%20',
  ])('in an API query, the service worker reads what the server does: %s', (query) => {
    const server = wumpusListQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)))
    const { limit: _limit, cursor: _cursor, u_email: _email, ...filter } = server
    expect(galleryFilterFromApiQuery(new URLSearchParams(query))).toEqual(filter)
  })

  it.each([
    ['q', `q=${'a'.repeat(101)}`, 'A search has at most 100 characters'],
    ['tag', 'tag=a', 'A tag has at least 2 characters'],
    ['fits', 'fits=myspace', 'fits is one of discord, discord-emoji, telegram, telegram-emoji, whatsapp, signal, line, slack'],
    ['sort', 'sort=name', 'sort is one of new, popular'],
  ])('in an API query, the server refuses a bad %s with why', (key, query, message) => {
    const result = wumpusListQuerySchema.safeParse(Object.fromEntries(new URLSearchParams(query)))
    expect(result.success).toBe(false)
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: [key], message })])
    expect(galleryFilterFromApiQuery(new URLSearchParams(query))).toEqual({})
  })

  it('in an API query, a repeated key is refused, by the server as by the service worker', () => {
    expect(wumpusListQuerySchema.safeParse({ q: ['a', 'b'] }).success).toBe(false)
    expect(galleryFilterFromApiQuery(new URLSearchParams('q=a&q=b&sort=new'))).toEqual({ sort: 'new' })
  })
})

import { defaultParseSearch } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { parseSearchLikeTheRouter } from '../../../contract/gallery-search'
import { validateGallerySearch } from './gallery-search'

describe('the gallery search in the page URL', () => {
  // The server renders /?… from its own reading of the URL: it must ask the API for the list the app will.
  it.each([
    'q=moon',
    'q=moon&sort=&fits=',
    'q=42',
    'q=1e3',
    'q=%2242%22',
    'q=true',
    'q=null',
    'q=-moon',
    'q=[1]',
    'q={"a":1}',
    'q=%20moon%20cake',
    'q=a&q=b',
    'tag=Night&fits=slack&sort=popular',
    'sort=relevance&fits=myspace&tag=x',
    '__proto__=1&q=moon',
  ])('is read by the server as the app reads it: %s', (querystring) => {
    const parsed = parseSearchLikeTheRouter(querystring)
    expect(parsed).toEqual({ ...defaultParseSearch(`?${querystring}`) })
    expect(validateGallerySearch(parsed)).toEqual(validateGallerySearch(defaultParseSearch(`?${querystring}`)))
  })
})

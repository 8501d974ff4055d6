import { describe, expect, it } from 'vitest'
import { fileNameFromUrl } from './download'

describe('fileNameFromUrl', () => {
  it('takes the last path segment, decoded', () => {
    expect(fileNameFromUrl('/api/files/65a1b2c3d4e5f6a7b8c9d0e1/waving%20wumpus%20%231.gif')).toBe(
      'waving wumpus #1.gif',
    )
  })

  it('ignores the query string and works with absolute URLs', () => {
    expect(fileNameFromUrl('https://example.com/api/files/1/spin.json?download=1')).toBe('spin.json')
  })

  it('keeps a segment that is not valid percent-encoding as it is', () => {
    expect(fileNameFromUrl('/api/files/1/100%.png')).toBe('100%.png')
  })
})

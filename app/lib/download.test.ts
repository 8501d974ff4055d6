import { describe, expect, it } from 'vitest'
import { downloadUrl, fileNameFromUrl } from './download'

describe('fileNameFromUrl', () => {
  it('takes the last path segment, decoded', () => {
    expect(fileNameFromUrl('/api/files/65a1b2c3d4e5f6a7b8c9d0e1/waving%20wumpus%20%231.gif')).toBe('waving wumpus #1.gif')
  })

  it('ignores the query string and works with absolute URLs', () => {
    expect(fileNameFromUrl('https://example.com/api/files/1/spin.json?download=1')).toBe('spin.json')
  })

  it('keeps a segment that is not valid percent-encoding as it is', () => {
    expect(fileNameFromUrl('/api/files/1/100%.png')).toBe('100%.png')
  })
})

describe('downloadUrl', () => {
  it('asks for the file as a counted download, keeping the rest of the URL', () => {
    expect(downloadUrl('/api/files/1/waving%20wumpus.gif')).toBe('/api/files/1/waving%20wumpus.gif?download=1')
    expect(downloadUrl('/api/files/1/a.gif?download=1')).toBe('/api/files/1/a.gif?download=1')
    expect(downloadUrl('https://example.com/api/files/1/a.gif')).toBe('https://example.com/api/files/1/a.gif?download=1')
  })
})

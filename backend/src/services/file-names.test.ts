import { describe, expect, it } from 'vitest'
import { linkFileName, safeBaseName } from './file-names'

describe('safeBaseName', () => {
  it('keeps letters, digits and plain punctuation, drops paths and markup', () => {
    expect(safeBaseName('Ma photo été.jpeg')).toBe('Ma photo été')
    expect(safeBaseName('../../etc/passwd')).toBe('passwd')
    expect(safeBaseName('C:\\Users\\me\\photo.jpg')).toBe('photo')
    expect(safeBaseName('<img src=x onerror=alert(1)>.png')).toBe('img srcx onerroralert1')
    expect(safeBaseName('.hidden')).toBe('')
  })
})

describe('linkFileName', () => {
  it('names a linked file from its link, even with a malformed %-escape in it', () => {
    expect(linkFileName('https://example.com/files/my%20wumpus.json')).toBe('my wumpus.json')
    expect(linkFileName('https://example.com/files/100%.json')).toBe('100%.json')
    expect(linkFileName('https://example.com/files/%E0%A4%A.json')).toBe('%E0%A4%A.json')
  })
})

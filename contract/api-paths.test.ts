import { describe, expect, it } from 'vitest'
import { fileIdOfPath, filePath } from './api-paths'

describe('stored file URLs', () => {
  const id = '0123456789abcdef01234567'

  it('end with the file name, escaped, and a private remix file its key', () => {
    expect(filePath(id, 'Waving Wumpus.gif')).toBe(`/api/files/${id}/Waving%20Wumpus.gif`)
    expect(filePath(id, 'a.png', 'k3y')).toBe(`/api/files/${id}/a.png?key=k3y`)
  })

  it('give back their file id, with or without the name; other paths have none', () => {
    expect(fileIdOfPath(filePath(id, 'a.png', 'k3y'))).toBe(id)
    expect(fileIdOfPath(`/api/files/${id}`)).toBe(id)
    for (const other of ['/api/files/nothex', `/api/wumpus/${id}`, `https://example.com/api/files/${id}`, '']) {
      expect(fileIdOfPath(other)).toBeUndefined()
    }
  })
})

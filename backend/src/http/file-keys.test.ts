import { describe, expect, it } from 'vitest'
import { createFileKeys } from './file-keys'

describe('file keys', () => {
  const keys = createFileKeys('a secret for the tests')
  const key = keys.sign('file-1')

  it('open the file they were made for, and no other', () => {
    expect(key).toMatch(/^[\w-]{22}$/)
    expect(keys.valid('file-1', key)).toBe(true)
    expect(keys.valid('file-2', key)).toBe(false)
  })

  it('of one generation open nothing in another: keys made before generations are generation 0', () => {
    const renewed = keys.sign('file-1', 1)
    expect(keys.sign('file-1', 0)).toBe(key)
    expect(renewed).not.toBe(key)
    expect(keys.valid('file-1', key, 0)).toBe(true)
    expect(keys.valid('file-1', key, 1)).toBe(false)
    expect(keys.valid('file-1', renewed, 1)).toBe(true)
    expect(keys.valid('file-1', renewed)).toBe(false)
    expect(keys.sign('file-1', 2)).not.toBe(renewed)
  })

  it('refuse a malformed key without throwing: multi-byte characters, a wrong length, not a string', () => {
    for (const given of ['é'.repeat(22), '🐸'.repeat(11), 'A'.repeat(21), `${key}A`, '', undefined, [key, key], 22]) {
      expect(keys.valid('file-1', given)).toBe(false)
    }
  })
})

import { describe, expect, it } from 'vitest'
import type { WumpusRecord } from '../store/port'
import { createTwinIndex, mayShareFiles, sha256Hex } from './twin-files'

describe('twin index', () => {
  it('answers the latest record made from the bytes, forgetting the oldest past its size', () => {
    const twins = createTwinIndex(2)
    twins.remember('a', '1')
    twins.remember('b', '2')
    twins.remember('a', '3')
    twins.remember('c', '4')
    expect([twins.get('a'), twins.get('b'), twins.get('c')]).toEqual(['3', undefined, '4'])
  })

  it('keys bytes as the store does (hex sha256)', () => {
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})

describe('mayShareFiles', () => {
  const record = (u_email: string, visibility?: 'private' | 'link') =>
    ({ u_email, ...(visibility ? { remix: { visibility } } : {}) }) as WumpusRecord
  it('shares one’s own files, a published animation’s and a remix shared by link, never another person’s private remix', () => {
    expect(mayShareFiles(record('Me@example.com', 'private'), 'me@example.com')).toBe(true)
    expect(mayShareFiles(record('admin@example.com'), 'me@example.com')).toBe(true)
    expect(mayShareFiles(record('them@example.com', 'link'), 'me@example.com')).toBe(true)
    expect(mayShareFiles(record('them@example.com', 'private'), 'me@example.com')).toBe(false)
  })
})

import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { ownBytes } from './make-media'

/** Transfers the bytes' buffer as the worker's reply does, and answers what arrives. */
const transferred = (bytes: Uint8Array) => structuredClone(bytes, { transfer: [bytes.buffer as ArrayBuffer] })

describe('ownBytes', () => {
  it('makes bytes that can be transferred from sharp output and from the Buffer pool (Node 22+ refuses both as they are)', async () => {
    const fromSharp = await sharp({ create: { width: 4, height: 4, channels: 4, background: '#08f' } })
      .png()
      .toBuffer()
    const pooled = Buffer.from('a small pooled buffer')
    for (const bytes of [fromSharp, pooled, new Uint8Array([1, 2, 3])]) {
      const own = ownBytes(bytes)
      expect(own).not.toBeInstanceOf(Buffer)
      expect(own.buffer).not.toBe(bytes.buffer)
      expect(Array.from(transferred(own))).toEqual(Array.from(bytes))
      // Moved, not copied: the sender's copy is gone, the original is untouched.
      expect(own.byteLength).toBe(0)
      expect(bytes.byteLength).toBeGreaterThan(0)
    }
  })
})

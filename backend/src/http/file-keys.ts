// Keys in the file URLs of private remixes. Those URLs are shown only to who may see the remix (its owner
// and admins), so an <img> or a download link opens the files without a bearer token; without the key (or
// that bearer) a private remix's file is 404. A file id is never reused, so a key never opens another file.
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface FileKeys {
  sign(fileId: string): string
  valid(fileId: string, key: unknown): boolean
}

export function createFileKeys(secret: string): FileKeys {
  const sign = (fileId: string) => createHmac('sha256', secret).update('remix-file\0').update(fileId).digest('base64url').slice(0, 22)
  return {
    sign,
    valid: (fileId, key) => {
      if (typeof key !== 'string') return false
      // Compared as bytes: 22 characters can be more than 22 bytes, and timingSafeEqual throws on unequal lengths.
      const given = Buffer.from(key)
      const expected = Buffer.from(sign(fileId))
      return given.length === expected.length && timingSafeEqual(given, expected)
    },
  }
}

// Keys in the file URLs of private remixes. Those URLs are shown only to who may see the remix (its owner
// and admins), so an <img> or a download link opens the files without a bearer token; without the key (or
// that bearer) a private remix's file is 404. A file id is never reused, so a key never opens another file.
// A key is of one generation of its remix's keys (port RemixInfo.keyGeneration): a change of sharing or a
// renewal moves the generation on, and every keyed URL shown before is 404 from then on.
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface FileKeys {
  /** The key of a file in its remix's key generation (absent: 0, the keys made before generations existed). */
  sign(fileId: string, generation?: number): string
  valid(fileId: string, key: unknown, generation?: number): boolean
}

export function createFileKeys(secret: string): FileKeys {
  const sign = (fileId: string, generation = 0) => {
    const hmac = createHmac('sha256', secret).update('remix-file\0').update(fileId)
    // Generation 0 signs as keys always did, so the URLs shown before generations existed keep working.
    if (generation > 0) hmac.update(`\0${generation}`)
    return hmac.digest('base64url').slice(0, 22)
  }
  return {
    sign,
    valid: (fileId, key, generation) => {
      if (typeof key !== 'string') return false
      // Compared as bytes: 22 characters can be more than 22 bytes, and timingSafeEqual throws on unequal lengths.
      const given = Buffer.from(key)
      const expected = Buffer.from(sign(fileId, generation))
      return given.length === expected.length && timingSafeEqual(given, expected)
    },
  }
}

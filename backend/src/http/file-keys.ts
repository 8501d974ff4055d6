// Keys in the file URLs of private remixes. Those URLs are shown only to who may see the remix (its owner
// and admins), so an <img> or a download link opens the files without a bearer token; without the key (or
// that bearer) a private remix's file is 404. A file id is never reused, so a key never opens another file.
// A key is of one generation of its remix's keys (port RemixInfo.keyGeneration): a change of sharing or a
// renewal moves the generation on, and every keyed URL shown before is 404 from then on.
// Keys in a personal pack's ZIP URLs likewise: shown only to its maker and admins, a browser's plain
// download link (which carries no bearer) downloads it as they may (a private pack, its maker named).
import { createHmac, timingSafeEqual } from 'node:crypto'

export interface FileKeys {
  /** The key of a file in its remix's key generation (absent: 0, the keys made before generations existed). */
  sign(fileId: string, generation?: number): string
  valid(fileId: string, key: unknown, generation?: number): boolean
  /** The key of a personal pack's ZIP URLs, shown to its maker and admins. */
  signPack(packId: string): string
  validPack(packId: string, key: unknown): boolean
}

export function createFileKeys(secret: string): FileKeys {
  const sign = (fileId: string, generation = 0) => {
    const hmac = createHmac('sha256', secret).update('remix-file\0').update(fileId)
    // Generation 0 signs as keys always did, so the URLs shown before generations existed keep working.
    if (generation > 0) hmac.update(`\0${generation}`)
    return hmac.digest('base64url').slice(0, 22)
  }
  const signPack = (packId: string) => createHmac('sha256', secret).update('pack-zip\0').update(packId).digest('base64url').slice(0, 22)
  const same = (key: unknown, expected: string) => {
    if (typeof key !== 'string') return false
    // Compared as bytes: 22 characters can be more than 22 bytes, and timingSafeEqual throws on unequal lengths.
    const given = Buffer.from(key)
    const wanted = Buffer.from(expected)
    return given.length === wanted.length && timingSafeEqual(given, wanted)
  }
  return {
    sign,
    valid: (fileId, key, generation) => same(key, sign(fileId, generation)),
    signPack,
    validPack: (packId, key) => same(key, signPack(packId)),
  }
}

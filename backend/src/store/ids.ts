import { randomBytes } from 'node:crypto'

const ID_PATTERN = /^[0-9a-f]{24}$/

/** A new 24-hex id whose first 8 characters are the time in seconds, like an ObjectId. */
export function newId(now = Date.now()): string {
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0')
  return seconds + randomBytes(8).toString('hex')
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value)
}

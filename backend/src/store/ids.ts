import { randomBytes } from 'node:crypto'
import { InvalidCursorError } from './port'

const ID_PATTERN = /^[0-9a-f]{24}$/

/** A new 24-hex id whose first 8 characters are the time in seconds, like an ObjectId. */
export function newId(now = Date.now()): string {
  const seconds = Math.floor(now / 1000).toString(16).padStart(8, '0')
  return seconds + randomBytes(8).toString('hex')
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value)
}

/** Position in the newest-first order: createdAt desc, then _id desc. */
export interface CursorPosition {
  createdAt: Date
  _id: string
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt.getTime()}.${position._id}`).toString('base64url')
}

export function decodeCursor(cursor: string): CursorPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  const match = /^(\d{1,15})\.([0-9a-f]{24})$/.exec(text)
  if (!match) throw new InvalidCursorError()
  return { createdAt: new Date(Number(match[1])), _id: match[2]! }
}

// A remix's name: what its maker may call it, and what it is called when they give none. Apart from the
// remix API's schemas, so the sticker page's rename form does not load the animation schemas (and their emoji data).
import { z } from 'zod'

export const REMIX_NAME_MIN = 3
export const REMIX_NAME_MAX = 60
const REMIX_NAME_SUFFIX = ', your version'

/** A remix's name when its maker gives none: "Waving Wumpus, your version" (a long name is shortened to fit). */
export function defaultRemixName(original: string): string {
  const room = REMIX_NAME_MAX - REMIX_NAME_SUFFIX.length
  const name = original.trim()
  return `${name.length > room ? `${name.slice(0, room - 1).trimEnd()}…` : name}${REMIX_NAME_SUFFIX}`
}

/** A remix's name: its maker's words, in any script, with the punctuation of a title. */
export const remixNameSchema = z
  .string()
  .trim()
  .min(1, 'Give your version a name')
  .min(REMIX_NAME_MIN, `A name has at least ${REMIX_NAME_MIN} characters`)
  .max(REMIX_NAME_MAX, `A name has at most ${REMIX_NAME_MAX} characters`)
  .regex(/^[\p{L}\p{M}\p{N} .,'’!?&()_:…-]+$/u, "Use letters, digits, spaces and . , ' ! ? & ( ) - _ :")

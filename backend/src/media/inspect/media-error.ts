import { MAX_MEDIA_DIMENSION, MAX_MEDIA_FRAMES } from '../../../../contract/limits'
import { mediaErrorMessages, type MediaErrorCode } from '../../../../contract/media'

export type MediaErrorDetails = Readonly<Record<string, unknown>>

/** A file refused by an inspector. `details` says where and why, for logs and the API's error details. */
export class MediaError extends Error {
  override readonly name = 'MediaError'

  constructor(
    readonly code: MediaErrorCode,
    readonly details?: MediaErrorDetails,
  ) {
    super(mediaErrorMessages[code])
  }
}

// Shared guards the inspectors use.

export function assertDimensions(width: number, height: number): void {
  if (width > MAX_MEDIA_DIMENSION || height > MAX_MEDIA_DIMENSION) {
    throw new MediaError('TOO_LARGE', { width, height, maxDimension: MAX_MEDIA_DIMENSION })
  }
}

export function assertFrameCount(frames: number): void {
  if (frames > MAX_MEDIA_FRAMES) {
    throw new MediaError('TOO_LARGE', { frames, maxFrames: MAX_MEDIA_FRAMES })
  }
}

/** Refuses bytes after the end of the image (`end` = offset just past the trailer / IEND / EOI). */
export function assertNothingAfter(bytes: Uint8Array, end: number): void {
  if (end < bytes.length) {
    throw new MediaError('POLYGLOT', {
      reason: 'data after the end of the image',
      offset: end,
      trailingBytes: bytes.length - end,
      appended: describePayload(bytes, end),
    })
  }
}

/** A rough name for what a foreign payload looks like, for error details only. */
function describePayload(bytes: Uint8Array, at: number): string {
  const head = asciiAt(bytes, at, 16).replace(/^[\s\0]+/, '')
  if (head.startsWith('PK\x03\x04') || head.startsWith('PK\x05\x06')) return 'zip'
  if (head.startsWith('%PDF')) return 'pdf'
  if (head.startsWith('GIF8')) return 'gif'
  if (head.startsWith('\x89PNG')) return 'png'
  if (head.startsWith('\xff\xd8\xff')) return 'jpeg'
  if (head.startsWith('{') || head.startsWith('[')) return 'json'
  if (head.startsWith('<')) return 'markup'
  return 'unknown'
}

function asciiAt(bytes: Uint8Array, at: number, length: number): string {
  let text = ''
  for (let i = at; i < at + length && i < bytes.length; i++) text += String.fromCharCode(bytes[i]!)
  return text
}

// Tags that make a browser or server treat text as active content. Metadata (GIF extensions, PNG
// ancillary chunks, JPEG comments, WebP chunks) holding them is the classic image/HTML polyglot, so
// it is refused. XMP packets (`<?xpacket`, `<x:xmpmeta`, `<rdf:...`) are legitimate and do not match.
// The tag must end in a space, '/' or '>' so that compressed metadata (ICC profiles) cannot match
// by chance. Matched on bytes, without building strings: this runs over every metadata byte.
const ACTIVE_TAGS = ['script', 'html', 'body', 'iframe', 'object', 'embed', 'svg', 'meta', 'img', '?php'].map((tag) =>
  Uint8Array.from(tag, (char) => char.charCodeAt(0)),
)

/** First letters of the tags, both cases: most '<' in binary metadata are rejected by one lookup. */
const TAG_START = new Uint8Array(256)
for (const tag of ACTIVE_TAGS) {
  TAG_START[tag[0]!] = 1
  TAG_START[String.fromCharCode(tag[0]!).toUpperCase().charCodeAt(0)] = 1
}

/** Throws POLYGLOT when bytes[start, end) contain active markup. */
export function assertNoMarkup(bytes: Uint8Array, start: number, end: number, where: string): void {
  for (let at = start; at < end; at++) {
    if (bytes[at] !== 0x3c || TAG_START[bytes[at + 1]!] !== 1) continue
    if (ACTIVE_TAGS.some((tag) => isTagAt(bytes, at + 1, end, tag))) {
      throw new MediaError('POLYGLOT', { reason: 'markup hidden in image metadata', where, offset: at })
    }
  }
}

function isTagAt(bytes: Uint8Array, at: number, end: number, tag: Uint8Array): boolean {
  if (at + tag.length >= end) return false
  for (let i = 0; i < tag.length; i++) {
    const byte = bytes[at + i]!
    const lower = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte
    if (lower !== tag[i]) return false
  }
  const after = bytes[at + tag.length]
  return after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d || after === 0x0c || after === 0x2f || after === 0x3e
}

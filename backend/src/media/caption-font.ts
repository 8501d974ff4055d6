// The font captions are set in (Fredoka SemiBold, SIL Open Font License, from @fontsource/fredoka), read
// once. The browser's editor loads the same file, so a caption is drawn the same on both sides.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import opentype, { type Font } from 'opentype.js'
import type { CaptionFont } from '../../../contract/remix/caption'

const require = createRequire(import.meta.url)
/** Its Latin subset: English and the Western European languages. */
export const CAPTION_FONT_FILE = require.resolve('@fontsource/fredoka/files/fredoka-latin-600-normal.woff')

let font: Font | undefined

export function captionFont(): CaptionFont & { missing(text: string): string[] } {
  if (!font) {
    const bytes = readFileSync(CAPTION_FONT_FILE)
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  }
  const loaded = font
  return {
    getPath: (text, x, y, size) => loaded.getPath(text, x, y, size),
    getAdvanceWidth: (text, size) => loaded.getAdvanceWidth(text, size),
    /** The characters of `text` the font cannot draw. */
    missing: (text) => [...new Set(text)].filter((char) => char !== ' ' && loaded.charToGlyphIndex(char) === 0),
  }
}

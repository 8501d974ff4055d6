// The font captions are set in (Fredoka SemiBold, SIL Open Font License, from @fontsource/fredoka), read
// once. The browser's editor loads the same file through the same adapter, so a caption is drawn the same
// on both sides.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import opentype from 'opentype.js'
import { captionFontFrom, type CaptionFontWithCoverage } from '../../../../contract/remix/caption-font'

const require = createRequire(import.meta.url)
/** Its Latin subset: English and the Western European languages. */
export const CAPTION_FONT_FILE = require.resolve('@fontsource/fredoka/files/fredoka-latin-600-normal.woff')

let font: CaptionFontWithCoverage | undefined

export function captionFont(): CaptionFontWithCoverage {
  if (!font) {
    const bytes = readFileSync(CAPTION_FONT_FILE)
    font = captionFontFrom(opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)))
  }
  return font
}

// The fonts captions are set in (contract/remix/caption-font.ts lists them), read once. The browser's editor
// loads the same files through the same adapter, so a caption is drawn the same on both sides.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import opentype from 'opentype.js'
import { CAPTION_FONT_FILES, captionFontFrom, type CaptionFontWithCoverage } from '../../../../contract/remix/caption-font'

const require = createRequire(import.meta.url)

let font: CaptionFontWithCoverage | undefined

export function captionFont(): CaptionFontWithCoverage {
  font ??= captionFontFrom(
    CAPTION_FONT_FILES.map((file) => {
      const bytes = readFileSync(require.resolve(file))
      return opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    }),
  )
  return font
}

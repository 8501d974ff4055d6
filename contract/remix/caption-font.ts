// The caption font as captions use it, from a parsed opentype.js Font: one adapter for the server (which
// reads the file from disk) and the browser's editor (which fetches it), so both draw a caption the same.
import type { CaptionFont, PathCommand } from './caption'

/** The part of an opentype.js Font that captions use. */
export interface OpentypeFont {
  getPath(text: string, x: number, y: number, fontSize: number): { commands: PathCommand[] }
  getAdvanceWidth(text: string, fontSize: number): number
  /** 0 when the font has no glyph for the character. */
  charToGlyphIndex(char: string): number
}

export type CaptionFontWithCoverage = CaptionFont & {
  /** The characters of `text` the font cannot draw. */
  missing(text: string): string[]
}

export function captionFontFrom(font: OpentypeFont): CaptionFontWithCoverage {
  return {
    getPath: (text, x, y, size) => font.getPath(text, x, y, size),
    getAdvanceWidth: (text, size) => font.getAdvanceWidth(text, size),
    missing: (text) => [...new Set(text)].filter((char) => char !== ' ' && font.charToGlyphIndex(char) === 0),
  }
}

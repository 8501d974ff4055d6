// The caption font as captions use it, from parsed opentype.js Fonts: one adapter for the server (which
// reads the files from disk) and the browser's editor (which fetches them), so both draw a caption the same.
import type { CaptionFont, PathCommand } from './caption'

/**
 * The files captions are set in, first choice first (SIL Open Font License, from the npm registry): Fredoka
 * SemiBold for Latin (its own look since captions began), Comfortaa Bold for the letters Fredoka lacks (Central
 * European, Greek, Cyrillic, Vietnamese). WOFF, which opentype.js reads (WOFF2 it cannot). The server resolves these
 * names; the editor imports each (app/features/remix/caption-font.ts, checked against this list by type).
 */
export const CAPTION_FONT_FILES = [
  '@fontsource/fredoka/files/fredoka-latin-600-normal.woff',
  '@fontsource/fredoka/files/fredoka-latin-ext-600-normal.woff',
  '@fontsource/comfortaa/files/comfortaa-latin-ext-700-normal.woff',
  '@fontsource/comfortaa/files/comfortaa-greek-700-normal.woff',
  '@fontsource/comfortaa/files/comfortaa-cyrillic-700-normal.woff',
  '@fontsource/comfortaa/files/comfortaa-cyrillic-ext-700-normal.woff',
  '@fontsource/comfortaa/files/comfortaa-vietnamese-700-normal.woff',
] as const
export type CaptionFontFile = (typeof CAPTION_FONT_FILES)[number]

/** The part of an opentype.js Font that captions use. */
export interface OpentypeFont {
  getPath(text: string, x: number, y: number, fontSize: number): { commands: PathCommand[] }
  getAdvanceWidth(text: string, fontSize: number): number
  /** 0 when the font has no glyph for the character. */
  charToGlyphIndex(char: string): number
}

export type CaptionFontWithCoverage = CaptionFont & {
  /** The characters of `text` no caption font can draw. */
  missing(text: string): string[]
}

const isSpace = (char: string) => /^\s$/u.test(char)

/**
 * One caption font from several: each character is drawn by the first font that has it (a space by the
 * font of the text around it), in runs, so a caption in one script is set exactly as by that font alone.
 * Characters no font has are left out (the caption is refused before that matters: captionRefusal).
 */
export function captionFontFrom(fonts: readonly OpentypeFont[]): CaptionFontWithCoverage {
  const fontOf = (char: string) => fonts.find((font) => font.charToGlyphIndex(char) !== 0)
  /** The text in runs of one font each. */
  const runs = (text: string) => {
    const result: { font: OpentypeFont; text: string }[] = []
    let pendingSpaces = ''
    for (const char of text) {
      if (isSpace(char)) {
        if (result.length > 0) result[result.length - 1]!.text += char
        else pendingSpaces += char
        continue
      }
      const font = fontOf(char)
      if (!font) continue
      const last = result[result.length - 1]
      if (last?.font === font) last.text += char
      else result.push({ font, text: pendingSpaces + char })
      pendingSpaces = ''
    }
    return result
  }
  return {
    getPath(text, x, y, size) {
      const commands: PathCommand[] = []
      let at = x
      for (const run of runs(text)) {
        commands.push(...run.font.getPath(run.text, at, y, size).commands)
        at += run.font.getAdvanceWidth(run.text, size)
      }
      return { commands }
    },
    getAdvanceWidth: (text, size) => runs(text).reduce((width, run) => width + run.font.getAdvanceWidth(run.text, size), 0),
    missing: (text) => [...new Set(text)].filter((char) => !isSpace(char) && fontOf(char) === undefined),
  }
}

/** Scripts people write in that captions cannot take yet, by Unicode script name, as people call them. */
const SCRIPTS: readonly [RegExp, string][] = [
  [/\p{Script=Arabic}/u, 'Arabic'],
  [/\p{Script=Hebrew}/u, 'Hebrew'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'Japanese'],
  [/\p{Script=Han}/u, 'Chinese'],
  [/\p{Script=Hangul}/u, 'Korean'],
  [/\p{Script=Devanagari}/u, 'Devanagari'],
  [/\p{Script=Bengali}/u, 'Bengali'],
  [/\p{Script=Tamil}/u, 'Tamil'],
  [/\p{Script=Thai}/u, 'Thai'],
  [/\p{Script=Armenian}/u, 'Armenian'],
  [/\p{Script=Georgian}/u, 'Georgian'],
  [/\p{Script=Ethiopic}/u, 'Ethiopic'],
]

/** Emoji and the parts they are made of (joiners, skin tones, flags' letters, the emoji style selector). */
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0f|\u20e3/u

/**
 * Why a caption cannot be made, in words a person can act on, or undefined when every character can be
 * drawn. The editor shows it while the caption is typed; the server answers it (400 caption-characters).
 */
export function captionRefusal(text: string, font: Pick<CaptionFontWithCoverage, 'missing'>): string | undefined {
  const missing = font.missing(text)
  if (missing.length === 0) return undefined
  const takes = 'Captions take Latin, Greek and Cyrillic letters, digits and punctuation.'
  if (missing.some((char) => EMOJI.test(char))) return `Emoji cannot be drawn in a caption yet. ${takes}`
  for (const [pattern, script] of SCRIPTS) {
    if (missing.some((char) => pattern.test(char))) return `${script} script is not supported yet. ${takes}`
  }
  return `The caption font cannot draw ${missing.map((char) => `“${char}”`).join(' ')}. ${takes}`
}

// The part of opentype.js (which ships no types) that captions use.
declare module 'opentype.js' {
  import type { PathCommand } from '../../../../contract/remix/caption'

  export interface Font {
    getPath(text: string, x: number, y: number, fontSize: number): { commands: PathCommand[] }
    getAdvanceWidth(text: string, fontSize: number): number
    /** 0 when the font has no glyph for the character. */
    charToGlyphIndex(char: string): number
  }
  /** A CommonJS (UMD) module: Node's ES module loader sees its exports as the default one. */
  const opentype: { parse(buffer: ArrayBuffer): Font }
  export default opentype
}

// The part of opentype.js (which ships no types) the browser's caption font uses: its ES module build.
declare module 'opentype.js' {
  import type { OpentypeFont } from '../../../contract/remix/caption-font'

  export function parse(buffer: ArrayBuffer): OpentypeFont
}

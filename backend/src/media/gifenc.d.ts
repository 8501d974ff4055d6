// Minimal types for the parts of gifenc (which ships none) that encode-gif.ts uses.
declare module 'gifenc' {
  export type Palette = number[][]
  export type ColorFormat = 'rgb565' | 'rgb444' | 'rgba4444'

  export interface FrameOptions {
    palette?: Palette
    delay?: number
    repeat?: number
    transparent?: boolean
    transparentIndex?: number
    dispose?: number
  }

  export interface Encoder {
    writeFrame(index: Uint8Array, width: number, height: number, options?: FrameOptions): void
    finish(): void
    bytes(): Uint8Array
  }

  // The package is CommonJS with no named exports Node can detect: use the default import.
  const gifenc: {
    GIFEncoder(options?: { initialCapacity?: number; auto?: boolean }): Encoder
    quantize(rgba: Uint8Array, maxColors: number, options?: { format?: ColorFormat }): Palette
    applyPalette(rgba: Uint8Array, palette: Palette, format?: ColorFormat): Uint8Array
  }
  export default gifenc
}

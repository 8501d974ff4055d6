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

  export function GIFEncoder(options?: { initialCapacity?: number; auto?: boolean }): Encoder
  export function quantize(rgba: Uint8Array, maxColors: number, options?: { format?: ColorFormat }): Palette
  export function applyPalette(rgba: Uint8Array, palette: Palette, format?: ColorFormat): Uint8Array
}

// Minimal types for the parts of gifenc (which ships none) that encode-gif.ts uses.
declare module 'gifenc' {
  export interface FrameOptions {
    /** Manual mode: whether this frame writes the screen descriptor and global palette. */
    first?: boolean
    delay?: number
    transparent?: boolean
    transparentIndex?: number
    dispose?: number
    /** Bits per index (LZW minimum code size). */
    colorDepth?: number
  }

  export interface Encoder {
    writeFrame(index: Uint8Array, width: number, height: number, options?: FrameOptions): void
    bytes(): Uint8Array
  }

  export function GIFEncoder(options?: { initialCapacity?: number; auto?: boolean }): Encoder
}

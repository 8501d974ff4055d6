// Everything made from an animation's Lottie after it is published: the card previews and one file
// per chat platform, as bytes with their facts (MadeMedia). Runs in the render worker (render/media-worker.ts);
// services/derived-media.ts stores what it makes and lists it on the record (the store's DerivedMedia).
import { outlineFor } from '../../../../contract/remix/recipe'
import { PLATFORMS, type Platform } from '../../../../contract/stickers'
import { cardPreviews, type CardPreviews } from './card-previews'
import { FrameSource } from '../render/frame-source'
import { exportForPlatform, type ExportHints, type PlatformExport } from './platform-exports'

/** The card previews and platform files made from one Lottie, before they are stored. */
export interface MadeMedia {
  previews: CardPreviews
  exports: PlatformExport[]
  /** Milliseconds spent on the previews and on each platform, for logs and benchmarks. */
  timings: { previews: number } & Record<Platform, number>
}

export interface MakeMediaOptions {
  /**
   * The same animation with a white outline (a remix whose recipe leaves the outline to each app): the
   * files of the platforms that recommend one (`outlineFor({}, platform)`) are made from it.
   */
  outlined?: unknown
}

/** `frames`: the Lottie's frames when some are drawn already (the originals job's). */
export async function makeMedia(lottie: unknown, options: MakeMediaOptions = {}, frames = new FrameSource(lottie)): Promise<MadeMedia> {
  const started = performance.now()
  // Every frame sequence of each Lottie is drawn once for all platforms.
  const plain = frames
  const outlined = options.outlined === undefined ? undefined : new FrameSource(options.outlined)
  // The previews' frames (20 fps, up to 600 px) serve no export: they are let go once the previews are made.
  const previews = await cardPreviews(lottie)
  const timings = { previews: performance.now() - started } as MadeMedia['timings']
  const exports: PlatformExport[] = []
  const hints: ExportHints = {}
  for (const platform of PLATFORMS) {
    const t = performance.now()
    const outline = outlined !== undefined && outlineFor({}, platform)
    const source = outline ? options.outlined : lottie
    const made = await exportForPlatform(platform, source, outline ? outlined : plain, hints)
    // Discord's APNG, when it needed no step-down, predicts Signal's at 512 px.
    if (platform === 'discord' && made.file && made.notes.length === 0) hints.discordBytes = made.file.bytes.length
    exports.push(made)
    timings[platform] = performance.now() - t
  }
  return {
    previews: { small: own(previews.small), large: own(previews.large), still: own(previews.still) },
    exports: exports.map(ownExport),
    timings,
  }
}

/**
 * A copy of the bytes in a fresh ArrayBuffer, which the worker can transfer. Not every buffer can be:
 * from Node 22 on, postMessage throws DataCloneError for the Buffer pool's shared slab and for a Buffer
 * over memory that a native addon owns, such as every sharp `toBuffer()` (a whole buffer at offset 0,
 * so it cannot be told apart by its shape); Node 20 let them through. A file here is at most
 * a few hundred KB, so the copy costs microseconds. `new Uint8Array(view)` copies; a Buffer's `slice()`
 * would not.
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes)
}

function own<T extends { bytes: Uint8Array }>(file: T): T {
  return { ...file, bytes: ownBytes(file.bytes) }
}

function ownExport(e: PlatformExport): PlatformExport {
  return e.file ? { ...e, file: own(e.file) } : e
}

/** The byte buffers of a result, to transfer them from the worker instead of copying. */
export function madeBuffers(media: MadeMedia): ArrayBuffer[] {
  const { small, large, still } = media.previews
  const files = [small.bytes, large.bytes, still.bytes, ...media.exports.flatMap((e) => (e.file ? [e.file.bytes] : []))]
  return files.map((bytes) => bytes.buffer as ArrayBuffer)
}

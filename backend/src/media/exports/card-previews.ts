// Gallery card previews, rendered from the Lottie at the card's display sizes: an animated WebP at
// 1x and 2x of the 300 px card image, and a still of the first frame for cards that are not on
// screen yet and for people who ask for reduced motion.
import type { MediaFacts } from '../../../../contract/media-facts'
import { encodeAnimatedWebp, encodeStillWebp } from '../encode/encode-webp'
import type { MadeFile } from './made-file'
import { FrameSource } from '../render/frame-source'
import { lottieHeader } from '../render/render-lottie'

/** The card image's CSS size: 300x300 (docs/product.md#limits). */
export const CARD_SIZE = 300
/** Previews move at most this many frames per second (the originals keep up to 30). */
export const PREVIEW_MAX_FPS = 20
/** Palette quality of the previews: small files for a thumbnail, still clean flat colours. */
const PREVIEW_QUALITY = 60

/** A preview: WebP bytes and their facts. */
export type PreviewFile = MadeFile

export interface CardPreviews {
  /** Animated WebP at 1x (300 px). */
  small: PreviewFile
  /** Animated WebP at 2x (600 px). */
  large: PreviewFile
  /** The first frame at 2x, as a still WebP. */
  still: PreviewFile
}

/** `frames`: the Lottie's frames, shared with the platform exports (each size rendered once for all of them). */
export async function cardPreviews(lottie: unknown, frames = new FrameSource(lottie)): Promise<CardPreviews> {
  const fps = Math.min(PREVIEW_MAX_FPS, lottieHeader(lottie).fr)
  const large = await animated(CARD_SIZE * 2)
  const small = await animated(CARD_SIZE)
  async function animated(size: number): Promise<PreviewFile> {
    const seq = await frames.asIs(size, fps)
    const { bytes } = await encodeAnimatedWebp(seq, { mode: 'palette', quality: PREVIEW_QUALITY })
    return webp(bytes, {
      width: seq.width,
      height: seq.height,
      frames: seq.frames.length,
      durationMs: Math.round((seq.frames.length * 1000) / seq.fps),
    })
  }
  // The first frame is the same at every rate.
  const first = await frames.asIs(CARD_SIZE * 2, fps)
  const still = webp(await encodeStillWebp(first.width, first.height, first.frames[0]!), {
    width: first.width,
    height: first.height,
    frames: 1,
    durationMs: 0,
  })
  return { small, large, still }
}

function webp(bytes: Uint8Array, facts: Omit<MediaFacts, 'contentType' | 'bytes'>): PreviewFile {
  return { bytes, facts: { contentType: 'image/webp', bytes: bytes.length, ...facts } }
}

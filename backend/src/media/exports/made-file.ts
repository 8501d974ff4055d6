import type { MediaFacts } from '../../../../contract/media-facts'

/** A file made from a Lottie (a card preview, a platform export) before it is stored: its bytes and their facts. */
export interface MadeFile<F extends MediaFacts = MediaFacts> {
  bytes: Uint8Array
  facts: F
}

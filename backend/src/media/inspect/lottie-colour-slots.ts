// The colour slots of a stored Lottie's bytes (contract/remix/colours.ts), as the API shows them. Runs in
// the render worker (render/media-worker.ts): a 2 MB Lottie of thousands of colours takes over a second.
import { colourSlots, type ColourSlotSummary } from '../../../../contract/remix/colours'
import { isObject, type Lottie } from '../../../../contract/remix/lottie-walk'

/** The slots, most covering first; a file that does not read as a Lottie (stored before files were checked) has none. */
export function lottieColourSlots(bytes: Uint8Array): ColourSlotSummary[] {
  let lottie: unknown
  try {
    lottie = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return []
  }
  if (!isObject(lottie)) return []
  return colourSlots(lottie as Lottie).map(({ id, colour, share }) => ({ id, colour, share }))
}

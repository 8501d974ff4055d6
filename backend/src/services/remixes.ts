// Remixes: a person's own version of a sticker, made from a recipe (contract/remix/recipe.ts) applied to
// the original's Lottie.
import { colourPresets, colourSlots } from '../../../contract/remix/colours'
import { isObject, type Lottie } from '../../../contract/remix/lottie-walk'
import type { ColourChoices } from '../../../contract/remix/recipe'
import { HttpError } from '../http/http-error'
import type { Store, WumpusRecord } from '../store/port'

/** Colour choices of this many Lotties are kept (they change only with the Lottie file). */
const CHOICES_KEPT = 200

/** The Lottie of a stored file; one that does not read as a Lottie has no layers (and no colours). */
function readLottie(bytes: Uint8Array): Lottie {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes))
    if (isObject(value)) return value as Lottie
  } catch {
    // Not JSON: an animation stored before its file was checked.
  }
  return { fr: 30, ip: 0, op: 0, w: 0, h: 0, layers: [] }
}

export function createColourChoices(store: Store): (record: WumpusRecord) => Promise<ColourChoices> {
  const kept = new Map<string, ColourChoices>()
  return async (record) => {
    const source = record.files.lottie.id
    const known = kept.get(source)
    if (known) return known
    const file = await store.files.read(source)
    if (!file) throw new HttpError('NOT_FOUND', 'The animation’s Lottie file is missing')
    const slots = colourSlots(readLottie(file.bytes))
    const choices: ColourChoices = {
      slots: slots.map(({ id, colour, share }) => ({ id, colour, share })),
      presets: colourPresets(slots),
    }
    if (kept.size >= CHOICES_KEPT) kept.delete(kept.keys().next().value!)
    kept.set(source, choices)
    return choices
  }
}

import { useSyncExternalStore } from 'react'
import { afterInteractive } from '../../lib/after-interactive'
import type { SavedSticker } from '../../lib/local-data/stores'

type SavedStickersModule = typeof import('../../lib/local-data/saved-stickers')

// The IndexedDB code loads once the page is interactive (cards show their buttons disabled until then),
// so a first visit to the gallery does not wait for it. Listeners that came before it are handed over.
let saved: SavedStickersModule['savedStickers'] | null = null
let loading: Promise<void> | undefined
const early = new Map<() => void, (() => void) | null>()

function subscribe(listener: () => void): () => void {
  if (saved) return saved.subscribe(listener)
  early.set(listener, null)
  loading ??= afterInteractive()
    .then(() => import('../../lib/local-data/saved-stickers'))
    .then((module) => {
      saved = module.savedStickers
      for (const waiting of [...early.keys()]) early.set(waiting, saved.subscribe(waiting))
      for (const waiting of [...early.keys()]) waiting()
    })
  return () => {
    early.get(listener)?.()
    early.delete(listener)
  }
}

const getSnapshot = () => saved?.getSnapshot() ?? null

/** Stickers saved on this device, by animation id; null while IndexedDB is being read. */
export function useSavedStickers(): ReadonlyMap<string, SavedSticker> | null {
  return useSyncExternalStore(subscribe, getSnapshot, () => null)
}

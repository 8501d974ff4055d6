import { useSyncExternalStore } from 'react'
import { savedStickers, type SavedSticker } from './saved-stickers'

/** Stickers saved on this device, by animation id; null while IndexedDB is being read. */
export function useSavedStickers(): ReadonlyMap<string, SavedSticker> | null {
  return useSyncExternalStore(savedStickers.subscribe, savedStickers.getSnapshot, () => null)
}

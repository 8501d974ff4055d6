// Packs saved for offline: every sticker of the pack saved the way one sticker is (saved-stickers.ts),
// and the pack's JSON kept under its API URL, so /packs/{id} opens without a connection.
import { del, entries, get, set } from 'idb-keyval'
import { packPath } from '../../../contract/api-paths'
import type { PackDetail } from '../../../contract/pack'
import { apiKey, hasIndexedDb, offlineStore, type SavedPack } from './stores'
import { jsonAnswer, removeFromOffline, saveForOffline } from './saved-stickers'

export async function getSavedPack(id: string): Promise<SavedPack | undefined> {
  if (!hasIndexedDb()) return undefined
  return get<SavedPack>(id, offlineStore('saved-packs')).catch(() => undefined)
}

/** Saves each sticker not yet saved (one after another, so a large pack does not flood the network), then the pack. */
export async function savePackForOffline(pack: PackDetail, onProgress?: (done: number, total: number) => void): Promise<SavedPack> {
  if (!hasIndexedDb()) throw new Error('This browser cannot keep files for offline use.')
  const previously = new Set((await entries<string, unknown>(offlineStore('saved'))).map(([id]) => id))
  const added: string[] = []
  for (const [index, wumpus] of pack.items.entries()) {
    if (!previously.has(wumpus._id)) {
      await saveForOffline(wumpus)
      added.push(wumpus._id)
    }
    onProgress?.(index + 1, pack.items.length)
  }
  await set(apiKey(packPath(pack.id)), jsonAnswer(pack), offlineStore('packs'))
  const saved: SavedPack = { pack, savedAt: Date.now(), addedStickerIds: added }
  await set(pack.id, saved, offlineStore('saved-packs'))
  return saved
}

/** Forgets the pack and removes the stickers it saved, unless another saved pack holds them. */
export async function removePackFromOffline(id: string): Promise<void> {
  const saved = await getSavedPack(id)
  if (!saved) return
  await del(id, offlineStore('saved-packs'))
  const others = await entries<string, SavedPack>(offlineStore('saved-packs'))
  const stillUsed = new Set(others.flatMap(([, other]) => other.pack.items.map((item) => item._id)))
  for (const stickerId of saved.addedStickerIds) if (!stillUsed.has(stickerId)) await removeFromOffline(stickerId)
}

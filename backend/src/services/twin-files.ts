// Files made once are not made again: an animation whose Lottie has the very bytes of another's (the same
// recipe on the same original, a Lottie published twice) takes copies of the files made for that one
// instead of rendering them. Each instance remembers the recent makes by a key of their input's bytes;
// a remembered record is used only while it still has those bytes, and only when its owner's privacy
// allows: one's own, or anything no one keeps private (a published animation, a remix shared by link), so
// how fast an answer comes never tells that someone else made the same private remix.
import { createHash } from 'node:crypto'
import type { WumpusRecord } from '../store/port'

/** Recent makes remembered per instance (ids only). */
const KEPT = 2000

export interface TwinIndex {
  /** The id of a record whose files were made from input with this key, most recent first. */
  get(key: string): string | undefined
  /** Remembers that `id`'s files were made from input with this key. */
  remember(key: string, id: string): void
}

export function createTwinIndex(kept = KEPT): TwinIndex {
  const ids = new Map<string, string>()
  return {
    get: (key) => ids.get(key),
    remember(key, id) {
      ids.delete(key)
      if (ids.size >= kept) ids.delete(ids.keys().next().value!)
      ids.set(key, id)
    },
  }
}

/** Hex sha256 of the bytes, as the store keeps it of every file (StoredFile.sha256). */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Whether `twin`'s files may be reused for `record`: the same owner's, or nothing anyone keeps private. */
export function mayShareFiles(twin: WumpusRecord, owner: string): boolean {
  return twin.u_email.toLowerCase() === owner.toLowerCase() || twin.remix?.visibility !== 'private'
}

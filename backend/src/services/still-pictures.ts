import { stillPng } from '../media/encode/still-png'
import type { FileRef, Store, WumpusRecord } from '../store/port'
import { currentDerived } from '../store/records'
import { notFound } from '../domain/errors'

/** How many converted stills are kept in memory (a few KB to a few hundred KB each). */
const STILLS_KEPT = 64

/**
 * The picture its still PNG is made from: the first-frame still once the server made it (with its size),
 * the GIF until then.
 */
export function stillSource(record: WumpusRecord): { file: FileRef; width?: number; height?: number } {
  const still = currentDerived(record)?.previews?.still
  return still ? { file: still, width: still.width, height: still.height } : { file: record.files.gif }
}

export interface StillPicture {
  png: Uint8Array
  etag: string
}

/**
 * An animation's first frame as a PNG (link previews, Copy image), made from its still source when
 * first asked for and kept by source file id: a stored file never changes, so neither does its PNG.
 */
export interface StillPictureService {
  /** The animation's first frame as a PNG (NOT_FOUND when none can be made). */
  of(record: WumpusRecord): Promise<StillPicture>
}

export function createStillPictureService(store: Store): StillPictureService {
  const stills = new Map<string, StillPicture>()
  const of = async (record: WumpusRecord): Promise<StillPicture> => {
    const source = stillSource(record).file
    const kept = stills.get(source.id)
    if (kept) return kept
    const file = await store.files.read(source.id)
    if (!file) throw notFound('The picture of this animation is missing')
    // Stored pictures were checked by their bytes on upload; one that still cannot be read has no still.
    const png = await stillPng(file.bytes).catch(() => undefined)
    if (!png) throw notFound('No still picture can be made of this animation')
    const still = { png, etag: `"${file.info.sha256.slice(0, 32)}-still-png"` }
    if (stills.size >= STILLS_KEPT) stills.delete(stills.keys().next().value!)
    stills.set(source.id, still)
    return still
  }
  return { of }
}

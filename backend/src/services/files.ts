import { notFound } from '../domain/errors'
import type { Viewer } from '../domain/viewer'
import { canSee } from '../domain/visibility'
import type { Store, StoredFile, WumpusRecord } from '../store/port'

const noSuchFile = () => notFound('No file with this id')

/** What is stored about a file (name, type, hash), or 404; undefined id: one that is not even well formed. */
export async function findFile(store: Store, id: string | undefined): Promise<StoredFile> {
  const info = id === undefined ? undefined : await store.files.info(id)
  if (!info) throw noSuchFile()
  return info
}

/** A file's bytes, or 404 (it went between reading its facts and its bytes). */
export async function readStoredFile(store: Store, id: string): Promise<Uint8Array> {
  const file = await store.files.read(id)
  if (!file) throw noSuchFile()
  return file.bytes
}

/**
 * The remix a stored file belongs to (its own files and its previews and chat app files), 404 when the
 * viewer may not see it and the URL has no valid key (the key its owner's URLs carry); undefined for every other file.
 */
export async function remixOfFile(store: Store, file: StoredFile, viewer: Viewer, keyed: boolean): Promise<WumpusRecord | undefined> {
  if (file.purpose !== 'animation' && file.purpose !== 'derived') return undefined
  const id = await store.wumpuses.findByFile(file.id)
  const record = id === undefined ? undefined : await store.wumpuses.get(id)
  if (!record?.remix) return undefined
  if (!keyed && !canSee(record, viewer)) throw noSuchFile()
  return record
}

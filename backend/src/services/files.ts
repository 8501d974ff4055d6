import { notFound } from '../http/http-error'
import type { Store, StoredFile } from '../store/port'

/** What is stored about a file (name, type, hash), or 404; undefined id: one that is not even well formed. */
export async function findFile(store: Store, id: string | undefined): Promise<StoredFile> {
  const info = id === undefined ? undefined : await store.files.info(id)
  if (!info) throw notFound('No file with this id')
  return info
}

/** A file's bytes, or 404 (it went between reading its facts and its bytes). */
export async function readStoredFile(store: Store, id: string): Promise<Uint8Array> {
  const file = await store.files.read(id)
  if (!file) throw notFound('No file with this id')
  return file.bytes
}

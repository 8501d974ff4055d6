import type { Readable } from 'node:stream'
import { notFound } from '../domain/errors'
import { isAdminViewer, type Viewer } from '../domain/viewer'
import { canSee } from '../domain/visibility'
import type { Store, StoredFile, WumpusRecord } from '../store/port'

/** Stored files as the API serves them: what is known of one, its bytes, and whose remix it is. */
export interface FileService {
  /** What is stored about a file (name, type, hash), or NOT_FOUND; undefined id: one that is not even well formed. */
  find(id: string | undefined): Promise<StoredFile>
  /** A file's bytes, or NOT_FOUND (it went between reading its facts and its bytes). */
  read(id: string): Promise<Uint8Array>
  /** A file's bytes as a stream from where they are kept (never held whole for one request), or NOT_FOUND. */
  stream(id: string): Promise<Readable>
  /**
   * The remix or hidden animation a stored file belongs to, NOT_FOUND when the viewer may not see it and the URL has no key
   * that opens it (`keyOpens`: a key of the remix's current generation; none opens a hidden one's); undefined for every other file.
   */
  remixOf(file: StoredFile, viewer: Viewer, keyOpens: (remix: WumpusRecord) => boolean): Promise<WumpusRecord | undefined>
  /**
   * Whether the file is a submission's Lottie (personal: no cache keeps it); NOT_FOUND unless the viewer sent
   * it or is an admin, as a submission is unknown to everyone else.
   */
  isSubmissionFile(file: StoredFile, viewer: Viewer): boolean
}

export function createFileService(store: Store): FileService {
  return {
    find: (id) => findFile(store, id),
    read: (id) => readStoredFile(store, id),
    stream: (id) => streamStoredFile(store, id),
    remixOf: (file, viewer, keyOpens) => remixOfFile(store, file, viewer, keyOpens),
    isSubmissionFile: (file, viewer) => {
      if (file.purpose !== 'submission') return false
      if (!isAdminViewer(viewer) && (viewer === undefined || viewer.email !== file.owner)) throw noSuchFile()
      return true
    },
  }
}

const noSuchFile = () => notFound('No file with this id')

/** What is stored about a file (name, type, hash), or 404; undefined id: one that is not even well formed. */
async function findFile(store: Store, id: string | undefined): Promise<StoredFile> {
  const info = id === undefined ? undefined : await store.files.info(id)
  if (!info) throw noSuchFile()
  return info
}

/** A file's bytes, or 404 (it went between reading its facts and its bytes). */
async function readStoredFile(store: Store, id: string): Promise<Uint8Array> {
  const file = await store.files.read(id)
  if (!file) throw noSuchFile()
  return file.bytes
}

/** A file's bytes as a stream, or 404 (it went between reading its facts and its bytes). */
async function streamStoredFile(store: Store, id: string): Promise<Readable> {
  const file = await store.files.stream(id)
  if (!file) throw noSuchFile()
  return file.body
}

/**
 * The remix a stored file belongs to (its own files and its previews and chat app files), 404 when the
 * viewer may not see it and the URL has no valid key (the key its owner's URLs carry); undefined for every other file.
 */
async function remixOfFile(
  store: Store,
  file: StoredFile,
  viewer: Viewer,
  keyOpens: (remix: WumpusRecord) => boolean,
): Promise<WumpusRecord | undefined> {
  // Files stored before purposes were kept have none: they may be an animation's too.
  if (file.purpose !== undefined && file.purpose !== 'animation' && file.purpose !== 'derived') return undefined
  const id = await store.wumpuses.findByFile(file.id)
  const record = id === undefined ? undefined : await store.wumpuses.get(id)
  if (!record?.remix && !record?.hidden) return undefined
  // A hidden animation's files: admins' only, whatever key the URL carries.
  if (!canSee(record, viewer) && (record.hidden || !keyOpens(record))) throw noSuchFile()
  return record
}

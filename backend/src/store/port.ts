/**
 * The storage port. Handlers talk to this, never to a driver.
 * Two adapters implement it: embedded (nedb + files folder) and mongo (official driver + GridFS).
 * Ids are 24 lowercase hex characters on both; dates are JS Dates.
 */
import type { MediaFormat } from '../../../contract/limits'
import type { Platform } from '../../../contract/stickers'

/**
 * What a file is for: one format of an animation, a profile photo/cover, or a file the server made
 * from an animation's Lottie (card previews, platform exports).
 */
export type FilePurpose = 'animation' | 'image' | 'derived'

export interface StoredFile {
  id: string
  /** Exact Content-Type decided by inspecting the bytes. */
  contentType: string
  /** Original file name, kept for Content-Disposition. */
  filename: string
  size: number
  /** Hex sha256 of the bytes; serves as the ETag. */
  sha256: string
  createdAt: Date
  /** Email of the user who uploaded it, when known. */
  owner?: string
  purpose?: FilePurpose
}

export interface NewFile {
  bytes: Uint8Array
  contentType: string
  filename: string
  owner?: string
  purpose?: FilePurpose
}

/** A stored file as a record refers to it: id plus the original name (for URLs and downloads). */
export interface FileRef {
  id: string
  filename: string
}

/** A file made from the Lottie, with what the server read in it. */
export interface DerivedFile extends FileRef {
  contentType: string
  bytes: number
  width: number
  height: number
  frames: number
  durationMs: number
}

/** One platform's export: the file when one fits the platform, and notes (what it gave up, or why there is none). */
export interface StickerExportRecord {
  platform: Platform
  file?: DerivedFile
  notes: string[]
}

/** Everything made from an animation's Lottie after publishing. */
export interface DerivedMedia {
  /** Id of the Lottie file they were made from: once the animation's Lottie changes they are stale. */
  source: string
  /** The rules' version they were made with (services/derived-media.ts); older ones are made again. */
  version: number
  madeAt: Date
  /** Card previews: animated WebP at 1x and 2x of the card image, and a still first frame. */
  previews?: { small: DerivedFile; large: DerivedFile; still: DerivedFile }
  exports: StickerExportRecord[]
  /** Why nothing could be made, when the Lottie could not be rendered. */
  error?: string
}

export interface WumpusRecord {
  _id: string
  name: string
  description: string
  /** One stored file per format. */
  files: Record<MediaFormat, FileRef>
  u_email: string
  u_name: string
  /** Absent until the server has made them. */
  derived?: DerivedMedia
  createdAt: Date
  updatedAt: Date
}

export type NewWumpus = Omit<WumpusRecord, '_id' | 'createdAt' | 'updatedAt' | 'derived'> & {
  /** Optional, for seeding and tests; defaults to now. */
  createdAt?: Date
}

export type WumpusPatch = Partial<Pick<WumpusRecord, 'name' | 'description' | 'files' | 'u_name'>>

export interface ListWumpusesOptions {
  limit: number
  /** Opaque cursor from a previous page's nextCursor. */
  cursor?: string
  /** Only this uploader's animations. */
  u_email?: string
}

export interface WumpusPage {
  items: WumpusRecord[]
  /** Count of all items matching the filter (not only this page). */
  total: number
  /** Cursor of the next page, absent on the last page. */
  nextCursor?: string
}

export type Role = 'user' | 'admin'

export interface UserRecord {
  email: string
  user_name: string
  role: Role
  photo: string
  cover: string
  url: string
  job: string
  description: string
  createdAt: Date
  updatedAt: Date
}

export type UserPatch = Partial<Omit<UserRecord, 'email' | 'createdAt' | 'updatedAt'>>

export interface Store {
  readonly kind: 'embedded' | 'mongo'

  /** Newest first (createdAt desc, then _id desc). An unknown or malformed cursor throws InvalidCursorError. */
  listWumpuses(options: ListWumpusesOptions): Promise<WumpusPage>
  /** Undefined for unknown ids (malformed ids included). */
  getWumpus(id: string): Promise<WumpusRecord | undefined>
  insertWumpus(wumpus: NewWumpus): Promise<WumpusRecord>
  /** Undefined when there is no such record. */
  updateWumpus(id: string, patch: WumpusPatch): Promise<WumpusRecord | undefined>
  /** Removes the record only (files are the caller's to remove); answers how many were removed (0 or 1). */
  deleteWumpus(id: string): Promise<number>
  /**
   * Sets (or with null removes) the record's derived media, only while its Lottie is still the file
   * `lottieId`; answers the updated record, or undefined when the record is gone or its Lottie changed.
   * Does not touch updatedAt (nothing a person changed).
   */
  setDerivedMedia(id: string, lottieId: string, derived: DerivedMedia | null): Promise<WumpusRecord | undefined>
  countWumpuses(): Promise<number>
  /**
   * Grows with every animation write made through this store object, so the HTTP layer can cache
   * list pages. Writes by other processes (several instances on one MongoDB) do not move it.
   */
  wumpusRevision(): number

  getUser(email: string): Promise<UserRecord | undefined>
  /** Creates the user with defaults for missing fields, or applies the patch to the existing one. */
  upsertUser(email: string, patch: UserPatch): Promise<UserRecord>
  /** All users, by email ascending. */
  listUsers(): Promise<UserRecord[]>
  /** Answers how many users were modified (0 when already that role or unknown). */
  setRole(email: string, role: Role): Promise<number>

  putFile(file: NewFile): Promise<StoredFile>
  getFileInfo(id: string): Promise<StoredFile | undefined>
  /** The whole file, or undefined when unknown. */
  readFile(id: string): Promise<{ info: StoredFile; bytes: Uint8Array } | undefined>
  /** Answers whether a file was removed. */
  deleteFile(id: string): Promise<boolean>
  /**
   * Files created before the given time, oldest first (then by id), `limit` at most, starting after
   * the file `after` when given (pass the last file of the previous page). For sweeping orphans.
   */
  listFiles(options: { createdBefore: Date; limit: number; after?: Pick<StoredFile, 'createdAt' | 'id'> }): Promise<StoredFile[]>
  /** Whether any animation record refers to this file id (in any format, or among its derived files). */
  isFileInUse(id: string): Promise<boolean>

  /** Throws when the store cannot be reached. */
  ping(): Promise<void>
  close(): Promise<void>
}

export class InvalidCursorError extends Error {
  constructor() {
    super('Not a valid cursor')
    this.name = 'InvalidCursorError'
  }
}

/** Thrown when a unique key (user email) would be duplicated. */
export class DuplicateKeyError extends Error {
  constructor(message = 'Duplicate key') {
    super(message)
    this.name = 'DuplicateKeyError'
  }
}

/** Thrown when the underlying database cannot be reached. */
export class StoreUnavailableError extends Error {
  constructor(message = 'The store is unavailable', options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreUnavailableError'
  }
}

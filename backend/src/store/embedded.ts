/**
 * The embedded adapter: @seald-io/nedb data files under dataDir plus dataDir/files/ for the bytes.
 * One process owns a data dir at a time. nedb keeps every document in memory and appends each write
 * to its file; this adapter keeps its own maps of the documents too and answers every read from them,
 * because nedb runs reads and writes of a datastore through one queue, so a read would wait for every
 * write before it (and each write for its append to disk).
 */
import { createHash, randomBytes } from 'node:crypto'
import { constants as fsConstants } from 'node:fs'
import { access, chmod, mkdir, open, readFile, readdir, rename, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import Datastore from '@seald-io/nedb'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { decodeCursor, encodeCursor, isId, newId } from './ids'
import { OrderedIndex, type OrderedEntry } from './ordered-index'
import {
  DuplicateKeyError,
  FileInUseError,
  StoreUnavailableError,
  type AuditRecord,
  type FilePurpose,
  type ListWumpusesOptions,
  type NewAuditRecord,
  type NewFile,
  type NewSession,
  type NewWumpus,
  type RateCounter,
  type Role,
  type SessionRecord,
  type Store,
  type StoredFile,
  type UserPatch,
  type UserRecord,
  type WumpusPage,
  type WumpusPatch,
  type WumpusRecord,
} from './port'
import {
  USER_DEFAULTS,
  fileLabels,
  toAuditRecord,
  toSessionRecord,
  toStoredFile,
  toUserRecord,
  toWumpusRecord,
  userPatchFields,
  wumpusFields,
  wumpusFileIds,
  wumpusPatchFields,
} from './records'

export interface EmbeddedStoreOptions {
  dataDir: string
}

type UserDocument = UserRecord & { _id: string }
type FileDocument = Omit<StoredFile, 'id'> & { _id: string }
type SessionDocument = Omit<SessionRecord, 'id'> & { _id: string }
type AuditDocument = Omit<AuditRecord, 'id'> & { _id: string }

const TEMP_SUFFIX = '.tmp'
/** Only the owner may read the data: accounts, sessions and unpublished uploads live there. */
const PRIVATE_DIR = 0o700
const PRIVATE_FILE = 0o600

export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<Store> {
  const dataDir = path.resolve(options.dataDir)
  const filesDir = path.join(dataDir, 'files')
  await mkdir(filesDir, { recursive: true, mode: PRIVATE_DIR })
  await Promise.all([chmod(dataDir, PRIVATE_DIR), chmod(filesDir, PRIVATE_DIR)])
  await removeTempFiles(filesDir)

  const datastore = <T>(name: string) => {
    const filename = path.join(dataDir, `${name}.db`)
    const db = new Datastore<T>({ filename })
    // Compaction (loading included) writes a new file and renames it over the old one, with default permissions.
    db.on('compaction.done', () => void chmod(filename, PRIVATE_FILE).catch(() => undefined))
    return db
  }
  const wumpuses = datastore<WumpusRecord>('wumpuses')
  const users = datastore<UserDocument>('users')
  const files = datastore<FileDocument>('files')
  const sessions = datastore<SessionDocument>('sessions')
  const audit = datastore<AuditDocument>('audit')
  // Loading also rewrites each file compactly.
  await Promise.all([wumpuses, users, files, sessions, audit].map((db) => db.loadDatabaseAsync()))
  await users.ensureIndexAsync({ fieldName: 'email', unique: true })
  await wumpuses.ensureIndexAsync({ fieldName: 'u_email' })
  const store = new EmbeddedStore(dataDir, filesDir, { wumpuses, users, files, sessions, audit })
  // Nothing is being written while the store opens, so any bytes without a record are a crash's leftovers.
  await store.sweepStrayBlobs(new Date(Date.now() + 1000))
  return store
}

/** A crash while writing leaves only temp files behind; they are never valid content. */
async function removeTempFiles(filesDir: string): Promise<void> {
  for (const name of await readdir(filesDir)) {
    if (name.endsWith(TEMP_SUFFIX)) await unlink(path.join(filesDir, name)).catch(() => undefined)
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { errorType?: unknown } | null)?.errorType === 'uniqueViolated'
}

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT'
}

/**
 * Every wumpus in memory, with newest-first indexes over all and per uploader, so reads never
 * go through nedb's query engine (which sorts every matching document on each query), and the
 * record each file id belongs to.
 * Updated only after nedb has accepted the write, except file claims, which are taken before (and
 * given back when the write fails) so that two writes can never claim one file.
 */
class WumpusCatalog {
  private readonly records = new Map<string, WumpusRecord>()
  readonly newest = new OrderedIndex()
  private readonly newestByUploader = new Map<string, OrderedIndex>()
  /** File id -> id of the record it belongs to. */
  private readonly fileOwners = new Map<string, string>()

  constructor(records: WumpusRecord[]) {
    const byUploader = new Map<string, OrderedEntry[]>()
    for (const record of records) {
      this.records.set(record._id, toWumpusRecord(record))
      for (const id of wumpusFileIds(record.files)) this.fileOwners.set(id, record._id)
      const entries = byUploader.get(record.u_email) ?? []
      entries.push({ time: record.createdAt.getTime(), id: record._id })
      byUploader.set(record.u_email, entries)
    }
    this.newest.reset(records.map((record) => ({ time: record.createdAt.getTime(), id: record._id })))
    for (const [email, entries] of byUploader) this.uploaderIndex(email).reset(entries)
  }

  get(id: string): WumpusRecord | undefined {
    const record = this.records.get(id)
    return record && toWumpusRecord(record)
  }

  /** The uploader's index, or the one over everything. */
  index(u_email?: string): OrderedIndex | undefined {
    return u_email === undefined ? this.newest : this.newestByUploader.get(u_email)
  }

  isFileInUse(id: string): boolean {
    return this.fileOwners.has(id)
  }

  /** Claims the files for the record, all or none; throws FileInUseError when another record has one. */
  claim(recordId: string, files: WumpusRecord['files']): string[] {
    const ids = wumpusFileIds(files)
    const taken = ids.filter((id) => (this.fileOwners.get(id) ?? recordId) !== recordId)
    if (taken.length > 0) throw new FileInUseError([...new Set(taken)])
    const claimed = ids.filter((id) => !this.fileOwners.has(id))
    for (const id of claimed) this.fileOwners.set(id, recordId)
    return claimed
  }

  /** Gives back files claimed for a write that did not happen. */
  release(recordId: string, ids: string[]): void {
    for (const id of ids) if (this.fileOwners.get(id) === recordId) this.fileOwners.delete(id)
  }

  add(record: WumpusRecord): void {
    this.records.set(record._id, toWumpusRecord(record))
    const time = record.createdAt.getTime()
    this.newest.add(time, record._id)
    this.uploaderIndex(record.u_email).add(time, record._id)
  }

  /** For updates, which never change createdAt or u_email, so the indexes stay valid. */
  replace(record: WumpusRecord): void {
    const previous = this.records.get(record._id)
    if (!previous) return
    this.records.set(record._id, toWumpusRecord(record))
    const kept = new Set(wumpusFileIds(record.files))
    this.release(record._id, wumpusFileIds(previous.files).filter((id) => !kept.has(id)))
  }

  remove(record: WumpusRecord): void {
    const stored = this.records.get(record._id)
    if (!stored) return
    this.records.delete(record._id)
    this.release(record._id, wumpusFileIds(stored.files))
    const time = record.createdAt.getTime()
    this.newest.remove(time, record._id)
    const byUploader = this.newestByUploader.get(record.u_email)
    byUploader?.remove(time, record._id)
    if (byUploader?.size === 0) this.newestByUploader.delete(record.u_email)
  }

  private uploaderIndex(email: string): OrderedIndex {
    let index = this.newestByUploader.get(email)
    if (!index) {
      index = new OrderedIndex()
      this.newestByUploader.set(email, index)
    }
    return index
  }
}

interface Datastores {
  wumpuses: Datastore<WumpusRecord>
  users: Datastore<UserDocument>
  files: Datastore<FileDocument>
  sessions: Datastore<SessionDocument>
  audit: Datastore<AuditDocument>
}

class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const
  private revision = 0
  private lastAuditAt = 0
  private readonly catalog: WumpusCatalog
  private readonly users = new Map<string, UserRecord>()
  /** Firebase uids being bound right now, by email, so two binds cannot both win. */
  private readonly binding = new Map<string, string>()
  private readonly files = new Map<string, StoredFile>()
  private readonly sessions = new Map<string, SessionRecord>()
  private readonly audit = new Map<string, AuditRecord>()
  private readonly auditOrder = new OrderedIndex()

  constructor(
    private readonly dataDir: string,
    private readonly filesDir: string,
    private readonly db: Datastores,
  ) {
    this.catalog = new WumpusCatalog(db.wumpuses.getAllData())
    for (const doc of db.users.getAllData()) this.users.set(doc.email, toUserRecord(doc))
    for (const doc of db.files.getAllData()) this.files.set(doc._id, fromFileDocument(doc))
    for (const doc of db.sessions.getAllData()) this.sessions.set(doc._id, toSessionRecord({ ...doc, id: doc._id }))
    for (const doc of db.audit.getAllData()) this.audit.set(doc._id, toAuditRecord({ ...doc, id: doc._id }))
    this.auditOrder.reset([...this.audit.values()].map((record) => ({ time: record.at.getTime(), id: record.id })))
  }

  // ---- Wumpuses ----

  async listWumpuses(options: ListWumpusesOptions): Promise<WumpusPage> {
    const position = options.cursor === undefined ? undefined : decodeCursor(options.cursor)
    const index = this.catalog.index(options.u_email)
    if (!index) return { items: [], total: 0 }
    const ids = index.slice(options.limit + 1, position && { time: position.createdAt.getTime(), id: position._id })
    const items = ids.slice(0, options.limit).flatMap((id) => this.catalog.get(id) ?? [])
    const last = items[items.length - 1]
    return ids.length > options.limit && last
      ? { items, total: index.size, nextCursor: encodeCursor(last) }
      : { items, total: index.size }
  }

  async getWumpus(id: string): Promise<WumpusRecord | undefined> {
    return this.catalog.get(id)
  }

  async insertWumpus(wumpus: NewWumpus): Promise<WumpusRecord> {
    const now = new Date()
    const record: WumpusRecord = {
      _id: newId(now.getTime()),
      ...wumpusFields(wumpus),
      createdAt: wumpus.createdAt ?? now,
      updatedAt: now,
    }
    const claimed = this.catalog.claim(record._id, record.files)
    try {
      await this.db.wumpuses.insertAsync(record)
    } catch (error) {
      this.catalog.release(record._id, claimed)
      throw error
    }
    this.catalog.add(record)
    this.revision++
    return toWumpusRecord(record)
  }

  async updateWumpus(id: string, patch: WumpusPatch): Promise<WumpusRecord | undefined> {
    if (!this.catalog.get(id)) return undefined
    const fields = wumpusPatchFields(patch)
    const claimed = fields.files ? this.catalog.claim(id, fields.files) : []
    let updated: WumpusRecord | undefined
    try {
      const { affectedDocuments } = await this.db.wumpuses.updateAsync(
        { _id: id },
        { $set: { ...fields, updatedAt: new Date() } },
        { returnUpdatedDocs: true },
      )
      updated = affectedDocuments ?? undefined
    } finally {
      if (!updated) this.catalog.release(id, claimed)
    }
    if (!updated) return undefined
    this.catalog.replace(updated)
    this.revision++
    return toWumpusRecord(updated)
  }

  async deleteWumpus(id: string): Promise<number> {
    const record = this.catalog.get(id)
    if (!record) return 0
    const removed = await this.db.wumpuses.removeAsync({ _id: id }, {})
    if (removed > 0) {
      this.catalog.remove(record)
      this.revision++
    }
    return removed
  }

  wumpusRevision(): number {
    return this.revision
  }

  async countWumpuses(): Promise<number> {
    return this.catalog.newest.size
  }

  // ---- Users ----

  async getUser(email: string): Promise<UserRecord | undefined> {
    const user = this.users.get(email)
    return user && toUserRecord(user)
  }

  async upsertUser(email: string, patch: UserPatch): Promise<UserRecord> {
    const fields = userPatchFields(patch)
    if (this.users.has(email)) return this.updateUser(email, fields)
    const now = new Date()
    const doc: UserDocument = { _id: newId(now.getTime()), email, ...USER_DEFAULTS, ...fields, createdAt: now, updatedAt: now }
    try {
      const inserted = await this.db.users.insertAsync(doc)
      this.users.set(email, toUserRecord(inserted))
      return toUserRecord(inserted)
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      // Another call created this user meanwhile: apply the patch to it instead.
      return this.updateUser(email, fields)
    }
  }

  private async updateUser(email: string, set: Partial<UserDocument>): Promise<UserRecord> {
    const { affectedDocuments } = await this.db.users.updateAsync(
      { email },
      { $set: { ...set, updatedAt: new Date() } },
      { returnUpdatedDocs: true },
    )
    if (!affectedDocuments) throw new DuplicateKeyError(`User ${email} vanished during an update`)
    this.users.set(email, toUserRecord(affectedDocuments))
    return toUserRecord(affectedDocuments)
  }

  async listUsers(): Promise<UserRecord[]> {
    return [...this.users.values()].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0)).map(toUserRecord)
  }

  async setRole(email: string, role: Role): Promise<number> {
    const user = this.users.get(email)
    if (!user || user.role === role) return 0
    await this.updateUser(email, { role })
    return 1
  }

  async bindUser(email: string, uid: string): Promise<UserRecord | undefined> {
    const user = this.users.get(email)
    if (!user) return undefined
    if (user.firebaseUid !== undefined) return user.firebaseUid === uid ? toUserRecord(user) : undefined
    const pending = this.binding.get(email)
    if (pending !== undefined && pending !== uid) return undefined
    this.binding.set(email, uid)
    try {
      return await this.updateUser(email, { firebaseUid: uid })
    } finally {
      this.binding.delete(email)
    }
  }

  // ---- Sessions ----

  async createSession(session: NewSession): Promise<SessionRecord> {
    const createdAt = new Date()
    const record: SessionRecord = { id: randomBytes(16).toString('hex'), email: session.email, uid: session.uid, createdAt, expiresAt: session.expiresAt }
    const { id: _id, ...rest } = record
    await this.db.sessions.insertAsync({ _id, ...rest })
    this.sessions.set(record.id, record)
    return toSessionRecord(record)
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(id)
    return session && toSessionRecord(session)
  }

  async deleteSession(id: string): Promise<boolean> {
    if (!this.sessions.has(id)) return false
    await this.db.sessions.removeAsync({ _id: id }, {})
    return this.sessions.delete(id)
  }

  async deleteUserSessions(email: string, options: { exceptId?: string } = {}): Promise<number> {
    const ids = [...this.sessions.values()].filter((s) => s.email === email && s.id !== options.exceptId).map((s) => s.id)
    if (ids.length === 0) return 0
    await this.db.sessions.removeAsync({ _id: { $in: ids } }, { multi: true })
    for (const id of ids) this.sessions.delete(id)
    return ids.length
  }

  async deleteExpiredSessions(now: Date): Promise<number> {
    const ids = [...this.sessions.values()].filter((s) => s.expiresAt <= now).map((s) => s.id)
    if (ids.length === 0) return 0
    await this.db.sessions.removeAsync({ _id: { $in: ids } }, { multi: true })
    for (const id of ids) this.sessions.delete(id)
    return ids.length
  }

  // ---- Audit ----

  async appendAudit(entry: NewAuditRecord): Promise<AuditRecord> {
    // Entries made here keep their order even within one millisecond.
    const at = new Date(Math.max(Date.now(), this.lastAuditAt + 1))
    this.lastAuditAt = at.getTime()
    const record = toAuditRecord({ ...entry, id: newId(at.getTime()), at })
    const { id: _id, ...rest } = record
    await this.db.audit.insertAsync({ _id, ...rest })
    this.audit.set(record.id, record)
    this.auditOrder.add(at.getTime(), record.id)
    return toAuditRecord(record)
  }

  async listAudit(options: { limit: number; cursor?: string }): Promise<{ items: AuditRecord[]; nextCursor?: string }> {
    const position = options.cursor === undefined ? undefined : decodeCursor(options.cursor)
    const ids = this.auditOrder.slice(options.limit + 1, position && { time: position.createdAt.getTime(), id: position._id })
    const items = ids.slice(0, options.limit).flatMap((id) => {
      const record = this.audit.get(id)
      return record ? [toAuditRecord(record)] : []
    })
    const last = items.at(-1)
    return ids.length > options.limit && last ? { items, nextCursor: encodeCursor({ createdAt: last.at, _id: last.id }) } : { items }
  }

  rateCounter(options: { name: string; points: number; durationSeconds: number }): RateCounter {
    const limiter = new RateLimiterMemory({ keyPrefix: options.name, points: options.points, duration: options.durationSeconds })
    return {
      hit: (key) =>
        limiter.consume(key).then(
          () => 0,
          (refused: unknown) => {
            if (refused instanceof RateLimiterRes) return Math.max(1, refused.msBeforeNext)
            throw refused
          },
        ),
    }
  }

  // ---- Files ----

  async putFile(file: NewFile): Promise<StoredFile> {
    const now = new Date()
    const id = newId(now.getTime())
    const finalPath = this.filePath(id)
    const tempPath = `${finalPath}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`
    try {
      const handle = await open(tempPath, 'wx', PRIVATE_FILE)
      try {
        await handle.writeFile(file.bytes)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await rename(tempPath, finalPath)
    } catch (error) {
      await unlink(tempPath).catch(() => undefined)
      throw error
    }
    const stored = toStoredFile({
      id,
      contentType: file.contentType,
      filename: file.filename,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      createdAt: now,
      ...fileLabels(file),
    })
    const { id: _id, ...rest } = stored
    await this.db.files.insertAsync({ _id, ...rest })
    this.files.set(id, stored)
    return toStoredFile(stored)
  }

  async getFileInfo(id: string): Promise<StoredFile | undefined> {
    const info = this.files.get(id)
    return info && toStoredFile(info)
  }

  async readFile(id: string): Promise<{ info: StoredFile; bytes: Uint8Array } | undefined> {
    const info = await this.getFileInfo(id)
    if (!info) return undefined
    try {
      const bytes = await readFile(this.filePath(id))
      return { info, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
    } catch (error) {
      if (isMissingFile(error)) return undefined
      throw error
    }
  }

  async deleteFile(id: string): Promise<boolean> {
    if (!isId(id)) return false
    const known = this.files.has(id)
    if (known) {
      await this.db.files.removeAsync({ _id: id }, {})
      this.files.delete(id)
    }
    try {
      await unlink(this.filePath(id))
    } catch (error) {
      if (!isMissingFile(error)) throw error
    }
    return known
  }

  async listFiles(options: Parameters<Store['listFiles']>[0]): Promise<StoredFile[]> {
    const limit = Math.floor(options.limit)
    if (!(limit >= 1)) return []
    const { after } = options
    const before = options.createdBefore.getTime()
    const comesAfter = (file: StoredFile) =>
      !after || file.createdAt.getTime() > after.createdAt.getTime() || (file.createdAt.getTime() === after.createdAt.getTime() && file.id > after.id)
    return [...this.files.values()]
      .filter((file) => file.createdAt.getTime() < before && comesAfter(file))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(toStoredFile)
  }

  async isFileInUse(id: string): Promise<boolean> {
    return isId(id) && this.catalog.isFileInUse(id)
  }

  async listUserFiles(owner: string, purpose: FilePurpose): Promise<StoredFile[]> {
    return [...this.files.values()]
      .filter((file) => file.owner === owner && file.purpose === purpose)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(toStoredFile)
  }

  async sweepStrayBlobs(createdBefore: Date): Promise<number> {
    let removed = 0
    for (const name of await readdir(this.filesDir)) {
      if (!isId(name) || this.files.has(name)) continue
      const file = this.filePath(name)
      const written = await stat(file).then((info) => info.mtimeMs, () => Infinity)
      // Checked again after the await: a putFile may have recorded it meanwhile.
      if (written < createdBefore.getTime() && !this.files.has(name)) {
        await unlink(file).catch(() => undefined)
        removed++
      }
    }
    return removed
  }

  async ping(): Promise<void> {
    try {
      await access(this.filesDir, fsConstants.R_OK | fsConstants.W_OK)
    } catch (error) {
      throw new StoreUnavailableError(`The data directory ${this.dataDir} is not usable`, { cause: error })
    }
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.db).map((db: Datastore<unknown>) => db.compactDatafileAsync()))
  }

  private filePath(id: string): string {
    return path.join(this.filesDir, id)
  }
}

function fromFileDocument(doc: FileDocument): StoredFile {
  return toStoredFile({ ...doc, id: doc._id })
}

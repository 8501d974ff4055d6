/**
 * The embedded adapter: one data file per collection under dataDir (nedb's file format, see
 * append-log.ts) plus dataDir/files/ for the bytes. One process owns a data dir at a time.
 * Every document lives in memory and every read is answered from there. A write changes memory at
 * once (so writes never interleave badly) and is acknowledged when its line is in the data file;
 * writes arriving together share one append (group commit), so a burst of writes does not queue
 * behind one disk write each.
 */
import { createHash, randomBytes } from 'node:crypto'
import { constants as fsConstants } from 'node:fs'
import { access, chmod, mkdir, readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { AppendLog, type LogDocument } from './append-log'
import { isId, newId } from './ids'
import { decodeCursor, encodeCursor } from './list-order'
import { OrderedIndex } from './ordered-index'
import {
  StoreUnavailableError,
  type AuditRecord,
  type FilePurpose,
  type DerivedMedia,
  type ListWumpusesOptions,
  type NewAuditRecord,
  type NewFile,
  type NewPack,
  type NewSession,
  type NewWumpus,
  type PackPatch,
  type PackRecord,
  type RateCounter,
  type Role,
  type SessionRecord,
  type Store,
  type StoredFile,
  type TagCount,
  type UserPatch,
  type UserRecord,
  type WumpusPage,
  type WumpusPatch,
  type WumpusRecord,
} from './port'
import { WumpusCatalog, type StoredWumpus } from './wumpus-catalog'
import {
  USER_DEFAULTS,
  copyDerived,
  fileLabels,
  newPackRecord,
  packWithout,
  patchedPack,
  toAuditRecord,
  toPackRecord,
  toSessionRecord,
  toStoredFile,
  toUserRecord,
  toWumpusRecord,
  userPatchFields,
  wumpusFields,
  wumpusPatchFields,
  newSessionRecord,
} from './records'

export interface EmbeddedStoreOptions {
  dataDir: string
}

type UserDocument = UserRecord & { _id: string }
type FileDocument = Omit<StoredFile, 'id'> & { _id: string }
type SessionDocument = Omit<SessionRecord, 'id'> & { _id: string }
type AuditDocument = Omit<AuditRecord, 'id'> & { _id: string }
type PackDocument = Omit<PackRecord, 'id'> & { _id: string }

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
  const store = new EmbeddedStore(dataDir, filesDir)
  await store.load()
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

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT'
}

/**
 * The bytes of recently read files, least recently used out first. Stored files never change, so a
 * cached copy is always right; the gallery's images are read over and over, and each read from disk
 * costs four trips through libuv's thread pool.
 */
class FileBytesCache {
  private readonly entries = new Map<string, Uint8Array>()
  private bytes = 0

  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly maxFileBytes = 1024 * 1024,
  ) {}

  get(id: string): Uint8Array | undefined {
    const bytes = this.entries.get(id)
    if (bytes) {
      this.entries.delete(id)
      this.entries.set(id, bytes)
    }
    return bytes
  }

  set(id: string, bytes: Uint8Array): void {
    if (bytes.length > this.maxFileBytes) return
    this.delete(id)
    this.entries.set(id, bytes)
    this.bytes += bytes.length
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldest)
      this.bytes -= old.length
    }
  }

  delete(id: string): void {
    const bytes = this.entries.get(id)
    if (!bytes) return
    this.entries.delete(id)
    this.bytes -= bytes.length
  }
}

/** Opens one collection's log, loading its documents through `load`. */
function openLog<T extends LogDocument>(
  dataDir: string,
  name: string,
  options: {
    load: (docs: T[]) => void
    snapshot: () => Iterable<T>
    count: () => number
    indexes?: { fieldName: string; unique?: boolean }[]
  },
) {
  return AppendLog.open<T>(path.join(dataDir, `${name}.db`), { ...options, fileMode: PRIVATE_FILE })
}

const mapValues = <T, U>(values: Iterable<T>, map: (value: T) => U): Iterable<U> => ({
  *[Symbol.iterator]() {
    for (const value of values) yield map(value)
  },
})

class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const
  private revision = 0
  private lastAuditAt = 0
  private catalog = new WumpusCatalog([])
  /** Users by email (each keeps the `_id` its data file knows it by). */
  private readonly users = new Map<string, UserDocument>()
  private readonly files = new Map<string, StoredFile>()
  private readonly fileBytes = new FileBytesCache()
  private readonly sessions = new Map<string, SessionRecord>()
  private readonly audit = new Map<string, AuditRecord>()
  private readonly auditOrder = new OrderedIndex()
  private readonly packs = new Map<string, PackRecord>()
  private readonly packOrder = new OrderedIndex()
  private logs!: {
    wumpuses: AppendLog<StoredWumpus>
    users: AppendLog<UserDocument>
    files: AppendLog<FileDocument>
    sessions: AppendLog<SessionDocument>
    audit: AppendLog<AuditDocument>
    packs: AppendLog<PackDocument>
  }

  constructor(
    private readonly dataDir: string,
    private readonly filesDir: string,
  ) {}

  async load(): Promise<void> {
    const dir = this.dataDir
    const [wumpuses, users, files, sessions, audit, packs] = await Promise.all([
      openLog<StoredWumpus>(dir, 'wumpuses', {
        load: (docs) => (this.catalog = new WumpusCatalog(docs)),
        snapshot: () => this.catalog.all(),
        count: () => this.catalog.size,
        indexes: [{ fieldName: 'u_email' }],
      }),
      openLog<UserDocument>(dir, 'users', {
        load: (docs) => docs.forEach((doc) => this.users.set(doc.email, doc)),
        snapshot: () => this.users.values(),
        count: () => this.users.size,
        indexes: [{ fieldName: 'email', unique: true }],
      }),
      openLog<FileDocument>(dir, 'files', {
        load: (docs) => docs.forEach((doc) => this.files.set(doc._id, fromFileDocument(doc))),
        snapshot: () => mapValues(this.files.values(), toFileDocument),
        count: () => this.files.size,
      }),
      openLog<SessionDocument>(dir, 'sessions', {
        load: (docs) => docs.forEach((doc) => this.sessions.set(doc._id, toSessionRecord({ ...doc, id: doc._id }))),
        snapshot: () => mapValues(this.sessions.values(), withLogId),
        count: () => this.sessions.size,
      }),
      openLog<AuditDocument>(dir, 'audit', {
        load: (docs) => docs.forEach((doc) => this.audit.set(doc._id, toAuditRecord({ ...doc, id: doc._id }))),
        snapshot: () => mapValues(this.audit.values(), withLogId),
        count: () => this.audit.size,
      }),
      openLog<PackDocument>(dir, 'packs', {
        load: (docs) => docs.forEach((doc) => this.packs.set(doc._id, toPackRecord({ ...doc, id: doc._id }))),
        snapshot: () => mapValues(this.packs.values(), withLogId),
        count: () => this.packs.size,
      }),
    ])
    this.logs = { wumpuses, users, files, sessions, audit, packs }
    this.packOrder.reset([...this.packs.values()].map(packKey))
    this.auditOrder.reset([...this.audit.values()].map((record) => ({ rank: 0, time: record.at.getTime(), id: record.id })))
  }

  // ---- Wumpuses ----

  async listWumpuses(options: ListWumpusesOptions): Promise<WumpusPage> {
    return this.catalog.list(options)
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
    this.catalog.add(record)
    this.revision++
    await this.logs.wumpuses.put(record)
    return toWumpusRecord(record)
  }

  async updateWumpus(id: string, patch: WumpusPatch): Promise<WumpusRecord | undefined> {
    const current = this.catalog.get(id)
    if (!current) return undefined
    const updated: WumpusRecord = { ...current, ...wumpusPatchFields(patch), updatedAt: new Date() }
    this.catalog.replace(updated)
    this.revision++
    await this.logs.wumpuses.put(updated)
    return toWumpusRecord(updated)
  }

  async setDerivedMedia(id: string, lottieId: string, derived: DerivedMedia | null): Promise<WumpusRecord | undefined> {
    const current = this.catalog.get(id)
    if (!current || current.files.lottie.id !== lottieId) return undefined
    const { derived: _previous, ...rest } = current
    const updated: WumpusRecord = derived ? { ...rest, derived: copyDerived(derived) } : rest
    this.catalog.replace(updated)
    this.revision++
    await this.logs.wumpuses.put(updated)
    return toWumpusRecord(updated)
  }

  async deleteWumpus(id: string): Promise<number> {
    if (!this.catalog.get(id)) return 0
    this.catalog.remove(id)
    this.revision++
    const now = new Date()
    // Packs are few (admins make them): a pass over them all is cheap next to a delete's file removals.
    const packs = [...this.packs.values()].flatMap((pack) => packWithout(pack, id, now) ?? [])
    for (const pack of packs) this.packs.set(pack.id, pack)
    await Promise.all([this.logs.wumpuses.remove(id), ...packs.map((pack) => this.logs.packs.put(withLogId(pack)))])
    return 1
  }

  async addDownloads(counts: ReadonlyMap<string, number>): Promise<void> {
    const known = new Map<string, number>()
    const updated: WumpusRecord[] = []
    for (const [id, count] of counts) {
      const record = count > 0 ? this.catalog.get(id) : undefined
      if (!record) continue
      known.set(id, count)
      updated.push({ ...record, downloads: record.downloads + count })
    }
    if (this.catalog.addDownloads(known).length > 0) this.revision++
    await Promise.all(updated.map((record) => this.logs.wumpuses.put(record)))
  }

  async listTags(): Promise<TagCount[]> {
    return this.catalog.tags()
  }

  async findWumpusByFile(fileId: string): Promise<string | undefined> {
    return isId(fileId) ? this.catalog.findByFile(fileId) : undefined
  }

  wumpusRevision(): number {
    return this.revision
  }

  async countWumpuses(): Promise<number> {
    return this.catalog.size
  }

  // ---- Packs ----

  async listPacks(options: { limit: number; cursor?: string }): Promise<{ items: PackRecord[]; total: number; nextCursor?: string }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const keys = this.packOrder.slice(options.limit + 1, after)
    const items = keys.slice(0, options.limit).flatMap(({ id }) => {
      const pack = this.packs.get(id)
      return pack ? [toPackRecord(pack)] : []
    })
    const last = items.at(-1)
    const total = this.packs.size
    return keys.length > options.limit && last ? { items, total, nextCursor: encodeCursor(packKey(last), 'new') } : { items, total }
  }

  async getPack(id: string): Promise<PackRecord | undefined> {
    const pack = this.packs.get(id)
    return pack && toPackRecord(pack)
  }

  async insertPack(pack: NewPack): Promise<PackRecord> {
    const now = new Date()
    const record = newPackRecord(newId(now.getTime()), pack, now)
    this.packs.set(record.id, record)
    this.packOrder.add(packKey(record))
    await this.logs.packs.put(withLogId(record))
    return toPackRecord(record)
  }

  async updatePack(id: string, patch: PackPatch): Promise<PackRecord | undefined> {
    const current = this.packs.get(id)
    if (!current) return undefined
    const updated = patchedPack(current, patch, new Date())
    this.packs.set(id, updated)
    await this.logs.packs.put(withLogId(updated))
    return toPackRecord(updated)
  }

  async deletePack(id: string): Promise<number> {
    const pack = this.packs.get(id)
    if (!pack) return 0
    this.packs.delete(id)
    this.packOrder.remove(packKey(pack))
    await this.logs.packs.remove(id)
    return 1
  }

  // ---- Users ----

  async getUser(email: string): Promise<UserRecord | undefined> {
    const user = this.users.get(email)
    return user && toUserRecord(user)
  }

  async upsertUser(email: string, patch: UserPatch): Promise<UserRecord> {
    const now = new Date()
    const existing = this.users.get(email)
    const user: UserDocument = existing
      ? { ...existing, ...userPatchFields(patch), updatedAt: now }
      : { _id: newId(now.getTime()), email, ...USER_DEFAULTS, ...userPatchFields(patch), createdAt: now, updatedAt: now }
    return this.writeUser(user)
  }

  private async writeUser(user: UserDocument): Promise<UserRecord> {
    this.users.set(user.email, user)
    await this.logs.users.put(user)
    return toUserRecord(user)
  }

  async listUsers(): Promise<UserRecord[]> {
    return [...this.users.values()].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0)).map(toUserRecord)
  }

  async setRole(email: string, role: Role): Promise<number> {
    const user = this.users.get(email)
    if (!user || user.role === role) return 0
    await this.writeUser({ ...user, role, updatedAt: new Date() })
    return 1
  }

  async bindUser(email: string, uid: string): Promise<UserRecord | undefined> {
    const user = this.users.get(email)
    if (!user) return undefined
    if (user.firebaseUid !== undefined) return user.firebaseUid === uid ? toUserRecord(user) : undefined
    return this.writeUser({ ...user, firebaseUid: uid, updatedAt: new Date() })
  }

  // ---- Sessions ----

  async createSession(session: NewSession): Promise<SessionRecord> {
    const record = newSessionRecord(session)
    this.sessions.set(record.id, record)
    await this.logs.sessions.put(withLogId(record))
    return toSessionRecord(record)
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(id)
    return session && toSessionRecord(session)
  }

  async deleteSession(id: string): Promise<boolean> {
    if (!this.sessions.delete(id)) return false
    await this.logs.sessions.remove(id)
    return true
  }

  async deleteUserSessions(email: string, options: { exceptId?: string } = {}): Promise<number> {
    return this.deleteSessionsWhere((s) => s.email === email && s.id !== options.exceptId)
  }

  async deleteExpiredSessions(now: Date): Promise<number> {
    return this.deleteSessionsWhere((s) => s.expiresAt <= now)
  }

  private async deleteSessionsWhere(test: (session: SessionRecord) => boolean): Promise<number> {
    const ids = [...this.sessions.values()].filter(test).map((s) => s.id)
    for (const id of ids) this.sessions.delete(id)
    await Promise.all(ids.map((id) => this.logs.sessions.remove(id)))
    return ids.length
  }

  // ---- Audit ----

  async appendAudit(entry: NewAuditRecord): Promise<AuditRecord> {
    // Entries made here keep their order even within one millisecond.
    const at = new Date(Math.max(Date.now(), this.lastAuditAt + 1))
    this.lastAuditAt = at.getTime()
    const record = toAuditRecord({ ...entry, id: newId(at.getTime()), at })
    this.audit.set(record.id, record)
    this.auditOrder.add({ rank: 0, time: at.getTime(), id: record.id })
    await this.logs.audit.put(withLogId(record))
    return toAuditRecord(record)
  }

  async listAudit(options: { limit: number; cursor?: string }): Promise<{ items: AuditRecord[]; nextCursor?: string }> {
    // Newest first, paged with the gallery's newest-first cursors.
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const keys = this.auditOrder.slice(options.limit + 1, after)
    const items = keys.slice(0, options.limit).flatMap(({ id }) => {
      const record = this.audit.get(id)
      return record ? [toAuditRecord(record)] : []
    })
    const last = items.at(-1)
    return keys.length > options.limit && last
      ? { items, nextCursor: encodeCursor({ rank: 0, time: last.at.getTime(), id: last.id }, 'new') }
      : { items }
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
      // Written to a temp name and renamed, so a crash never leaves a partial file under the id. Not
      // fsynced, like the data files: each fsync forces a journal commit that stalls every other
      // write on the disk (measured: profile updates' p99 doubled under load). A process crash loses
      // nothing acknowledged; power-loss durability is MongoDB's (journaled), not the embedded store's.
      await writeFile(tempPath, file.bytes, { flag: 'wx', mode: PRIVATE_FILE })
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
    this.files.set(id, stored)
    await this.logs.files.put(toFileDocument(stored))
    return toStoredFile(stored)
  }

  async getFileInfo(id: string): Promise<StoredFile | undefined> {
    const info = this.files.get(id)
    return info && toStoredFile(info)
  }

  async readFile(id: string): Promise<{ info: StoredFile; bytes: Uint8Array } | undefined> {
    const info = await this.getFileInfo(id)
    if (!info) return undefined
    const cached = this.fileBytes.get(id)
    if (cached) return { info, bytes: cached }
    try {
      const read = await readFile(this.filePath(id))
      const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength)
      // Deleted while it was being read: not worth keeping.
      if (this.files.has(id)) this.fileBytes.set(id, bytes)
      return { info, bytes }
    } catch (error) {
      if (isMissingFile(error)) return undefined
      throw error
    }
  }

  async deleteFile(id: string): Promise<boolean> {
    if (!isId(id)) return false
    const known = this.files.delete(id)
    this.fileBytes.delete(id)
    if (known) await this.logs.files.remove(id)
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
      !after ||
      file.createdAt.getTime() > after.createdAt.getTime() ||
      (file.createdAt.getTime() === after.createdAt.getTime() && file.id > after.id)
    return [...this.files.values()]
      .filter((file) => file.createdAt.getTime() < before && comesAfter(file))
      .sort(oldestFirst)
      .slice(0, limit)
      .map(toStoredFile)
  }

  async isFileInUse(id: string): Promise<boolean> {
    return isId(id) && this.catalog.isFileInUse(id)
  }

  async listUserFiles(owner: string, purpose: FilePurpose): Promise<StoredFile[]> {
    return [...this.files.values()]
      .filter((file) => file.owner === owner && file.purpose === purpose)
      .sort(oldestFirst)
      .map(toStoredFile)
  }

  async sweepStrayBlobs(createdBefore: Date): Promise<number> {
    let removed = 0
    for (const name of await readdir(this.filesDir)) {
      if (!isId(name) || this.files.has(name)) continue
      const file = this.filePath(name)
      const written = await stat(file).then(
        (info) => info.mtimeMs,
        () => Infinity,
      )
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
      for (const log of Object.values(this.logs)) log.assertHealthy()
      await access(this.filesDir, fsConstants.R_OK | fsConstants.W_OK)
    } catch (error) {
      throw new StoreUnavailableError(`The data directory ${this.dataDir} is not usable`, { cause: error })
    }
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.logs).map((log: AppendLog<LogDocument>) => log.close()))
  }

  private filePath(id: string): string {
    return path.join(this.filesDir, id)
  }
}

const oldestFirst = (a: StoredFile, b: StoredFile) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

function fromFileDocument(doc: FileDocument): StoredFile {
  return toStoredFile({ ...doc, id: doc._id })
}

function toFileDocument(file: StoredFile): FileDocument {
  const { id: _id, ...rest } = file
  return { _id, ...rest }
}

/** A pack's place in the newest-first order. */
function packKey(pack: PackRecord) {
  return { rank: 0, time: pack.createdAt.getTime(), id: pack.id }
}

/** A record with `id` as the `_id` its data file keys it by. */
function withLogId<T extends { id: string }>(record: T): Omit<T, 'id'> & { _id: string } {
  const { id: _id, ...rest } = record
  return { _id, ...rest }
}

/**
 * The embedded adapter: @seald-io/nedb data files under dataDir plus dataDir/files/ for the bytes.
 * One process owns a data dir at a time (nedb keeps everything in memory and appends to its files).
 */
import { createHash, randomBytes } from 'node:crypto'
import { constants as fsConstants } from 'node:fs'
import { access, mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import Datastore from '@seald-io/nedb'
import { decodeCursor, encodeCursor, isId, newId } from './ids'
import { OrderedIndex, type OrderedEntry } from './ordered-index'
import {
  DuplicateKeyError,
  StoreUnavailableError,
  type DerivedMedia,
  type ListWumpusesOptions,
  type NewFile,
  type NewWumpus,
  type Role,
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
  copyDerived,
  fileLabels,
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

const TEMP_SUFFIX = '.tmp'

export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<Store> {
  const dataDir = path.resolve(options.dataDir)
  const filesDir = path.join(dataDir, 'files')
  await mkdir(filesDir, { recursive: true })
  await removeTempFiles(filesDir)

  const wumpuses = new Datastore<WumpusRecord>({ filename: path.join(dataDir, 'wumpuses.db') })
  const users = new Datastore<UserDocument>({ filename: path.join(dataDir, 'users.db') })
  const files = new Datastore<FileDocument>({ filename: path.join(dataDir, 'files.db') })
  // Loading also rewrites each file compactly.
  await Promise.all([wumpuses.loadDatabaseAsync(), users.loadDatabaseAsync(), files.loadDatabaseAsync()])
  await users.ensureIndexAsync({ fieldName: 'email', unique: true })
  await wumpuses.ensureIndexAsync({ fieldName: 'u_email' })
  return new EmbeddedStore(dataDir, filesDir, wumpuses, users, files)
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
 * go through nedb's query engine (which sorts every matching document on each query), and a
 * count of the records referring to each file id.
 * Updated only after nedb has accepted the write.
 */
class WumpusCatalog {
  private readonly records = new Map<string, WumpusRecord>()
  readonly newest = new OrderedIndex()
  private readonly newestByUploader = new Map<string, OrderedIndex>()
  private readonly fileUses = new Map<string, number>()

  constructor(records: WumpusRecord[]) {
    const byUploader = new Map<string, OrderedEntry[]>()
    for (const record of records) {
      this.records.set(record._id, toWumpusRecord(record))
      this.countFileUses(record, 1)
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
    return this.fileUses.has(id)
  }

  add(record: WumpusRecord): void {
    this.records.set(record._id, toWumpusRecord(record))
    this.countFileUses(record, 1)
    const time = record.createdAt.getTime()
    this.newest.add(time, record._id)
    this.uploaderIndex(record.u_email).add(time, record._id)
  }

  /** For updates, which never change createdAt or u_email, so the indexes stay valid. */
  replace(record: WumpusRecord): void {
    const previous = this.records.get(record._id)
    if (!previous) return
    this.countFileUses(previous, -1)
    this.records.set(record._id, toWumpusRecord(record))
    this.countFileUses(record, 1)
  }

  remove(record: WumpusRecord): void {
    const stored = this.records.get(record._id)
    if (!stored) return
    this.records.delete(record._id)
    this.countFileUses(stored, -1)
    const time = record.createdAt.getTime()
    this.newest.remove(time, record._id)
    const byUploader = this.newestByUploader.get(record.u_email)
    byUploader?.remove(time, record._id)
    if (byUploader?.size === 0) this.newestByUploader.delete(record.u_email)
  }

  private countFileUses(record: WumpusRecord, delta: 1 | -1): void {
    for (const id of wumpusFileIds(record)) {
      const count = (this.fileUses.get(id) ?? 0) + delta
      if (count > 0) this.fileUses.set(id, count)
      else this.fileUses.delete(id)
    }
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

class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const
  private revision = 0
  private readonly catalog: WumpusCatalog

  constructor(
    private readonly dataDir: string,
    private readonly filesDir: string,
    private readonly wumpuses: Datastore<WumpusRecord>,
    private readonly users: Datastore<UserDocument>,
    private readonly files: Datastore<FileDocument>,
  ) {
    this.catalog = new WumpusCatalog(wumpuses.getAllData())
  }

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
    await this.wumpuses.insertAsync(record)
    this.catalog.add(record)
    this.revision++
    return toWumpusRecord(record)
  }

  async updateWumpus(id: string, patch: WumpusPatch): Promise<WumpusRecord | undefined> {
    if (!this.catalog.get(id)) return undefined
    const { affectedDocuments } = await this.wumpuses.updateAsync(
      { _id: id },
      { $set: { ...wumpusPatchFields(patch), updatedAt: new Date() } },
      { returnUpdatedDocs: true },
    )
    if (!affectedDocuments) return undefined
    this.catalog.replace(affectedDocuments)
    this.revision++
    return toWumpusRecord(affectedDocuments)
  }

  async setDerivedMedia(id: string, lottieId: string, derived: DerivedMedia | null): Promise<WumpusRecord | undefined> {
    const current = this.catalog.get(id)
    if (!current || current.files.lottie.id !== lottieId) return undefined
    const update = derived ? { $set: { derived: copyDerived(derived) } } : { $unset: { derived: true } }
    const query = { _id: id, 'files.lottie.id': lottieId }
    const { affectedDocuments } = await this.wumpuses.updateAsync(query, update, { returnUpdatedDocs: true })
    if (!affectedDocuments) return undefined
    this.catalog.replace(affectedDocuments)
    this.revision++
    return toWumpusRecord(affectedDocuments)
  }

  async deleteWumpus(id: string): Promise<number> {
    const record = this.catalog.get(id)
    if (!record) return 0
    const removed = await this.wumpuses.removeAsync({ _id: id }, {})
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

  async getUser(email: string): Promise<UserRecord | undefined> {
    const doc = await this.users.findOneAsync({ email })
    return doc ? toUserRecord(doc) : undefined
  }

  async upsertUser(email: string, patch: UserPatch): Promise<UserRecord> {
    const fields = userPatchFields(patch)
    const update = async () => {
      const { affectedDocuments } = await this.users.updateAsync(
        { email },
        { $set: { ...fields, updatedAt: new Date() } },
        { returnUpdatedDocs: true },
      )
      return affectedDocuments
    }
    const existing = await update()
    if (existing) return toUserRecord(existing)
    const now = new Date()
    const doc: UserDocument = {
      _id: newId(now.getTime()),
      email,
      ...USER_DEFAULTS,
      ...fields,
      createdAt: now,
      updatedAt: now,
    }
    try {
      return toUserRecord(await this.users.insertAsync(doc))
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      // Another call created this user meanwhile: apply the patch to it instead.
      const created = await update()
      if (!created) throw new DuplicateKeyError(`Duplicate user email ${email}`)
      return toUserRecord(created)
    }
  }

  async listUsers(): Promise<UserRecord[]> {
    const docs = await this.users.findAsync({}).sort({ email: 1 })
    return docs.map(toUserRecord)
  }

  async setRole(email: string, role: Role): Promise<number> {
    const { numAffected } = await this.users.updateAsync(
      { email, role: { $ne: role } },
      { $set: { role, updatedAt: new Date() } },
      {},
    )
    return numAffected
  }

  async putFile(file: NewFile): Promise<StoredFile> {
    const now = new Date()
    const id = newId(now.getTime())
    const finalPath = this.filePath(id)
    const tempPath = `${finalPath}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`
    try {
      const handle = await open(tempPath, 'wx')
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
    await this.files.insertAsync({ _id, ...rest })
    return stored
  }

  async getFileInfo(id: string): Promise<StoredFile | undefined> {
    if (!isId(id)) return undefined
    const doc = await this.files.findOneAsync({ _id: id })
    return doc ? fromFileDocument(doc) : undefined
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
    const removed = await this.files.removeAsync({ _id: id }, {})
    try {
      await unlink(this.filePath(id))
    } catch (error) {
      if (!isMissingFile(error)) throw error
    }
    return removed > 0
  }

  async listFiles(options: Parameters<Store['listFiles']>[0]): Promise<StoredFile[]> {
    const limit = Math.floor(options.limit)
    // nedb reads a limit of 0 as "no limit".
    if (!(limit >= 1)) return []
    const { after } = options
    const query = after
      ? { $and: [{ createdAt: { $lt: options.createdBefore } }, { $or: [{ createdAt: { $gt: after.createdAt } }, { createdAt: after.createdAt, _id: { $gt: after.id } }] }] }
      : { createdAt: { $lt: options.createdBefore } }
    const docs = await this.files
      .findAsync(query)
      .sort({ createdAt: 1, _id: 1 })
      .limit(limit)
    return docs.map(fromFileDocument)
  }

  async isFileInUse(id: string): Promise<boolean> {
    return isId(id) && this.catalog.isFileInUse(id)
  }

  async ping(): Promise<void> {
    try {
      await access(this.filesDir, fsConstants.R_OK | fsConstants.W_OK)
    } catch (error) {
      throw new StoreUnavailableError(`The data directory ${this.dataDir} is not usable`, { cause: error })
    }
  }

  async close(): Promise<void> {
    await Promise.all([
      this.wumpuses.compactDatafileAsync(),
      this.users.compactDatafileAsync(),
      this.files.compactDatafileAsync(),
    ])
  }

  private filePath(id: string): string {
    return path.join(this.filesDir, id)
  }
}

function fromFileDocument(doc: FileDocument): StoredFile {
  return toStoredFile({ ...doc, id: doc._id })
}

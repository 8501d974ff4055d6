/**
 * The embedded adapter: @seald-io/nedb data files under dataDir plus dataDir/files/ for the bytes.
 * One process owns a data dir at a time (nedb keeps everything in memory and appends to its files).
 */
import { createHash, randomBytes } from 'node:crypto'
import { constants as fsConstants } from 'node:fs'
import { access, mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import Datastore from '@seald-io/nedb'
import { isId, newId } from './ids'
import {
  DuplicateKeyError,
  StoreUnavailableError,
  type ListWumpusesOptions,
  type NewFile,
  type NewWumpus,
  type Role,
  type Store,
  type StoredFile,
  type TagCount,
  type UserPatch,
  type UserRecord,
  type WumpusPage,
  type WumpusPatch,
  type WumpusRecord,
} from './port'
import {
  USER_DEFAULTS,
  fileLabels,
  toStoredFile,
  toUserRecord,
  toWumpusRecord,
  userPatchFields,
  wumpusFields,
  wumpusPatchFields,
} from './records'
import { WumpusCatalog } from './wumpus-catalog'

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

  async deleteWumpus(id: string): Promise<number> {
    const record = this.catalog.get(id)
    if (!record) return 0
    const removed = await this.wumpuses.removeAsync({ _id: id }, {})
    if (removed > 0) {
      this.catalog.remove(record._id)
      this.revision++
    }
    return removed
  }

  async addDownloads(counts: ReadonlyMap<string, number>): Promise<void> {
    const stored = new Map<string, number>()
    for (const [id, count] of counts) {
      if (!(count > 0) || !this.catalog.get(id)) continue
      const { numAffected } = await this.wumpuses.updateAsync({ _id: id }, { $inc: { downloads: count } }, {})
      if (numAffected > 0) stored.set(id, count)
    }
    if (this.catalog.addDownloads(stored).length > 0) this.revision++
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

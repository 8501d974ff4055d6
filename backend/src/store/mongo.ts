/** The mongo adapter: official driver, collections `wumpuses` and `users`, files in GridFS. */
import { createHash } from 'node:crypto'
import {
  GridFSBucket,
  MongoClient,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  ObjectId,
  type Collection,
  type Db,
  type Filter,
} from 'mongodb'
import { decodeCursor, encodeCursor, isId, newId } from './ids'
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
  WUMPUS_FILE_ID_PATHS,
  copyDerived,
  derivedFileIds,
  fileLabels,
  toStoredFile,
  toUserRecord,
  toWumpusRecord,
  userPatchFields,
  wumpusFields,
  wumpusPatchFields,
} from './records'

export interface MongoStoreOptions {
  uri: string
  /** Defaults to the database named in the URI, else "wumpus-gallery". */
  dbName?: string
  /** How long to wait for a server before failing with StoreUnavailableError (default 5000). */
  serverSelectionTimeoutMS?: number
}

type UserDocument = UserRecord & { _id: string }

interface GridFile {
  _id: ObjectId
  length: number
  uploadDate: Date
  filename: string
  /** owner and purpose are missing on files stored before they existed. */
  metadata?: { contentType?: string; filename?: string; sha256?: string; owner?: string; purpose?: string }
}

const BUCKET = 'files'
const DEFAULT_DB_NAME = 'wumpus-gallery'
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const
const OLDEST_UPLOAD_FIRST = { uploadDate: 1, _id: 1 } as const
/** Server error codes that mean the deployment is (temporarily) not usable. */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436])

export async function openMongoStore(options: MongoStoreOptions): Promise<Store> {
  const client = new MongoClient(options.uri, {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5000,
    ignoreUndefined: true,
  })
  try {
    await client.connect()
    const db = client.db(options.dbName ?? dbNameFromUri(options.uri) ?? DEFAULT_DB_NAME)
    await createIndexes(db)
    return new MongoStore(client, db)
  } catch (error) {
    await client.close().catch(() => undefined)
    throw toStoreError(error)
  }
}

function dbNameFromUri(uri: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^/?]+)/.exec(uri)
  return match?.[1] ? decodeURIComponent(match[1]) : undefined
}

/** Default index names (email_1, ...), so an existing deployment's same indexes are reused. */
async function createIndexes(db: Db): Promise<void> {
  await db.collection('users').createIndexes([{ key: { email: 1 }, unique: true }])
  await db.collection('wumpuses').createIndexes([
    { key: { u_email: 1 } },
    { key: NEWEST_FIRST },
    { key: { u_email: 1, ...NEWEST_FIRST } },
    ...WUMPUS_FILE_ID_PATHS.map((path) => ({ key: { [path]: 1 } })),
  ])
  await db.collection(`${BUCKET}.files`).createIndexes([{ key: OLDEST_UPLOAD_FIRST }])
}

/** Translates a driver error into the port's error classes; other errors pass through. */
export function toStoreError(error: unknown): unknown {
  if (error instanceof MongoServerError && error.code === 11000) {
    return new DuplicateKeyError(error.message)
  }
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoNotConnectedError ||
    (error instanceof MongoServerError && typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code))
  ) {
    return new StoreUnavailableError(undefined, { cause: error })
  }
  return error
}

/** Runs a driver call, translating its errors into the port's. */
async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    throw toStoreError(error)
  }
}

class MongoStore implements Store {
  readonly kind = 'mongo' as const
  private revision = 0
  private readonly wumpuses: Collection<WumpusRecord>
  private readonly users: Collection<UserDocument>
  private readonly files: Collection<GridFile>
  private readonly chunks: Collection<{ files_id: ObjectId }>
  private readonly bucket: GridFSBucket

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    this.wumpuses = db.collection<WumpusRecord>('wumpuses')
    this.users = db.collection<UserDocument>('users')
    this.files = db.collection<GridFile>(`${BUCKET}.files`)
    this.chunks = db.collection<{ files_id: ObjectId }>(`${BUCKET}.chunks`)
    this.bucket = new GridFSBucket(db, { bucketName: BUCKET })
  }

  async listWumpuses(options: ListWumpusesOptions): Promise<WumpusPage> {
    const position = options.cursor === undefined ? undefined : decodeCursor(options.cursor)
    return guard(async () => {
      const filter: Filter<WumpusRecord> = options.u_email === undefined ? {} : { u_email: options.u_email }
      const pageFilter: Filter<WumpusRecord> = position
        ? {
            ...filter,
            $or: [
              { createdAt: { $lt: position.createdAt } },
              { createdAt: position.createdAt, _id: { $lt: position._id } },
            ],
          }
        : filter
      const [docs, total] = await Promise.all([
        this.wumpuses.find(pageFilter).sort(NEWEST_FIRST).limit(options.limit + 1).toArray(),
        this.wumpuses.countDocuments(filter),
      ])
      const items = docs.slice(0, options.limit).map(toWumpusRecord)
      const last = items[items.length - 1]
      return docs.length > options.limit && last
        ? { items, total, nextCursor: encodeCursor(last) }
        : { items, total }
    })
  }

  async getWumpus(id: string): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.wumpuses.findOne({ _id: id }))
    return doc ? toWumpusRecord(doc) : undefined
  }

  async insertWumpus(wumpus: NewWumpus): Promise<WumpusRecord> {
    const now = new Date()
    const record: WumpusRecord = {
      _id: newId(now.getTime()),
      ...wumpusFields(wumpus),
      createdAt: wumpus.createdAt ?? now,
      updatedAt: now,
    }
    await guard(() => this.wumpuses.insertOne({ ...record }))
    this.revision++
    return record
  }

  async updateWumpus(id: string, patch: WumpusPatch): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    const set = { ...wumpusPatchFields(patch), updatedAt: new Date() }
    const doc = await guard(() =>
      this.wumpuses.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' }),
    )
    if (doc) this.revision++
    return doc ? toWumpusRecord(doc) : undefined
  }

  async setDerivedMedia(id: string, lottieId: string, derived: DerivedMedia | null): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    // The derived files' ids also go into one array, indexed, so isFileInUse finds them.
    const update = derived
      ? { $set: { derived: { ...copyDerived(derived), fileIds: derivedFileIds(derived) } } }
      : { $unset: { derived: '' as const } }
    const filter = { _id: id, 'files.lottie.id': lottieId }
    const doc = await guard(() => this.wumpuses.findOneAndUpdate(filter, update, { returnDocument: 'after' }))
    if (doc) this.revision++
    return doc ? toWumpusRecord(doc) : undefined
  }

  async deleteWumpus(id: string): Promise<number> {
    if (!isId(id)) return 0
    const { deletedCount } = await guard(() => this.wumpuses.deleteOne({ _id: id }))
    if (deletedCount > 0) this.revision++
    return deletedCount
  }

  wumpusRevision(): number {
    return this.revision
  }

  countWumpuses(): Promise<number> {
    return guard(() => this.wumpuses.countDocuments({}))
  }

  async getUser(email: string): Promise<UserRecord | undefined> {
    const doc = await guard(() => this.users.findOne({ email }))
    return doc ? toUserRecord(doc) : undefined
  }

  async upsertUser(email: string, patch: UserPatch): Promise<UserRecord> {
    const attempt = async () => {
      const now = new Date()
      const set = { ...userPatchFields(patch), updatedAt: now }
      const defaults = Object.fromEntries(Object.entries(USER_DEFAULTS).filter(([key]) => !(key in set)))
      return this.users.findOneAndUpdate(
        { email },
        { $set: set, $setOnInsert: { _id: newId(now.getTime()), ...defaults, createdAt: now } },
        { upsert: true, returnDocument: 'after' },
      )
    }
    // Two first sign-ins racing on one email: the loser's insert hits the unique index; then it updates.
    const doc = await guard(() => attempt().catch((error: unknown) => {
      if (error instanceof MongoServerError && error.code === 11000) return attempt()
      throw error
    }))
    if (!doc) throw new Error(`Upsert of user ${email} returned no document`)
    return toUserRecord(doc)
  }

  async listUsers(): Promise<UserRecord[]> {
    const docs = await guard(() => this.users.find({}).sort({ email: 1 }).toArray())
    return docs.map(toUserRecord)
  }

  async setRole(email: string, role: Role): Promise<number> {
    const { modifiedCount } = await guard(() =>
      this.users.updateOne({ email, role: { $ne: role } }, { $set: { role, updatedAt: new Date() } }),
    )
    return modifiedCount
  }

  async putFile(file: NewFile): Promise<StoredFile> {
    const id = newId()
    const sha256 = createHash('sha256').update(file.bytes).digest('hex')
    const metadata = { contentType: file.contentType, filename: file.filename, sha256, ...fileLabels(file) }
    const upload = this.bucket.openUploadStreamWithId(new ObjectId(id), file.filename, { metadata })
    await guard(
      () =>
        new Promise<void>((resolve, reject) => {
          upload.once('error', reject)
          upload.once('finish', () => resolve())
          upload.end(file.bytes)
        }),
    )
    return toStoredFile({
      id,
      contentType: file.contentType,
      filename: file.filename,
      size: file.bytes.length,
      sha256,
      createdAt: upload.gridFSFile?.uploadDate ?? new Date(),
      ...fileLabels(file),
    })
  }

  async getFileInfo(id: string): Promise<StoredFile | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.files.findOne({ _id: new ObjectId(id) }))
    return doc ? fromGridFile(doc) : undefined
  }

  async readFile(id: string): Promise<{ info: StoredFile; bytes: Uint8Array } | undefined> {
    const info = await this.getFileInfo(id)
    if (!info) return undefined
    const bytes = await guard(async () => {
      const parts: Buffer[] = []
      for await (const part of this.bucket.openDownloadStream(new ObjectId(id))) parts.push(part as Buffer)
      return Buffer.concat(parts)
    })
    return { info, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
  }

  async deleteFile(id: string): Promise<boolean> {
    if (!isId(id)) return false
    const fileId = new ObjectId(id)
    return guard(async () => {
      const { deletedCount } = await this.files.deleteOne({ _id: fileId })
      await this.chunks.deleteMany({ files_id: fileId })
      return deletedCount === 1
    })
  }

  async listFiles(options: Parameters<Store['listFiles']>[0]): Promise<StoredFile[]> {
    const limit = Math.floor(options.limit)
    // The driver reads a limit of 0 as "no limit".
    if (!(limit >= 1)) return []
    const { after } = options
    const filter: Filter<GridFile> = after
      ? {
          uploadDate: { $lt: options.createdBefore },
          $or: [{ uploadDate: { $gt: after.createdAt } }, { uploadDate: after.createdAt, _id: { $gt: ObjectId.createFromHexString(after.id) } }],
        }
      : { uploadDate: { $lt: options.createdBefore } }
    const docs = await guard(() => this.files.find(filter).sort(OLDEST_UPLOAD_FIRST).limit(limit).toArray())
    return docs.map(fromGridFile)
  }

  async isFileInUse(id: string): Promise<boolean> {
    if (!isId(id)) return false
    const filter = { $or: WUMPUS_FILE_ID_PATHS.map((path) => ({ [path]: id })) }
    const doc = await guard(() => this.wumpuses.findOne(filter, { projection: { _id: 1 } }))
    return doc !== null
  }

  async ping(): Promise<void> {
    await guard(() => this.db.command({ ping: 1 }))
  }

  async close(): Promise<void> {
    await this.client.close()
  }
}

function fromGridFile(doc: GridFile): StoredFile {
  return toStoredFile({
    id: doc._id.toHexString(),
    contentType: doc.metadata?.contentType ?? 'application/octet-stream',
    filename: doc.metadata?.filename ?? doc.filename,
    size: doc.length,
    sha256: doc.metadata?.sha256 ?? '',
    createdAt: doc.uploadDate,
    ...fileLabels(doc.metadata ?? {}),
  })
}

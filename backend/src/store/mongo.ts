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
  type AnyBulkWriteOperation,
  type Collection,
  type Db,
  type Filter,
} from 'mongodb'
import { listOrder, matchScore, queryWords, type ListKey, type ListOrder } from '../../../contract/search'
import type { Platform } from '../../../contract/stickers'
import { MONGO_FILTER_FIELDS, mongoFilter, readyPlatforms } from './facets'
import { isId, newId } from './ids'
import { decodeCursor, encodeCursor, PageSelector, recordKey } from './list-order'
import { prefixFilter, SEARCH_VERSION, searchFields, type SearchFields } from './mongo-search'
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible'
import {
  DuplicateKeyError,
  FileInUseError,
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
import {
  USER_DEFAULTS,
  WUMPUS_FILE_ID_PATHS,
  copyDerived,
  derivedFileIds,
  fileLabels,
  newPackRecord,
  packCover,
  patchedPack,
  toAuditRecord,
  toPackRecord,
  toSessionRecord,
  toStoredFile,
  toUserRecord,
  toWumpusRecord,
  userPatchFields,
  wumpusFields,
  wumpusFileIds,
  wumpusPatchFields,
  newSessionRecord,
} from './records'

export interface MongoStoreOptions {
  uri: string
  /** Defaults to the database named in the URI, else "wumpus-gallery". */
  dbName?: string
  /** How long to wait for a server before failing with StoreUnavailableError (default 5000). */
  serverSelectionTimeoutMS?: number
  /** Problems at start that do not stop the store (default: printed on stderr). */
  onWarning?: (message: string) => void
}

type UserDocument = UserRecord & { _id: string }
/** Stored animations also keep their search prefixes (absent on documents not yet indexed), `fileIds`
 * repeats the record's file ids for the unique index that lets a file belong to one record only, and
 * `fits` lists the platforms with a ready export (facets.ts readyPlatforms) for the fits filter. */
type WumpusDocument = WumpusRecord & Partial<SearchFields> & { fileIds?: string[]; fits?: Platform[] }
/** How many animations carry a tag, kept up to date with every write (the tags list needs no scan). */
interface TagCountDocument {
  _id: string
  count: number
}
type SessionDocument = Omit<SessionRecord, 'id'> & { _id: string }
type AuditDocument = Omit<AuditRecord, 'id'> & { _id: string }
type PackDocument = Omit<PackRecord, 'id'> & { _id: string }

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
const MOST_DOWNLOADED_FIRST = { downloads: -1, ...NEWEST_FIRST } as const
/** What ranking a search candidate needs of it. */
const RANKING_FIELDS = { name: 1, description: 1, tags: 1, createdAt: 1, downloads: 1 } as const
const TEXT_FIELDS = ['name', 'description', 'tags'] as const
const AUDIT_NEWEST_FIRST = { at: -1, _id: -1 } as const
const RATE_LIMITS_COLLECTION = 'rateLimits'
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
    await createIndexes(db, options.onWarning ?? ((message) => console.error(message)))
    await indexOlderWumpuses(db)
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
async function createIndexes(db: Db, warn: (message: string) => void): Promise<void> {
  await db.collection('users').createIndexes([{ key: { email: 1 }, unique: true }])
  const wumpuses = db.collection<WumpusDocument>('wumpuses')
  await wumpuses.createIndexes([
    { key: { u_email: 1 } },
    { key: NEWEST_FIRST },
    { key: MOST_DOWNLOADED_FIRST },
    ...MONGO_FILTER_FIELDS.flatMap((field) => [
      { key: { [field]: 1, ...NEWEST_FIRST } },
      { key: { [field]: 1, ...MOST_DOWNLOADED_FIRST } },
    ]),
    // Multikey: one entry per stored prefix.
    { key: { searchPrefixes: 1 } },
    ...WUMPUS_FILE_ID_PATHS.map((path) => ({ key: { [path]: 1 } })),
  ])
  await db.collection('tags').createIndexes([{ key: { count: -1, _id: 1 } }])
  // Records stored before fileIds existed get it, then one unique multikey index claims every file.
  for (const doc of await wumpuses.find({ fileIds: { $exists: false } }).toArray()) {
    await wumpuses.updateOne({ _id: doc._id }, { $set: { fileIds: uniqueFileIds(doc.files) } })
  }
  try {
    await wumpuses.createIndexes([{ key: { fileIds: 1 }, unique: true }])
  } catch (error) {
    if (!(error instanceof MongoServerError && error.code === 11000)) throw error
    warn(`Some animations share files, so the unique claim on file ids is not enforced until that is fixed: ${error.message}`)
  }
  await db
    .collection(`${BUCKET}.files`)
    .createIndexes([{ key: OLDEST_UPLOAD_FIRST }, { key: { 'metadata.owner': 1, 'metadata.purpose': 1, ...OLDEST_UPLOAD_FIRST } }])
  await db.collection('sessions').createIndexes([{ key: { email: 1 } }, { key: { expiresAt: 1 }, expireAfterSeconds: 0 }])
  await db.collection('audit').createIndexes([{ key: AUDIT_NEWEST_FIRST }])
  await db.collection('packs').createIndexes([{ key: NEWEST_FIRST }, { key: { wumpusIds: 1 } }])
}

function fromPackDocument(doc: PackDocument): PackRecord {
  return toPackRecord({ ...doc, id: doc._id })
}

/** A record's file ids without repeats (a multikey index counts a value once per document anyway). */
function uniqueFileIds(files: WumpusRecord['files']): string[] {
  return [...new Set(wumpusFileIds({ files }))]
}

/** Runs a write that claims files; the unique index on fileIds refusing it means another record has one. */
async function claimingFiles<T>(files: WumpusRecord['files'], write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (error instanceof DuplicateKeyError && /fileIds/.test(error.message)) throw new FileInUseError(uniqueFileIds(files))
    throw error
  }
}

/**
 * Brings documents stored before tags, download counts or the current search prefixes up to date, in
 * batches. Runs at every start; costs one indexed query when there is nothing to do.
 */
async function indexOlderWumpuses(db: Db): Promise<void> {
  const wumpuses = db.collection<WumpusDocument>('wumpuses')
  await wumpuses.updateMany({ tags: { $exists: false } }, { $set: { tags: [] } })
  await wumpuses.updateMany({ downloads: { $exists: false } }, { $set: { downloads: 0 } })
  for await (const doc of wumpuses.find({ fits: { $exists: false } }, { projection: { files: 1, derived: 1 } })) {
    await wumpuses.updateOne({ _id: doc._id }, { $set: { fits: readyPlatforms(doc) } })
  }
  const stale = wumpuses.find({ searchVersion: { $ne: SEARCH_VERSION } }, { projection: { name: 1, description: 1, tags: 1 } })
  let batch: AnyBulkWriteOperation<WumpusDocument>[] = []
  for await (const doc of stale) {
    batch.push({ updateOne: { filter: { _id: doc._id }, update: { $set: searchFields(doc) } } })
    if (batch.length === 500) {
      await wumpuses.bulkWrite(batch, { ordered: false })
      batch = []
    }
  }
  if (batch.length > 0) await wumpuses.bulkWrite(batch, { ordered: false })
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
  private lastAuditAt = 0
  private readonly wumpuses: Collection<WumpusDocument>
  private readonly tagCounts: Collection<TagCountDocument>
  private readonly users: Collection<UserDocument>
  private readonly sessions: Collection<SessionDocument>
  private readonly audit: Collection<AuditDocument>
  private readonly packs: Collection<PackDocument>
  private readonly files: Collection<GridFile>
  private readonly chunks: Collection<{ files_id: ObjectId }>
  private readonly bucket: GridFSBucket

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    this.wumpuses = db.collection<WumpusDocument>('wumpuses')
    this.tagCounts = db.collection<TagCountDocument>('tags')
    this.users = db.collection<UserDocument>('users')
    this.sessions = db.collection<SessionDocument>('sessions')
    this.audit = db.collection<AuditDocument>('audit')
    this.packs = db.collection<PackDocument>('packs')
    this.files = db.collection<GridFile>(`${BUCKET}.files`)
    this.chunks = db.collection<{ files_id: ObjectId }>(`${BUCKET}.chunks`)
    this.bucket = new GridFSBucket(db, { bucketName: BUCKET })
  }

  async listWumpuses(options: ListWumpusesOptions): Promise<WumpusPage> {
    const words = queryWords(options.q)
    const order = listOrder(options.sort, words)
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, order)
    const filter: Filter<WumpusDocument> = mongoFilter(options)
    return guard(() =>
      words.length > 0 ? this.searchPage(words, order, filter, options.limit, after) : this.plainPage(order, filter, options.limit, after),
    )
  }

  /** Newest or most downloaded first, straight from an index: the page after the cursor and the count. */
  private async plainPage(
    order: ListOrder,
    filter: Filter<WumpusDocument>,
    limit: number,
    after: ListKey | undefined,
  ): Promise<WumpusPage> {
    const pageFilter: Filter<WumpusDocument> = after ? { ...filter, $or: afterKey(after, order) } : filter
    const [docs, total] = await Promise.all([
      this.wumpuses
        .find(pageFilter)
        .sort(order === 'popular' ? MOST_DOWNLOADED_FIRST : NEWEST_FIRST)
        .limit(limit + 1)
        .toArray(),
      this.wumpuses.countDocuments(filter),
    ])
    const items = docs.slice(0, limit).map(toWumpusRecord)
    const last = items[items.length - 1]
    return docs.length > limit && last ? { items, total, nextCursor: encodeCursor(recordKey(last, order), order) } : { items, total }
  }

  /** Candidates from the prefix index, ranked here like the embedded store ranks them; then the page's records. */
  private async searchPage(
    words: string[],
    order: ListOrder,
    filter: Filter<WumpusDocument>,
    limit: number,
    after: ListKey | undefined,
  ): Promise<WumpusPage> {
    const candidates = this.wumpuses.find({ ...filter, ...prefixFilter(words) }, { projection: RANKING_FIELDS })
    const selector = new PageSelector<string>(limit, after, (id) => id)
    for await (const doc of candidates) {
      const score = matchScore(words, doc)
      if (score === 0) continue
      const key = recordKey(toRankable(doc), order, score)
      selector.offer(key.rank, key.time, key.id)
    }
    const { values: ids, nextKey } = selector.page()
    const docs = ids.length > 0 ? await this.wumpuses.find({ _id: { $in: ids } }).toArray() : []
    const byId = new Map(docs.map((doc) => [doc._id, doc]))
    // A record deleted between the two reads is left out of this page.
    const items = ids.flatMap((id) => {
      const doc = byId.get(id)
      return doc ? [toWumpusRecord(doc)] : []
    })
    return nextKey ? { items, total: selector.total, nextCursor: encodeCursor(nextKey, order) } : { items, total: selector.total }
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
    const doc = { ...record, ...searchFields(record), fileIds: uniqueFileIds(record.files), fits: [] }
    await claimingFiles(record.files, () => guard(() => this.wumpuses.insertOne(doc)))
    this.revision++
    await this.countTags(record.tags, 1)
    return record
  }

  async updateWumpus(id: string, patch: WumpusPatch): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    const fields = wumpusPatchFields(patch)
    const fileIds = fields.files ? { fileIds: uniqueFileIds(fields.files), fits: await this.fitsWith(id, fields.files) } : {}
    const claiming = <T>(write: () => Promise<T>) => (fields.files ? claimingFiles(fields.files, write) : write())
    if (!TEXT_FIELDS.some((field) => field in fields)) {
      const set = { ...fields, ...fileIds, updatedAt: new Date() }
      const doc = await claiming(() => guard(() => this.wumpuses.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' })))
      if (doc) this.revision++
      return doc ? toWumpusRecord(doc) : undefined
    }
    // The search prefixes and tag counts follow the text: written only if the text read is still the stored one.
    for (let attempt = 0; attempt < 10; attempt++) {
      const current = await guard(() => this.wumpuses.findOne({ _id: id }))
      if (!current) return undefined
      const before = toWumpusRecord(current)
      const next = { ...before, ...fields, updatedAt: new Date() }
      const unchanged: Filter<WumpusDocument> = {
        _id: id,
        name: before.name,
        description: before.description,
        tags: current.tags ?? { $exists: false },
      }
      const set = { ...fields, ...fileIds, updatedAt: next.updatedAt, ...searchFields(next) }
      const doc = await claiming(() => guard(() => this.wumpuses.findOneAndUpdate(unchanged, { $set: set }, { returnDocument: 'after' })))
      if (!doc) continue
      this.revision++
      const updated = toWumpusRecord(doc)
      await this.countTags(
        before.tags.filter((tag) => !updated.tags.includes(tag)),
        -1,
      )
      await this.countTags(
        updated.tags.filter((tag) => !before.tags.includes(tag)),
        1,
      )
      return updated
    }
    throw new Error(`Animation ${id} kept changing while being updated`)
  }

  async setDerivedMedia(id: string, lottieId: string, derived: DerivedMedia | null): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    // The derived files' ids also go into one array, indexed, so isFileInUse finds them.
    const fits = derived ? readyPlatforms({ files: { lottie: { id: lottieId } }, derived }) : []
    const update = derived
      ? { $set: { derived: { ...copyDerived(derived), fileIds: derivedFileIds(derived) }, fits } }
      : { $unset: { derived: '' as const }, $set: { fits } }
    const filter = { _id: id, 'files.lottie.id': lottieId }
    const doc = await guard(() => this.wumpuses.findOneAndUpdate(filter, update, { returnDocument: 'after' }))
    if (doc) this.revision++
    return doc ? toWumpusRecord(doc) : undefined
  }

  /** The platforms the record would fit with these files (its exports stop fitting once its Lottie is another). */
  private async fitsWith(id: string, files: WumpusRecord['files']): Promise<Platform[]> {
    const doc = await guard(() => this.wumpuses.findOne({ _id: id }, { projection: { derived: 1 } }))
    return readyPlatforms({ files, derived: doc?.derived })
  }

  async deleteWumpus(id: string): Promise<number> {
    if (!isId(id)) return 0
    const doc = await guard(() => this.wumpuses.findOneAndDelete({ _id: id }, { projection: { tags: 1 } }))
    if (!doc) return 0
    this.revision++
    await this.countTags(doc.tags ?? [], -1)
    await this.removeFromPacks(id)
    return 1
  }

  /** Takes a deleted animation out of the packs that hold it (found by index); covers move to the first. */
  private async removeFromPacks(wumpusId: string): Promise<void> {
    const now = new Date()
    await guard(() => this.packs.updateMany({ wumpusIds: wumpusId }, { $pull: { wumpusIds: wumpusId }, $set: { updatedAt: now } }))
    for (const pack of await guard(() => this.packs.find({ coverWumpusId: wumpusId }).toArray())) {
      await guard(() =>
        this.packs.updateOne({ _id: pack._id, coverWumpusId: wumpusId }, { $set: { coverWumpusId: packCover(pack.wumpusIds, null) } }),
      )
    }
  }

  async listPacks(options: { limit: number; cursor?: string }): Promise<{ items: PackRecord[]; total: number; nextCursor?: string }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const filter: Filter<PackDocument> = after
      ? { $or: [{ createdAt: { $lt: new Date(after.time) } }, { createdAt: new Date(after.time), _id: { $lt: after.id } }] }
      : {}
    const [docs, total] = await guard(() =>
      Promise.all([
        this.packs
          .find(filter)
          .sort(NEWEST_FIRST)
          .limit(options.limit + 1)
          .toArray(),
        this.packs.countDocuments({}),
      ]),
    )
    const items = docs.slice(0, options.limit).map(fromPackDocument)
    const last = items.at(-1)
    return docs.length > options.limit && last
      ? { items, total, nextCursor: encodeCursor({ rank: 0, time: last.createdAt.getTime(), id: last.id }, 'new') }
      : { items, total }
  }

  async getPack(id: string): Promise<PackRecord | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.packs.findOne({ _id: id }))
    return doc ? fromPackDocument(doc) : undefined
  }

  async insertPack(pack: NewPack): Promise<PackRecord> {
    const now = new Date()
    const record = newPackRecord(newId(now.getTime()), pack, now)
    const { id: _id, ...rest } = record
    await guard(() => this.packs.insertOne({ _id, ...rest }))
    return record
  }

  async updatePack(id: string, patch: PackPatch): Promise<PackRecord | undefined> {
    if (!isId(id)) return undefined
    // Written only if the pack read is still the stored one, so a concurrent delete of an animation is not undone.
    for (let attempt = 0; attempt < 10; attempt++) {
      const current = await guard(() => this.packs.findOne({ _id: id }))
      if (!current) return undefined
      const { id: _id, ...next } = patchedPack(fromPackDocument(current), patch, new Date())
      const doc = await guard(() =>
        this.packs.findOneAndReplace({ _id: id, updatedAt: current.updatedAt }, next, { returnDocument: 'after' }),
      )
      if (doc) return fromPackDocument(doc)
    }
    throw new Error(`Pack ${id} kept changing while being updated`)
  }

  async deletePack(id: string): Promise<number> {
    if (!isId(id)) return 0
    const { deletedCount } = await guard(() => this.packs.deleteOne({ _id: id }))
    return deletedCount
  }

  async addDownloads(counts: ReadonlyMap<string, number>): Promise<void> {
    const updates = [...counts].filter(([id, count]) => isId(id) && count > 0)
    if (updates.length === 0) return
    const { modifiedCount } = await guard(() =>
      this.wumpuses.bulkWrite(
        updates.map(([id, count]) => ({ updateOne: { filter: { _id: id }, update: { $inc: { downloads: count } } } })),
        { ordered: false },
      ),
    )
    if (modifiedCount > 0) this.revision++
  }

  async listTags(): Promise<TagCount[]> {
    const docs = await guard(() =>
      this.tagCounts
        .find({ count: { $gt: 0 } })
        .sort({ count: -1, _id: 1 })
        .toArray(),
    )
    return docs.map((doc) => ({ tag: doc._id, count: doc.count }))
  }

  async findWumpusByFile(fileId: string): Promise<string | undefined> {
    if (!isId(fileId)) return undefined
    const filter = { $or: WUMPUS_FILE_ID_PATHS.map((path) => ({ [path]: fileId })) }
    const doc = await guard(() => this.wumpuses.findOne(filter, { projection: { _id: 1 } }))
    return doc?._id
  }

  /** Moves the counts of these tags; counts that reach 0 are removed. */
  private async countTags(tags: readonly string[], delta: 1 | -1): Promise<void> {
    if (tags.length === 0) return
    await guard(async () => {
      await this.tagCounts.bulkWrite(
        tags.map((tag) => ({ updateOne: { filter: { _id: tag }, update: { $inc: { count: delta } }, upsert: true } })),
        { ordered: false },
      )
      if (delta < 0) await this.tagCounts.deleteMany({ _id: { $in: [...tags] }, count: { $lte: 0 } })
    })
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
    const doc = await guard(() =>
      attempt().catch((error: unknown) => {
        if (error instanceof MongoServerError && error.code === 11000) return attempt()
        throw error
      }),
    )
    if (!doc) throw new Error(`Upsert of user ${email} returned no document`)
    return toUserRecord(doc)
  }

  async bindUser(email: string, uid: string): Promise<UserRecord | undefined> {
    const doc = await guard(() =>
      this.users.findOneAndUpdate(
        { email, $or: [{ firebaseUid: { $exists: false } }, { firebaseUid: uid }] },
        { $set: { firebaseUid: uid } },
        { returnDocument: 'after' },
      ),
    )
    return doc ? toUserRecord(doc) : undefined
  }

  async createSession(session: NewSession): Promise<SessionRecord> {
    const record = newSessionRecord(session)
    const { id: _id, ...rest } = record
    await guard(() => this.sessions.insertOne({ _id, ...rest }))
    return record
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const doc = await guard(() => this.sessions.findOne({ _id: id }))
    return doc ? toSessionRecord({ ...doc, id: doc._id }) : undefined
  }

  async deleteSession(id: string): Promise<boolean> {
    const { deletedCount } = await guard(() => this.sessions.deleteOne({ _id: id }))
    return deletedCount > 0
  }

  async deleteUserSessions(email: string, options: { exceptId?: string } = {}): Promise<number> {
    const filter: Filter<SessionDocument> = options.exceptId === undefined ? { email } : { email, _id: { $ne: options.exceptId } }
    const { deletedCount } = await guard(() => this.sessions.deleteMany(filter))
    return deletedCount
  }

  async deleteExpiredSessions(now: Date): Promise<number> {
    const { deletedCount } = await guard(() => this.sessions.deleteMany({ expiresAt: { $lte: now } }))
    return deletedCount
  }

  async appendAudit(entry: NewAuditRecord): Promise<AuditRecord> {
    // Entries made here keep their order even within one millisecond.
    const at = new Date(Math.max(Date.now(), this.lastAuditAt + 1))
    this.lastAuditAt = at.getTime()
    const record = toAuditRecord({ ...entry, id: newId(at.getTime()), at })
    const { id: _id, ...rest } = record
    await guard(() => this.audit.insertOne({ _id, ...rest }))
    return record
  }

  async listAudit(options: { limit: number; cursor?: string }): Promise<{ items: AuditRecord[]; nextCursor?: string }> {
    // Newest first, paged with the gallery's newest-first cursors.
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const filter: Filter<AuditDocument> = after
      ? { $or: [{ at: { $lt: new Date(after.time) } }, { at: new Date(after.time), _id: { $lt: after.id } }] }
      : {}
    const docs = await guard(() =>
      this.audit
        .find(filter)
        .sort(AUDIT_NEWEST_FIRST)
        .limit(options.limit + 1)
        .toArray(),
    )
    const items = docs.slice(0, options.limit).map((doc) => toAuditRecord({ ...doc, id: doc._id }))
    const last = items.at(-1)
    return docs.length > options.limit && last
      ? { items, nextCursor: encodeCursor({ rank: 0, time: last.at.getTime(), id: last.id }, 'new') }
      : { items }
  }

  rateCounter(options: { name: string; points: number; durationSeconds: number }): RateCounter {
    const limits = { keyPrefix: options.name, points: options.points, duration: options.durationSeconds }
    const limiter = new RateLimiterMongo({
      ...limits,
      storeClient: this.client,
      dbName: this.db.databaseName,
      tableName: RATE_LIMITS_COLLECTION,
      // While the database cannot be reached, each instance counts on its own.
      insuranceLimiter: new RateLimiterMemory(limits),
    })
    return {
      hit: (key) =>
        limiter.consume(key).then(
          () => 0,
          (refused: unknown) => {
            if (refused instanceof RateLimiterRes) return Math.max(1, refused.msBeforeNext)
            throw toStoreError(refused)
          },
        ),
    }
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
          $or: [
            { uploadDate: { $gt: after.createdAt } },
            { uploadDate: after.createdAt, _id: { $gt: ObjectId.createFromHexString(after.id) } },
          ],
        }
      : { uploadDate: { $lt: options.createdBefore } }
    const docs = await guard(() => this.files.find(filter).sort(OLDEST_UPLOAD_FIRST).limit(limit).toArray())
    return docs.map(fromGridFile)
  }

  async isFileInUse(id: string): Promise<boolean> {
    return (await this.findWumpusByFile(id)) !== undefined
  }

  async listUserFiles(owner: string, purpose: FilePurpose): Promise<StoredFile[]> {
    const docs = await guard(() =>
      this.files.find({ 'metadata.owner': owner, 'metadata.purpose': purpose }).sort(OLDEST_UPLOAD_FIRST).toArray(),
    )
    return docs.map(fromGridFile)
  }

  async sweepStrayBlobs(createdBefore: Date): Promise<number> {
    return guard(async () => {
      const ids = await this.chunks.distinct('files_id')
      const old = ids.filter((id) => id instanceof ObjectId && id.getTimestamp() < createdBefore)
      if (old.length === 0) return 0
      const recorded = new Set(
        (await this.files.find({ _id: { $in: old } }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id.toHexString()),
      )
      const stray = old.filter((id) => !recorded.has(id.toHexString()))
      if (stray.length > 0) await this.chunks.deleteMany({ files_id: { $in: stray } })
      return stray.length
    })
  }

  async ping(): Promise<void> {
    await guard(() => this.db.command({ ping: 1 }))
  }

  async close(): Promise<void> {
    await this.client.close()
  }
}

/** The cursor condition of an order: strictly after the key (both orders end on createdAt and _id). */
function afterKey(key: ListKey, order: ListOrder): Filter<WumpusDocument>[] {
  const time = new Date(key.time)
  const newest: Filter<WumpusDocument>[] = [{ createdAt: { $lt: time } }, { createdAt: time, _id: { $lt: key.id } }]
  if (order !== 'popular') return newest
  return [{ downloads: { $lt: key.rank } }, ...newest.map((condition) => ({ downloads: key.rank, ...condition }))]
}

/** A ranking candidate as recordKey reads it (documents from before download counts have none). */
function toRankable(doc: Pick<WumpusDocument, '_id' | 'createdAt' | 'downloads'>): Pick<WumpusRecord, '_id' | 'createdAt' | 'downloads'> {
  return { _id: doc._id, createdAt: doc.createdAt, downloads: doc.downloads ?? 0 }
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

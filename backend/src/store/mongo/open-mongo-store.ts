/**
 * The mongo store: the official driver, one collection per aggregate, files in GridFS. Several server
 * instances may share one database; indexes are created (or found) at every start.
 */
import { MongoClient, MongoServerError, type AnyBulkWriteOperation, type Collection, type Db } from 'mongodb'
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible'
import { MONGO_FILTER_FIELDS, readyPlatforms } from '../facets'
import type { RateCounter, Store } from '../port'
import { renderedVersion, WUMPUS_FILE_ID_PATHS } from '../records'
import { AUDIT_NEWEST_FIRST, MongoAudit } from './audit'
import { AccountCaps } from './caps'
import { correctCounts } from './counts'
import { guard, toStoreError } from './errors'
import { FAVOURITES_COLLECTION, FAVOURITES_NEWEST_FIRST, MongoFavourites } from './favourites'
import { BUCKET, MongoFiles, OLDEST_UPLOAD_FIRST } from './files'
import { MongoPacks, PERSONAL_LATEST_FIRST, PUBLIC_NEWEST_FIRST } from './packs'
import { MongoTelegramSets, setKey, TELEGRAM_SETS_COLLECTION, type TelegramSetDocument } from './telegram-sets'
import { createTelegramLinkIndexes, MongoTelegramLinks } from './telegram-links'
import { DISCORD_QUEUE, DISCORD_UPLOADS_COLLECTION, MongoDiscordUploads } from './discord-uploads'
import { MongoReports, REPORTS_BY_STATE_TARGET, REPORTS_BY_TARGET_REPORTER, REPORTS_COLLECTION } from './reports'
import { MongoNotifications, NOTIFICATIONS_COLLECTION, RECIPIENT_NEWEST_FIRST } from './notifications'
import { MongoSubmissions, STATE_OLDEST_FIRST, SUBMISSIONS_COLLECTION, SUBMITTER_NEWEST_FIRST } from './submissions'
import { MongoRenderJobs } from './render-jobs'
import { SEARCH_VERSION, searchFields } from './search'
import { MongoSessions } from './sessions'
import { MongoUsers } from './users'
import { MOST_DOWNLOADED_FIRST, MongoWumpuses, NEWEST_FIRST, ORIGINALS, REMIXES_ONLY, uniqueFileIds, type WumpusDocument } from './wumpuses'

export interface MongoStoreOptions {
  uri: string
  /** Defaults to the database named in the URI, else "wumpus-gallery". */
  dbName?: string
  /** How long to wait for a server before failing with StoreUnavailableError (default 5000). */
  serverSelectionTimeoutMS?: number
  /** Problems at start that do not stop the store (default: printed on stderr). */
  onWarning?: (message: string) => void
  /** How long a search's pages and totals, and the lists' totals, are kept for their visitors (default 2000 ms; 0 keeps none). */
  searchMaxAgeMs?: number
}

const DEFAULT_DB_NAME = 'wumpus-gallery'
export const WRITE_CONCERN = { w: 'majority', journal: true } as const
const RATE_LIMITS_COLLECTION = 'rateLimits'

export async function openMongoStore(options: MongoStoreOptions): Promise<MongoStore> {
  const client = new MongoClient(options.uri, {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5000,
    ignoreUndefined: true,
    // A write is acknowledged once a majority of the replica set has it in its journal: a power cut or a
    // failover cannot take back what a request was told is stored (w: 1 acknowledges from memory).
    writeConcern: WRITE_CONCERN,
  })
  try {
    await client.connect()
    await requireReplicaSet(client)
    const db = client.db(options.dbName ?? dbNameFromUri(options.uri) ?? DEFAULT_DB_NAME)
    await createIndexes(db)
    await migrate(db, client)
    await claimFiles(db, options.onWarning ?? ((message) => console.error(message)))
    return new MongoStore(client, db, options)
  } catch (error) {
    await client.close().catch(() => undefined)
    throw toStoreError(error)
  }
}

/** Thrown at start by a MongoDB server that cannot run transactions. */
export class StandaloneServerError extends Error {}

/**
 * Multi-document changes run in transactions, which MongoDB runs on a replica set (a one-member one will
 * do) or a sharded cluster only: a standalone server is refused at start rather than at the first delete.
 */
async function requireReplicaSet(client: MongoClient): Promise<void> {
  const hello = await client.db('admin').command({ hello: 1 })
  if (typeof hello.setName === 'string' || hello.msg === 'isdbgrid') return
  throw new StandaloneServerError(
    'MONGODB_URI names a standalone MongoDB server, and the store needs transactions, which run on a replica set only: ' +
      'start mongod with --replSet rs0 and run rs.initiate() once (a one-member replica set will do), or use Atlas.',
  )
}

function dbNameFromUri(uri: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^/?]+)/.exec(uri)
  return match?.[1] ? decodeURIComponent(match[1]) : undefined
}

/** Default index names (email_1, ...), so an existing deployment's same indexes are reused. */
async function createIndexes(db: Db): Promise<void> {
  await db.collection('users').createIndexes([{ key: { email: 1 }, unique: true }])
  const wumpuses = db.collection<WumpusDocument>('wumpuses')
  // The list orders, with and without filters, after `remixOf` (null for all but remixes: ORIGINALS), so
  // that a page of originals is one index range; the first two also list an original's remixes.
  await wumpuses.createIndexes([
    { key: { u_email: 1 } },
    { key: { remixOf: 1, ...NEWEST_FIRST } },
    { key: { remixOf: 1, ...MOST_DOWNLOADED_FIRST } },
    ...MONGO_FILTER_FIELDS.flatMap((field) => [
      { key: { [field]: 1, remixOf: 1, ...NEWEST_FIRST } },
      { key: { [field]: 1, remixOf: 1, ...MOST_DOWNLOADED_FIRST } },
    ]),
    // One owner's remixes newest first, and the places that keep them within their cap (insertRemix).
    { key: { remixOwner: 1, ...NEWEST_FIRST }, partialFilterExpression: REMIXES_ONLY },
    { key: { remixOwner: 1, remixSlot: 1 }, unique: true, partialFilterExpression: REMIXES_ONLY },
    // Multikey: one entry per stored prefix.
    { key: { searchPrefixes: 1 } },
    ...WUMPUS_FILE_ID_PATHS.map((path) => ({ key: { [path]: 1 } })),
    // Render jobs are claimed below a version: the few animations that need one.
    { key: { renderedVersion: 1 } },
    // Animations indexed for search by older rules (or none): found at each start without a scan.
    { key: { searchVersion: 1 } },
  ])
  // The list indexes from before remixes, superseded by those above.
  for (const key of [
    NEWEST_FIRST,
    MOST_DOWNLOADED_FIRST,
    ...MONGO_FILTER_FIELDS.flatMap((field) => [
      { [field]: 1, ...NEWEST_FIRST },
      { [field]: 1, ...MOST_DOWNLOADED_FIRST },
    ]),
  ]) {
    await dropIndexIfThere(wumpuses, key)
  }
  for (const counts of ['tags', 'emoji']) await db.collection(counts).createIndexes([{ key: { count: -1, _id: 1 } }])
  await db
    .collection(`${BUCKET}.files`)
    .createIndexes([{ key: OLDEST_UPLOAD_FIRST }, { key: { 'metadata.owner': 1, 'metadata.purpose': 1, ...OLDEST_UPLOAD_FIRST } }])
  const sessions = db.collection('sessions')
  await sessions.createIndexes([{ key: { email: 1 } }, { key: { expiresAt: 1 }, expireAfterSeconds: 0 }, { key: { lastUsedAt: 1 } }])
  await db.collection('audit').createIndexes([{ key: AUDIT_NEWEST_FIRST }])
  await db.collection(SUBMISSIONS_COLLECTION).createIndexes([{ key: SUBMITTER_NEWEST_FIRST }, { key: STATE_OLDEST_FIRST }])
  await db
    .collection(REPORTS_COLLECTION)
    .createIndexes([
      { key: REPORTS_BY_STATE_TARGET },
      { key: REPORTS_BY_TARGET_REPORTER, unique: true, partialFilterExpression: { state: 'open' } },
    ])
  await db.collection(NOTIFICATIONS_COLLECTION).createIndexes([{ key: RECIPIENT_NEWEST_FIRST }])
  await db
    .collection(TELEGRAM_SETS_COLLECTION)
    .createIndexes([{ key: { state: 1, retryAt: 1 } }, { key: { 'stickers.wumpusId': 1 } }, { key: { packId: 1 } }])
  await createTelegramLinkIndexes(db)
  // Discord upload jobs (issue 36): a state makes one job; the queue is read oldest first.
  await db.collection(DISCORD_UPLOADS_COLLECTION).createIndexes([{ key: { stateHash: 1 }, unique: true }, { key: DISCORD_QUEUE }])
  await db.collection('packs').createIndexes([{ key: PUBLIC_NEWEST_FIRST }, { key: PERSONAL_LATEST_FIRST }, { key: { wumpusIds: 1 } }])
  await db
    .collection(FAVOURITES_COLLECTION)
    .createIndexes([{ key: { email: 1, wumpusId: 1 }, unique: true }, { key: FAVOURITES_NEWEST_FIRST }, { key: { wumpusId: 1 } }])
}

/** One unique multikey index claims every file (after records stored before fileIds got it: migrations). */
async function claimFiles(db: Db, warn: (message: string) => void): Promise<void> {
  const wumpuses = db.collection<WumpusDocument>('wumpuses')
  try {
    await wumpuses.createIndexes([{ key: { fileIds: 1 }, unique: true }])
  } catch (error) {
    if (!(error instanceof MongoServerError && error.code === 11000)) throw error
    warn(`Some animations share files, so the unique claim on file ids is not enforced until that is fixed: ${error.message}`)
  }
}

const INDEX_NOT_FOUND = 27

/** Drops the index with these keys, when there is one. */
async function dropIndexIfThere(collection: Collection<WumpusDocument>, key: Record<string, number>): Promise<void> {
  try {
    await collection.dropIndex(key as never)
  } catch (error) {
    if (!(error instanceof MongoServerError && error.code === INDEX_NOT_FOUND)) throw error
  }
}

/** The stored schema version: one document in the `meta` collection. */
const META_COLLECTION = 'meta'
const SCHEMA_ID = 'schema'
interface SchemaDocument {
  _id: string
  version: number
}

/**
 * Brings data stored by earlier versions up to date, each step once per database: the stored schema version
 * says which have run, so a start on an up-to-date database reads one document instead of scanning
 * collections. Steps are idempotent (two instances starting at once may both run one). Step n brings the
 * database to version n + 1; new steps go at the end.
 */
const MIGRATIONS: Array<(db: Db, client: MongoClient) => Promise<void>> = [
  // 1: tags and download counts on animations stored before them.
  async (db) => {
    const wumpuses = db.collection<WumpusDocument>('wumpuses')
    await wumpuses.updateMany({ tags: { $exists: false } }, { $set: { tags: [] } })
    await wumpuses.updateMany({ downloads: { $exists: false } }, { $set: { downloads: 0 } })
  },
  // 2: the fits filter's platforms and the rendered version (render jobs).
  async (db) => {
    const wumpuses = db.collection<WumpusDocument>('wumpuses')
    const beforeKept = { $or: [{ fits: { $exists: false } }, { renderedVersion: { $exists: false } }] }
    for await (const doc of wumpuses.find(beforeKept, { projection: { files: 1, derived: 1 } })) {
      await wumpuses.updateOne({ _id: doc._id }, { $set: { fits: readyPlatforms(doc), renderedVersion: renderedVersion(doc) } })
    }
  },
  // 3: fileIds, before the unique index that claims files (claimFiles).
  async (db) => {
    const wumpuses = db.collection<WumpusDocument>('wumpuses')
    for await (const doc of wumpuses.find({ fileIds: { $exists: false } }, { projection: { files: 1 } })) {
      await wumpuses.updateOne({ _id: doc._id }, { $set: { fileIds: uniqueFileIds(doc.files) } })
    }
  },
  // 4: sessions from before the idle timeout: a full idle period from the upgrade, as on SQLite.
  async (db) => {
    await db.collection('sessions').updateMany({ lastUsedAt: { $exists: false } }, { $set: { lastUsedAt: new Date() } })
  },
  // 5: tag and emoji counts counted again from the animations: they were kept by writes apart from the
  // animation's until those ran in one transaction, so a crash between them left them off for good. (The
  // same correction runs after every start and hourly: startOrphanSweeper, WumpusRepository.correctCounts.)
  async (db, client) => {
    await correctCounts(client, db)
  },
  // 6 (issue 37, tag and emoji counts without the sensitive animations): each count's `sensitive`, counted.
  async (db, client) => {
    await correctCounts(client, db)
  },
  // 7 (issue 36, a pack's custom emoji set beside its sticker set): Telegram sets keyed by pack and kind. Each set
  // stored before (`_id` its pack's id) is a sticker set: written again under `<pack id>:stickers`, then removed.
  async (db) => {
    const sets = db.collection<TelegramSetDocument>(TELEGRAM_SETS_COLLECTION)
    for await (const doc of sets.find({ kind: { $exists: false } })) {
      const { _id: packId, ...fields } = doc
      // Two instances starting at once: the second finds it moved.
      await sets.updateOne({ _id: setKey(packId, 'stickers') }, { $setOnInsert: { ...fields, packId, kind: 'stickers' } }, { upsert: true })
      await sets.deleteOne({ _id: doc._id, kind: { $exists: false } })
    }
  },
]

/** The schema version this code brings a database to. */
export const SCHEMA_VERSION = MIGRATIONS.length

async function migrate(db: Db, client: MongoClient): Promise<void> {
  const meta = db.collection<SchemaDocument>(META_COLLECTION)
  const stored = (await meta.findOne({ _id: SCHEMA_ID }))?.version ?? 0
  // A database a newer version brought further (a rollback): its steps are not undone, and earlier ones have run.
  for (let version = stored; version < MIGRATIONS.length; version++) {
    await MIGRATIONS[version]!(db, client)
    await meta.updateOne({ _id: SCHEMA_ID }, { $max: { version: version + 1 } }, { upsert: true })
  }
  // The search rules have their own version (search.ts SEARCH_VERSION), kept beside. Animations indexed by
  // older rules are looked for at every start, through their index: during a rolling deploy, an instance
  // still on the older version may store some after the first new one started.
  await reindexSearch(db)
  if ((await meta.findOne({ _id: SEARCH_ID }))?.version !== SEARCH_VERSION) {
    await meta.updateOne({ _id: SEARCH_ID }, { $set: { version: SEARCH_VERSION } }, { upsert: true })
  }
}

const SEARCH_ID = 'search'

/** Search prefixes and words of every original indexed by older rules than SEARCH_VERSION, or none, in batches (remixes have none). */
async function reindexSearch(db: Db): Promise<void> {
  const wumpuses = db.collection<WumpusDocument>('wumpuses')
  const stale = wumpuses.find(
    // Two ranges of the searchVersion index (those without one are indexed as null); a newer version's are left alone.
    { $or: [{ searchVersion: { $lt: SEARCH_VERSION } }, { searchVersion: { $exists: false } }], ...ORIGINALS },
    { projection: { name: 1, description: 1, tags: 1, emoji: 1, keywords: 1 } },
  )
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

export class MongoStore implements Store {
  readonly kind = 'mongo' as const
  readonly packs: MongoPacks
  readonly favourites: MongoFavourites
  readonly wumpuses: MongoWumpuses
  readonly users: MongoUsers
  readonly sessions: MongoSessions
  readonly audit: MongoAudit
  readonly files: MongoFiles
  readonly renderJobs: MongoRenderJobs
  readonly telegramSets: MongoTelegramSets
  readonly telegramLinks: MongoTelegramLinks
  readonly discordUploads: MongoDiscordUploads
  readonly submissions: MongoSubmissions
  readonly reports: MongoReports
  readonly notifications: MongoNotifications

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    options: Pick<MongoStoreOptions, 'searchMaxAgeMs'> = {},
  ) {
    const caps = new AccountCaps(client, db)
    this.packs = new MongoPacks(db, caps)
    this.favourites = new MongoFavourites(db, caps)
    this.wumpuses = new MongoWumpuses(client, db, this.packs, this.favourites, options)
    this.users = new MongoUsers(db)
    this.sessions = new MongoSessions(db)
    this.audit = new MongoAudit(db)
    this.files = new MongoFiles(db)
    this.renderJobs = new MongoRenderJobs(db)
    this.telegramSets = new MongoTelegramSets(db)
    this.telegramLinks = new MongoTelegramLinks(db)
    this.discordUploads = new MongoDiscordUploads(db)
    this.submissions = new MongoSubmissions(db, caps)
    this.reports = new MongoReports(db)
    this.notifications = new MongoNotifications(db)
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

  async ping(): Promise<void> {
    await guard(() => this.db.command({ ping: 1 }))
  }

  async close(): Promise<void> {
    await this.client.close()
  }
}

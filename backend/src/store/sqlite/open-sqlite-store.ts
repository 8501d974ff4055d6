/**
 * The embedded store: one SQLite database plus the files folder under the data folder, for one server at
 * a time. A folder of the store before SQLite (nedb-format `*.db` files) is imported at its first open.
 */
import { constants as fsConstants } from 'node:fs'
import { access, chmod, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { StoreDamagedError, StoreUnavailableError, type BackupReport, type Store } from '../port'
import { backupDatabase } from './backup'
import { CommitSync } from './commit-sync'
import { SqliteAudit } from './audit'
import { DATABASE_FILE, openDatabase, sqliteCode, toStoreError, type Db } from './database'
import { SqliteFiles } from './files'
import { importLegacyStore, type ImportReport } from './legacy-import'
import { SqliteFavourites } from './favourites'
import { SqlitePacks } from './packs'
import { SqliteRateCounters } from './rate-counters'
import { SqliteTelegramSets } from './telegram-sets'
import { SqliteTelegramLinks } from './telegram-links'
import { SqliteDiscordUploads } from './discord-uploads'
import { SqliteSubmissions } from './submissions'
import { SqliteReports } from './reports'
import { SqliteNotifications } from './notifications'
import { SqliteRenderJobs } from './render-jobs'
import { SqliteSessions } from './sessions'
import { SqliteUsers } from './users'
import { SqliteWumpuses } from './wumpuses'

export interface SqliteStoreOptions {
  dataDir: string
  /** Told what an import of an older data folder did (default: printed on stdout). */
  onImport?: (report: ImportReport) => void
  /** Syncs the WAL file before writes are acknowledged (default: fdatasync); tests hold it. */
  syncWal?: ConstructorParameters<typeof CommitSync>[1]
}

const RUNNING = 'running'

/** Only the owner may read the data: accounts, sessions and unpublished uploads live there. */
const PRIVATE_DIR = 0o700

export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const dataDir = path.resolve(options.dataDir)
  try {
    return await open(dataDir, options)
  } catch (error) {
    const unusable = toStoreError(error)
    if (!(unusable instanceof StoreUnavailableError)) throw error
    const code = sqliteCode(error) ?? (error as NodeJS.ErrnoException).code
    if (unusable instanceof StoreDamagedError) {
      throw new StoreDamagedError(
        `The database ${path.join(dataDir, DATABASE_FILE)} is damaged (${code}): restore it from a backup. The server does not start on a damaged database.`,
        { cause: error },
      )
    }
    throw new StoreUnavailableError(`The data folder ${dataDir} cannot be written (${code}): the server keeps its data there.`, {
      cause: error,
    })
  }
}

async function open(dataDir: string, options: SqliteStoreOptions): Promise<Store> {
  const filesDir = path.join(dataDir, 'files')
  await mkdir(filesDir, { recursive: true, mode: PRIVATE_DIR })
  // Taken before anything in the folder changes: a second server stops here (DataDirInUseError).
  const db = openDatabase(path.join(dataDir, DATABASE_FILE), dataDir)
  try {
    await Promise.all([chmod(dataDir, PRIVATE_DIR), chmod(filesDir, PRIVATE_DIR)])
    const report = await importLegacyStore(db, dataDir)
    if (report) (options.onImport ?? printImport)(report)
    const files = new SqliteFiles(db, filesDir)
    await files.prepare()
    // The mark of a running server is still there when the last one did not close: it may have left
    // bytes without a record (and the store before SQLite, temp files). Nothing is being written yet.
    const running = db.prepare<[string, string]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)')
    const crashed = db.prepare('SELECT 1 FROM meta WHERE key = ?').get(RUNNING) !== undefined
    running.run(RUNNING, String(process.pid))
    if (crashed || report) await files.sweepStrayBlobs(new Date())
    return new SqliteStore(db, dataDir, filesDir, files, options.syncWal)
  } catch (error) {
    db.close()
    throw error
  }
}

function printImport(report: ImportReport): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', message: 'imported the data folder into SQLite', ...report }))
}

class SqliteStore implements Store {
  readonly kind = 'sqlite' as const
  readonly wumpuses: SqliteWumpuses
  readonly packs: SqlitePacks
  readonly favourites: SqliteFavourites
  readonly users: SqliteUsers
  readonly sessions: SqliteSessions
  readonly audit: SqliteAudit
  readonly renderJobs: SqliteRenderJobs
  readonly telegramSets: SqliteTelegramSets
  readonly telegramLinks: SqliteTelegramLinks
  readonly discordUploads: SqliteDiscordUploads
  readonly submissions: SqliteSubmissions
  readonly reports: SqliteReports
  readonly notifications: SqliteNotifications
  readonly files: SqliteFiles
  private readonly counters: SqliteRateCounters
  /** The first damage an operation met: the database stays damaged until it is restored, so ping fails from then on. */
  private damage: StoreDamagedError | undefined
  private readonly commits: CommitSync

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly filesDir: string,
    private readonly rawFiles: SqliteFiles,
    syncWal?: ConstructorParameters<typeof CommitSync>[1],
  ) {
    const files = rawFiles
    this.commits = new CommitSync(`${path.join(dataDir, DATABASE_FILE)}-wal`, syncWal)
    const packs = new SqlitePacks(db)
    const favourites = new SqliteFavourites(db)
    const watch = <T extends object>(repository: T) =>
      watched(repository, { db, commits: this.commits, seen: (error) => (this.damage ??= error) })
    this.packs = watch(packs)
    this.favourites = watch(favourites)
    this.wumpuses = watch(new SqliteWumpuses(db, packs, favourites))
    this.users = watch(new SqliteUsers(db))
    this.sessions = watch(new SqliteSessions(db))
    this.audit = watch(new SqliteAudit(db))
    this.renderJobs = watch(new SqliteRenderJobs(db))
    this.telegramSets = watch(new SqliteTelegramSets(db))
    this.telegramLinks = watch(new SqliteTelegramLinks(db))
    this.discordUploads = watch(new SqliteDiscordUploads(db))
    this.submissions = watch(new SqliteSubmissions(db))
    this.reports = watch(new SqliteReports(db))
    this.notifications = watch(new SqliteNotifications(db))
    this.files = watch(files)
    this.counters = new SqliteRateCounters(db)
  }

  rateCounter(options: { name: string; points: number; durationSeconds: number }) {
    return this.counters.counter(options)
  }

  /** Errors are the backup folder's as often as the store's: they pass as they are (the caller names the folder). */
  backup(into: string, options: { linkFrom?: string } = {}): Promise<BackupReport> {
    const files = this.rawFiles
    return backupDatabase({
      db: this.db,
      filesDir: this.filesDir,
      into,
      linkFrom: options.linkFrom,
      holdDeletes: () => files.holdDeletes(),
    })
  }

  async ping(): Promise<void> {
    if (this.damage) throw this.damage
    if (this.commits.failure !== undefined) {
      throw new StoreUnavailableError(`The data folder ${this.dataDir} could not be synced: restart the server once its disk is sound`, {
        cause: this.commits.failure,
      })
    }
    try {
      this.db.prepare('SELECT 1').get()
      await access(this.filesDir, fsConstants.R_OK | fsConstants.W_OK)
    } catch (error) {
      throw new StoreUnavailableError(`The data folder ${this.dataDir} is not usable`, { cause: error })
    }
  }

  async close(): Promise<void> {
    if (!this.db.open) return
    await this.commits.close()
    try {
      this.db.prepare('DELETE FROM meta WHERE key = ?').run(RUNNING)
    } finally {
      // Closed even when the disk refused that write: the next open then looks for stray bytes, as after a crash.
      this.db.close()
    }
  }
}

/**
 * The repository, its calls watched. A call during which the database changed answers only once those
 * changes are on disk (CommitSync: writes made together share one sync). One that fails because the
 * database is damaged tells `seen`, so the store's readiness turns red (a damaged page met by one request
 * is there for every later one).
 */
function watched<T extends object>(
  repository: T,
  { db, commits, seen }: { db: Db; commits: CommitSync; seen: (error: StoreDamagedError) => void },
): T {
  const changes = db.prepare('SELECT total_changes()').pluck()
  const changed = () => (db.open ? (changes.get() as number) : 0)
  const report = (error: unknown) => {
    if (error instanceof StoreDamagedError) seen(error)
    throw error
  }
  return new Proxy(repository, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        const before = changed()
        try {
          const result: unknown = value.apply(target, args)
          if (!(result instanceof Promise)) return result
          return result.then(async (answer: unknown) => {
            if (changed() !== before) await commits.durable().catch((error: unknown) => report(toStoreError(error)))
            return answer
          }, report)
        } catch (error) {
          return report(error)
        }
      }
    },
  })
}

/**
 * The SQLite database of the embedded store: one file under the data folder, opened by one server at a
 * time, in WAL mode, with every commit synced before it is acknowledged.
 */
import { chmodSync, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { StoreDamagedError, StoreUnavailableError } from '../port'

/**
 * better-sqlite3 as this Node runs it: 13 (Node-API, prebuilt in its package) from Node 22 on, 12 on
 * Node 20, which 13 does not run on. (12 on Node 24 aborts the process when V8 collects one of its
 * objects while no JavaScript context is entered: its ObjectWrap destructor asserts, seen in the tests.)
 * 13 is an optional dependency: npm installs it where its engines allow (Node 22+) and skips it quietly
 * on Node 20, where a plain dependency would print an EBADENGINE warning at every install.
 */
export const Database: typeof BetterSqlite3 = loadBetterSqlite3()

function loadBetterSqlite3(): typeof BetterSqlite3 {
  const require = createRequire(import.meta.url)
  if (Number(process.versions.node.split('.')[0]) < 22) return require('better-sqlite3') as typeof BetterSqlite3
  try {
    return require('better-sqlite3-13') as typeof BetterSqlite3
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error
    throw new Error(`better-sqlite3 13 is not installed (installed under Node 20?): run npm install again under Node ${process.version}`, {
      cause: error,
    })
  }
}

export type Db = BetterSqlite3.Database

/** The database file's name in the data folder. */
export const DATABASE_FILE = 'gallery.sqlite3'

/** Raised when another process has the data folder's database open. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string) {
    super(
      `The data folder ${dataDir} is in use by another Wumpus Gallery server. Stop that server first, or give this one its own DATA_DIR.`,
    )
    this.name = 'DataDirInUseError'
  }
}

/**
 * The schema, version by version: a database is brought up to the last one at open. Every list order
 * and filter has an index (contract/search.ts orders: rank desc, createdAt desc, id desc), so a page is
 * one index range; `seq` is an animation's small integer key, shared by its rows in the other tables.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

  CREATE TABLE wumpuses (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    u_email TEXT NOT NULL,
    u_name TEXT NOT NULL,
    tags TEXT NOT NULL,
    files TEXT NOT NULL,
    derived TEXT,
    downloads INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX wumpuses_newest ON wumpuses (created_at DESC, id DESC);
  CREATE INDEX wumpuses_popular ON wumpuses (downloads DESC, created_at DESC, id DESC);

  -- What a list can be filtered or counted by (store/facets.ts: uploader, tag, platform, emoji), with the newest-first
  -- keys copied, so that a filtered page newest first is one index range too. (Download counts change
  -- all the time: they stay in wumpuses alone.)
  CREATE TABLE wumpus_facets (
    facet TEXT NOT NULL,
    seq INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    id TEXT NOT NULL,
    PRIMARY KEY (facet, seq)
  ) WITHOUT ROWID;
  CREATE INDEX wumpus_facets_newest ON wumpus_facets (facet, created_at DESC, id DESC);
  CREATE INDEX wumpus_facets_of ON wumpus_facets (seq);

  -- Every normalized word of the searched fields, with the fields holding it (contract/search.ts
  -- FIELD_BIT) and the animation's creation time (for ordering matches without reading the animations).
  CREATE TABLE wumpus_words (
    word TEXT NOT NULL,
    seq INTEGER NOT NULL,
    fields INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (word, seq)
  ) WITHOUT ROWID;

  -- The files an animation refers to (its three formats and what was made from its Lottie): a file
  -- belongs to one animation only.
  CREATE TABLE wumpus_files (
    file_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX wumpus_files_of ON wumpus_files (seq);

  CREATE TABLE files (
    id TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    filename TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    owner TEXT,
    purpose TEXT
  ) WITHOUT ROWID;
  CREATE INDEX files_oldest ON files (created_at, id);
  -- Listed by owner: profile images (a user keeps a few not yet used).
  CREATE INDEX files_images_by_owner ON files (owner, created_at, id) WHERE purpose = 'image';

  CREATE TABLE users (
    email TEXT PRIMARY KEY,
    user_name TEXT NOT NULL,
    role TEXT NOT NULL,
    photo TEXT NOT NULL,
    cover TEXT NOT NULL,
    url TEXT NOT NULL,
    job TEXT NOT NULL,
    description TEXT NOT NULL,
    firebase_uid TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    uid TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX sessions_by_email ON sessions (email);
  CREATE INDEX sessions_by_end ON sessions (expires_at);

  CREATE TABLE packs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    cover_wumpus_id TEXT,
    wumpus_ids TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX packs_newest ON packs (created_at DESC, id DESC);
  CREATE TABLE pack_members (
    wumpus_id TEXT NOT NULL,
    pack_id TEXT NOT NULL,
    PRIMARY KEY (wumpus_id, pack_id)
  ) WITHOUT ROWID;

  CREATE TABLE audit (
    id TEXT PRIMARY KEY,
    at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id TEXT NOT NULL,
    target_name TEXT NOT NULL,
    changes TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX audit_newest ON audit (at DESC, id DESC);

  CREATE TABLE rate_counters (
    key TEXT PRIMARY KEY,
    window_end INTEGER NOT NULL,
    points INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // Emoji (with their names) and keywords: JSON arrays, [] for the animations stored before.
  `
  ALTER TABLE wumpuses ADD COLUMN emoji TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE wumpuses ADD COLUMN keywords TEXT NOT NULL DEFAULT '[]';
  `,
  // Render jobs (port RenderJobRepository, sqlite/render-jobs.ts): the version of the current derived
  // media (records.ts renderedVersion), below which an animation needs a render; the lease; the failures.
  `
  ALTER TABLE wumpuses ADD COLUMN rendered_version INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE wumpuses ADD COLUMN render_owner TEXT;
  ALTER TABLE wumpuses ADD COLUMN render_until INTEGER;
  ALTER TABLE wumpuses ADD COLUMN render_failures INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE wumpuses ADD COLUMN render_failed_version INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE wumpuses ADD COLUMN render_retry_at INTEGER;
  UPDATE wumpuses SET rendered_version = json_extract(derived, '$.version')
  WHERE json_extract(derived, '$.source') = json_extract(files, '$.lottie.id') AND json_extract(derived, '$.error') IS NULL;
  CREATE INDEX wumpuses_render_jobs ON wumpuses (rendered_version);
  `,
  // When each session was last used (the idle timeout). Not known for open sessions: they get a full
  // idle period from the upgrade rather than being ended by it.
  `
  ALTER TABLE sessions ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
  UPDATE sessions SET last_used_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000;
  CREATE INDEX sessions_by_last_use ON sessions (last_used_at);
  `,
  // Favourites (sqlite/favourites.ts): one row per user and animation, paged newest favourited first.
  `
  CREATE TABLE favourites (
    email TEXT NOT NULL,
    wumpus_id TEXT NOT NULL,
    favourited_at INTEGER NOT NULL,
    PRIMARY KEY (email, wumpus_id)
  ) WITHOUT ROWID;
  CREATE INDEX favourites_newest ON favourites (email, favourited_at DESC, wumpus_id DESC);
  CREATE INDEX favourites_of_wumpus ON favourites (wumpus_id);
  `,
  // Personal packs (sqlite/packs.ts): every pack stored before is public; each field's latest edit time
  // (a JSON object of field to ms) is its updatedAt. /packs lists the public ones, an owner their own.
  `
  ALTER TABLE packs ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public';
  ALTER TABLE packs ADD COLUMN edited_at TEXT NOT NULL DEFAULT '{}';
  UPDATE packs SET edited_at = json_object(
    'name', updated_at, 'description', updated_at, 'wumpusIds', updated_at, 'coverWumpusId', updated_at, 'visibility', updated_at
  );
  DROP INDEX packs_newest;
  CREATE INDEX packs_public_newest ON packs (created_at DESC, id DESC) WHERE visibility = 'public';
  CREATE INDEX packs_personal_updated ON packs (created_by, updated_at DESC, id DESC) WHERE visibility <> 'public';
  `,
  // Remixes (port RemixInfo): the remix as JSON and the original's id, NULL on every other animation. They
  // are never listed: they get no words nor facets, and the unfiltered orders' indexes leave them out.
  // Remixes are listed by owner (u_email) and by original, newest first, each from its own partial index.
  `
  ALTER TABLE wumpuses ADD COLUMN remix TEXT;
  ALTER TABLE wumpuses ADD COLUMN remix_of TEXT;
  DROP INDEX wumpuses_newest;
  DROP INDEX wumpuses_popular;
  CREATE INDEX wumpuses_newest ON wumpuses (created_at DESC, id DESC) WHERE remix_of IS NULL;
  CREATE INDEX wumpuses_popular ON wumpuses (downloads DESC, created_at DESC, id DESC) WHERE remix_of IS NULL;
  CREATE INDEX wumpuses_remixes_by_owner ON wumpuses (u_email, created_at DESC, id DESC) WHERE remix_of IS NOT NULL;
  CREATE INDEX wumpuses_remixes_of ON wumpuses (remix_of, created_at DESC, id DESC) WHERE remix_of IS NOT NULL;
  `,
  // Colour slots (port ColourSlots) as JSON: NULL until read, for the animations stored before too (the
  // server reads theirs at start or when first asked, services/colour-slots.ts).
  `
  ALTER TABLE wumpuses ADD COLUMN colour_slots TEXT;
  `,
  // A pack's members by pack: a pack's write replaces its rows (135 ms at 1.2M rows without it, under 1 ms with).
  `
  CREATE INDEX pack_members_by_pack ON pack_members (pack_id);
  `,
  // How many animations hold each facet, kept by triggers in the write's own transaction: tag and emoji
  // counts and list totals read a row or a short range, not a count over wumpus_facets.
  `
  CREATE TABLE facet_counts (facet TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO facet_counts (facet, count) SELECT facet, count(*) FROM wumpus_facets GROUP BY facet;
  CREATE TRIGGER facet_counts_insert AFTER INSERT ON wumpus_facets BEGIN
    INSERT INTO facet_counts (facet, count) VALUES (new.facet, 1) ON CONFLICT (facet) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER facet_counts_delete AFTER DELETE ON wumpus_facets BEGIN
    UPDATE facet_counts SET count = count - 1 WHERE facet = old.facet;
    DELETE FROM facet_counts WHERE facet = old.facet AND count = 0;
  END;
  `,
  // Telegram sticker sets, one per pack (port TelegramSetRecord; IF NOT EXISTS: upgrade tests roll a new
  // database's version back over it): what a run knows of the set is JSON in
  // `progress`; due runs are found by state and retry time.
  `
  CREATE TABLE IF NOT EXISTS telegram_sets (
    pack_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    removing INTEGER NOT NULL DEFAULT 0,
    generation INTEGER NOT NULL,
    progress TEXT NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER,
    retry_at INTEGER,
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS telegram_sets_due ON telegram_sets (state, retry_at);
  `,
  // Licence (contract/licence.ts) and credit: the animations stored before are the gallery's own ('' credit), this gallery only.
  `
  ALTER TABLE wumpuses ADD COLUMN licence TEXT NOT NULL DEFAULT 'gallery-only';
  ALTER TABLE wumpuses ADD COLUMN credit TEXT NOT NULL DEFAULT '';
  `,
  // Submissions (port SubmissionRecord; sqlite/submissions.ts): the record as JSON, with what lists and counts
  // go by beside it: a submitter's newest first, one state's oldest first (the review queue).
  `
  CREATE TABLE submissions (
    id TEXT PRIMARY KEY,
    u_email TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX submissions_by_submitter ON submissions (u_email, created_at DESC, id DESC);
  CREATE INDEX submissions_by_state ON submissions (state, created_at, id);
  `,
  // Reports (port ReportRecord; sqlite/reports.ts): the record as JSON beside what grouping, finding one
  // reporter's open report and deciding a target's open reports go by.
  `
  CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    target_id TEXT NOT NULL,
    reporter_key TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX reports_by_state_target ON reports (state, target_kind, target_id, created_at);
  CREATE INDEX reports_by_target_reporter ON reports (target_kind, target_id, reporter_key, state);
  `,
  // Notifications (port NotificationRecord; sqlite/notifications.ts): the record as JSON beside what one
  // recipient's list (newest first), their unread count and marking read go by. At most NOTIFICATIONS_KEPT a
  // recipient, so the unread count reads that few index entries.
  `
  CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    recipient TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    read INTEGER NOT NULL DEFAULT 0,
    doc TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX notifications_by_recipient ON notifications (recipient, created_at DESC, id DESC);
  `,
  // Hidden animations (port HiddenInfo, as JSON; NULL on all others): like remixes, in no list, so the
  // unfiltered list orders leave them out of their partial indexes (their facet and word rows are removed);
  // a maker's hidden ones are found by their own (the reports against a submitter's animations).
  `
  ALTER TABLE wumpuses ADD COLUMN hidden TEXT;
  DROP INDEX wumpuses_newest;
  DROP INDEX wumpuses_popular;
  CREATE INDEX wumpuses_newest ON wumpuses (created_at DESC, id DESC) WHERE remix_of IS NULL AND hidden IS NULL;
  CREATE INDEX wumpuses_popular ON wumpuses (downloads DESC, created_at DESC, id DESC) WHERE remix_of IS NULL AND hidden IS NULL;
  CREATE INDEX wumpuses_hidden_by_owner ON wumpuses (u_email) WHERE hidden IS NOT NULL;
  `,
  // Sensitive animations (port WumpusRecord.sensitive; those stored before are not) and the users' choice to
  // see them in lists (UserRecord.showSensitive, off). Every animation that is not sensitive holds the
  // facet 'g:' (facets.ts GENERAL_FACET): the lists without sensitive ones read its range like any filter.
  `
  ALTER TABLE wumpuses ADD COLUMN sensitive INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE users ADD COLUMN show_sensitive INTEGER NOT NULL DEFAULT 0;
  INSERT INTO wumpus_facets (facet, seq, created_at, id) SELECT 'g:', seq, created_at, id FROM wumpuses WHERE remix_of IS NULL AND hidden IS NULL;
  `,
  // Telegram links (issue 36, sqlite/telegram-links.ts): an account's linked Telegram user and its newest start
  // code's hash, one row per account; a personal pack's set keeps its owner.
  `
  CREATE TABLE telegram_links (
    email TEXT PRIMARY KEY,
    telegram_user_id INTEGER UNIQUE,
    linked_at INTEGER,
    code_hash TEXT UNIQUE,
    code_expires_at INTEGER,
    code_pack_id TEXT
  ) WITHOUT ROWID;
  ALTER TABLE telegram_sets ADD COLUMN owner_user_id INTEGER;
  `,
  // Tag and emoji counts without the sensitive animations (issue 37): a sensitive animation's tags and
  // emoji again as facets 'st:' and 'se:' (facets.ts), counted by the facet_counts triggers; a listed
  // animation without 'g:' is a sensitive one.
  `
  INSERT INTO wumpus_facets (facet, seq, created_at, id)
    SELECT 's' || facet, seq, created_at, id FROM wumpus_facets AS f
    WHERE ((facet >= 't:' AND facet < 't;') OR (facet >= 'e:' AND facet < 'e;'))
      AND NOT EXISTS (SELECT 1 FROM wumpus_facets AS g WHERE g.facet = 'g:' AND g.seq = f.seq);
  `,
  // Discord upload jobs (issue 36, "Add to my Discord server"; sqlite/discord-uploads.ts): the record as JSON beside
  // what claiming goes by (the oldest unfinished job, its lease and retry time); a state makes one job (its hash unique).
  `
  CREATE TABLE IF NOT EXISTS discord_uploads (
    id TEXT PRIMARY KEY,
    state_hash TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER,
    retry_at INTEGER,
    doc TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS discord_uploads_queue ON discord_uploads (created_at, id) WHERE state IN ('waiting', 'uploading');
  `,
  // Telegram sets by pack and kind (issue 36: a pack's custom emoji set beside its sticker set): the table made
  // again with the key (pack_id, kind), every set stored before a sticker set. Columns by name, so it also runs
  // over a table already made so (upgrade tests roll a new database's version back over it).
  `
  CREATE TABLE telegram_sets_by_kind (
    pack_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    removing INTEGER NOT NULL DEFAULT 0,
    generation INTEGER NOT NULL,
    progress TEXT NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER,
    retry_at INTEGER,
    owner_user_id INTEGER,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (pack_id, kind)
  ) WITHOUT ROWID;
  INSERT INTO telegram_sets_by_kind
    (pack_id, kind, name, state, reason, removing, generation, progress, lease_owner, lease_until, retry_at, owner_user_id, updated_at)
    SELECT pack_id, 'stickers', name, state, reason, removing, generation, progress, lease_owner, lease_until, retry_at, owner_user_id, updated_at
    FROM telegram_sets;
  DROP TABLE telegram_sets;
  ALTER TABLE telegram_sets_by_kind RENAME TO telegram_sets;
  CREATE INDEX telegram_sets_due ON telegram_sets (state, retry_at);
  `,
]

/** The newest schema this code knows. */
export function knownSchemaVersion(): number {
  return MIGRATIONS.length
}

/**
 * Opens (creating when new) the database and takes the data folder for this process: SQLite's exclusive
 * locking mode holds the file's lock until the database is closed or the process ends (a crash included),
 * so a second server on the same folder is refused (DataDirInUseError) before it changes anything.
 */
export function openDatabase(file: string, dataDir: string): Db {
  const db = new Database(file)
  try {
    // Taken by a new database only: an animation's row (with its derived media) is 2-3 KB, one to a 4 KB page.
    db.pragma('page_size = 8192')
    takeDataDir(db, dataDir)
    // Accounts and sessions live there: the owner's only (SQLite gives its -wal file the same mode).
    chmodSync(file, 0o600)
    db.pragma('journal_mode = WAL')
    // NORMAL: a commit is written to the WAL without a sync; the store acknowledges a write only once the
    // WAL is synced (commit-sync.ts: one fdatasync shared by the writes made together, off the event loop).
    db.pragma('synchronous = NORMAL')
    migrate(db)
    // What the migrations (or a recovery of the WAL) wrote, on disk before anything is served.
    db.pragma('wal_checkpoint(TRUNCATE)')
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** Takes the data folder's lock for this connection, or throws DataDirInUseError when another process has it. */
export function takeDataDir(db: Db, dataDir: string): void {
  db.pragma('locking_mode = EXCLUSIVE')
  db.pragma('busy_timeout = 0')
  try {
    // The first write takes the exclusive lock, and keeps it until the connection closes.
    db.exec('BEGIN EXCLUSIVE; COMMIT')
  } catch (error) {
    if (sqliteCode(error) === 'SQLITE_BUSY') throw new DataDirInUseError(dataDir)
    throw error
  }
}

/** Throws DataDirInUseError when another process has the folder's database open (for `npm start`, before it starts anything). */
export function assertDataDirFree(dataDir: string): void {
  const file = path.join(dataDir, DATABASE_FILE)
  if (existsSync(file)) openDatabase(file, dataDir).close()
}

/** Raised when the database was brought to a schema this code does not know (by a newer version of the gallery). */
export class DatabaseNewerError extends Error {
  constructor(file: string, version: number) {
    super(
      `The database ${file} was upgraded by a newer Wumpus Gallery (schema ${version}; this one knows up to ${MIGRATIONS.length}). Run that newer version, or restore a backup taken before the upgrade.`,
    )
    this.name = 'DatabaseNewerError'
  }
}

function migrate(db: Db): void {
  const version = db.pragma('user_version', { simple: true }) as number
  // Never written by code that cannot read it: it stops before changing anything.
  if (version > MIGRATIONS.length) throw new DatabaseNewerError(db.name, version)
  for (let next = version; next < MIGRATIONS.length; next++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[next]!)
      db.pragma(`user_version = ${next + 1}`)
    })()
  }
}

export function sqliteCode(error: unknown): string | undefined {
  return error instanceof Database.SqliteError ? error.code : undefined
}

/** SQLite and file system errors that mean the disk cannot take writes now (full, read only, failing). */
const UNAVAILABLE_SQLITE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|PROTOCOL)/
/** SQLite's errors for a file that is damaged, which waiting for room or a retry will not mend. */
const DAMAGED_SQLITE = /^SQLITE_(NOTADB|CORRUPT)/
const UNAVAILABLE_ERRNO = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EACCES', 'EPERM', 'EFBIG'])

/** The port's StoreUnavailableError for errors of the disk (StoreDamagedError for a damaged file); others pass through. */
export function toStoreError(error: unknown): unknown {
  const code = sqliteCode(error) ?? (error as NodeJS.ErrnoException | null)?.code
  if (typeof code !== 'string') return error
  if (DAMAGED_SQLITE.test(code))
    return new StoreDamagedError(`The database is damaged (${code}): restore it from a backup`, { cause: error })
  if (UNAVAILABLE_SQLITE.test(code) || UNAVAILABLE_ERRNO.has(code)) {
    return new StoreUnavailableError(`The data folder cannot be written: ${code}`, { cause: error })
  }
  return error
}

/** Runs a store operation, turning the disk's errors into StoreUnavailableError. */
export async function guarded<T>(operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    throw toStoreError(error)
  }
}

/** Reads and writes a JSON text column. */
export const json = {
  write: (value: unknown): string => JSON.stringify(value),
  read: <T>(text: string): T => JSON.parse(text) as T,
}

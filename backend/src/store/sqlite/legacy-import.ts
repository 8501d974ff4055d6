/**
 * Imports a data folder of the store before SQLite (until 2026-11): one nedb-format file per collection
 * (`wumpuses.db`, `files.db`, ...: a JSON document per line, dates as {"$$date": ms}, a later line for an
 * `_id` replacing the earlier, `{"$$deleted": true, "_id": ...}` removing it). Files are read as streams,
 * line by line, twice: the first pass finds each document's last line, the second imports those lines;
 * so a file of any size imports in little memory. A line that cannot be read is reported with its number
 * and skipped; a record glued after a line a full disk cut short is recovered. The old files are then
 * moved aside into `pre-sqlite-<time>/` (never deleted), with the report.
 */
import { createReadStream } from 'node:fs'
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { isId } from '../ids'
import type { AuditRecord, PackRecord, SessionRecord, StoredFile, UserRecord, WumpusRecord } from '../port'
import { toAuditRecord, toPackRecord, toSessionRecord, toStoredFile, toUserRecord, toWumpusRecord, USER_DEFAULTS } from '../records'
import { SqliteAudit } from './audit'
import { json, type Db } from './database'
import { SqliteFiles } from './files'
import { SqliteFavourites } from './favourites'
import { SqlitePacks } from './packs'
import { SqliteSessions } from './sessions'
import { SqliteUsers } from './users'
import { SqliteWumpuses } from './wumpuses'

export interface ImportReport {
  from: string
  /** Where the old files were moved. */
  keptIn: string
  imported: Record<string, number>
  /** Lines that could not be read or held no valid record, with their numbers. */
  damaged: DamagedLine[]
  /** Records glued after a damaged line, recovered. */
  recovered: number
  tookMs: number
}

export interface DamagedLine {
  file: string
  line: number
  problem: string
}

type Doc = Record<string, unknown> & { _id: string }

/** The collections in import order (packs after animations, so nothing refers to what is not there yet). */
const COLLECTIONS = ['users', 'sessions', 'files', 'wumpuses', 'packs', 'audit'] as const
type Collection = (typeof COLLECTIONS)[number]

const IMPORT_KEY = 'legacy-import'
const BATCH = 2000
/** How many damaged lines the log shows; the report file in the kept folder lists them all. */
const LOGGED_DAMAGE = 100

/** Imports the old files in the data folder, if any; answers what it did, or undefined when there was nothing. */
export async function importLegacyStore(db: Db, dataDir: string): Promise<ImportReport | undefined> {
  const sources = await legacySources(dataDir)
  if (sources.size === 0) return undefined
  const state = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(IMPORT_KEY)?.value
  if (state !== undefined && state !== 'started') {
    // Imported before; the process stopped before moving the old files aside.
    await moveAside(dataDir, sources, json.read<ImportReport>(state))
    return undefined
  }
  if (state === undefined && hasData(db)) {
    throw new Error(
      `${dataDir} holds both a database and data files of the older store (${[...sources.values()].join(', ')}); move those files away to start.`,
    )
  }
  const started = Date.now()
  setImportState(db, 'started')
  clearTables(db)
  // One commit per batch of BATCH documents, under the 'started' mark: a crash or power cut during the
  // import leaves a database the next start clears and imports again. The checkpoint below syncs it all.
  const report: ImportReport = { from: dataDir, keptIn: '', imported: {}, damaged: [], recovered: 0, tookMs: 0 }
  const packs = new SqlitePacks(db)
  const repos: Repositories = {
    wumpuses: new SqliteWumpuses(db, packs, new SqliteFavourites(db)),
    packs,
    files: new SqliteFiles(db, path.join(dataDir, 'files')),
    users: new SqliteUsers(db),
    sessions: new SqliteSessions(db),
    audit: new SqliteAudit(db),
  }
  for (const collection of COLLECTIONS) {
    const file = sources.get(collection)
    if (!file) continue
    report.imported[collection] = await importFile(db, path.join(dataDir, file), file, report, (doc) => insertDoc(collection, doc, repos))
  }
  report.tookMs = Date.now() - started
  report.keptIn = path.join(dataDir, `pre-sqlite-${new Date(started).toISOString().replace(/[:.]/g, '-')}`)
  // Committed (and synced) before the old files move: a crash in between imports nothing twice.
  setImportState(db, json.write({ ...report, damaged: report.damaged.slice(0, LOGGED_DAMAGE) }))
  db.pragma('wal_checkpoint(TRUNCATE)')
  await moveAside(dataDir, sources, report)
  return { ...report, damaged: report.damaged.slice(0, LOGGED_DAMAGE) }
}

/** The old data files present, by collection; a compaction a crash interrupted may have left only `<name>.db~`. */
async function legacySources(dataDir: string): Promise<Map<Collection, string>> {
  const names = new Set(await readdir(dataDir))
  const sources = new Map<Collection, string>()
  for (const collection of COLLECTIONS) {
    const file = `${collection}.db`
    if (names.has(file)) sources.set(collection, file)
    else if (names.has(`${file}~`)) sources.set(collection, `${file}~`)
  }
  return sources
}

function hasData(db: Db): boolean {
  return ['wumpuses', 'files', 'users', 'sessions', 'packs', 'audit'].some(
    (table) => db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined,
  )
}

function clearTables(db: Db): void {
  db.transaction(() => {
    for (const table of [
      'wumpuses',
      'wumpus_facets',
      'wumpus_words',
      'wumpus_files',
      'files',
      'users',
      'sessions',
      'packs',
      'pack_members',
      'audit',
    ])
      db.prepare(`DELETE FROM ${table}`).run()
  })()
}

function setImportState(db: Db, value: string): void {
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(IMPORT_KEY, value)
}

async function moveAside(dataDir: string, sources: Map<Collection, string>, report: ImportReport): Promise<void> {
  const keptIn = report.keptIn || path.join(dataDir, 'pre-sqlite')
  await mkdir(keptIn, { recursive: true, mode: 0o700 })
  await writeFile(path.join(keptIn, 'import-report.json'), JSON.stringify(report, null, 2) + '\n', { mode: 0o600 })
  const names = new Set(await readdir(dataDir))
  for (const file of sources.values()) {
    for (const name of [file.replace(/~$/, ''), `${file.replace(/~$/, '')}~`]) {
      if (names.has(name)) await rename(path.join(dataDir, name), path.join(keptIn, name))
    }
  }
}

/** Imports one file's documents (the last line of each `_id`, unless deleted); answers how many. */
async function importFile(
  db: Db,
  file: string,
  name: string,
  report: ImportReport,
  insert: (doc: Doc) => string | undefined,
): Promise<number> {
  // Pass 1: the line holding each document's latest version.
  const latest = new Map<string, number>()
  for await (const { number, doc } of documents(file)) {
    if (doc === undefined) continue
    if (doc.$$deleted === true) latest.delete(doc._id)
    else latest.set(doc._id, number)
  }
  // Pass 2: import those lines.
  let imported = 0
  let batch: Array<{ number: number; doc: Doc }> = []
  const flush = async () => {
    db.transaction(() => {
      for (const { number, doc } of batch) {
        const problem = insert(doc)
        if (problem) report.damaged.push({ file: name, line: number, problem })
        else imported++
      }
    })()
    batch = []
    await yieldToEvents()
  }
  for await (const { number, doc, problem, recovered } of documents(file)) {
    if (problem) report.damaged.push({ file: name, line: number, problem })
    if (recovered) report.recovered++
    if (doc === undefined || latest.get(doc._id) !== number) continue
    batch.push({ number, doc })
    if (batch.length === BATCH) await flush()
  }
  if (batch.length > 0) await flush()
  return imported
}

/** Every line of a data file read as a document (index lines skipped), with its line number. */
async function* documents(file: string): AsyncGenerator<{ number: number; doc?: Doc; problem?: string; recovered?: boolean }> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })
  let number = 0
  for await (const line of lines) {
    number++
    if (line.trim() === '') continue
    const parsed = parseLine(line)
    if (parsed === 'index') continue
    yield { number, ...parsed }
  }
}

const DOC_START = /\{"(?:_id|\$\$deleted)":/g

/** A line as a document; when it does not read whole, the last document glued behind a cut-short one. */
function parseLine(line: string): { doc?: Doc; problem?: string; recovered?: boolean } | 'index' {
  const whole = parseDoc(line)
  if (whole !== undefined) return whole
  for (const match of line.matchAll(DOC_START)) {
    if (match.index === 0) continue
    const tail = parseDoc(line.slice(match.index))
    if (tail !== undefined && tail !== 'index') return { ...tail, problem: 'cut short; the record after it was recovered', recovered: true }
  }
  return { problem: 'not a readable JSON document' }
}

function parseDoc(text: string): { doc: Doc } | 'index' | undefined {
  let value: unknown
  try {
    // No reviver: JSON.parse calling one for every value made reading twice as slow. Dates are read in revive().
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const doc = value as Record<string, unknown>
  if ('$$indexCreated' in doc || '$$indexRemoved' in doc) return 'index'
  return typeof doc._id === 'string' ? { doc: doc as Doc } : undefined
}

/** The document with its dates ({"$$date": ms} where the record shapes have dates) as Dates. */
function revive(doc: Doc): Doc {
  const date = (value: unknown) => {
    const ms = (value as { $$date?: unknown } | null)?.$$date
    return typeof ms === 'number' ? new Date(ms) : value
  }
  const revived: Doc = { ...doc }
  for (const key of ['createdAt', 'updatedAt', 'at', 'expiresAt']) if (key in revived) revived[key] = date(revived[key])
  const derived = revived.derived as Record<string, unknown> | undefined
  if (derived && typeof derived === 'object') revived.derived = { ...derived, madeAt: date(derived.madeAt) }
  return revived
}

/** The repositories the import writes through, inside its transactions. */
interface Repositories {
  wumpuses: SqliteWumpuses
  packs: SqlitePacks
  files: SqliteFiles
  users: SqliteUsers
  sessions: SqliteSessions
  audit: SqliteAudit
}

/** Stores one document; answers why it could not, or undefined. Runs inside a transaction. */
function insertDoc(collection: Collection, stored: Doc, repos: Repositories): string | undefined {
  const doc = revive(stored)
  try {
    switch (collection) {
      case 'wumpuses':
        return restored(asWumpus(doc), (record) => repos.wumpuses.restore(record), 'an animation')
      case 'files':
        return restored(asFile(doc), (file) => repos.files.restore(file), 'a file')
      case 'users':
        return restored(asUser(doc), (user) => repos.users.restore(user), 'a user')
      case 'sessions':
        return restored(asSession(doc), (session) => repos.sessions.restore(session), 'a session')
      case 'packs':
        return restored(asPack(doc), (pack) => repos.packs.write(pack), 'a pack')
      case 'audit':
        return restored(asAudit(doc), (entry) => repos.audit.restore(entry), 'an audit')
    }
  } catch (error) {
    return `could not be imported: ${error instanceof Error ? error.message : String(error)}`
  }
}

function restored<T>(record: T | undefined, restore: (record: T) => void, what: string): string | undefined {
  if (record === undefined) return `not ${what} record`
  restore(record)
  return undefined
}

// ---- Shapes of the old documents: what is needed is checked, the rest is normalized by records.ts ----

const isString = (value: unknown): value is string => typeof value === 'string'
const isDate = (value: unknown): value is Date => value instanceof Date && !Number.isNaN(value.getTime())
const isRef = (value: unknown): boolean => {
  const ref = value as { id?: unknown; filename?: unknown } | null
  return ref !== null && typeof ref === 'object' && isString(ref.id) && isString(ref.filename)
}

function asWumpus(doc: Doc): WumpusRecord | undefined {
  const files = doc.files as Record<string, unknown> | undefined
  if (!isId(doc._id) || !isString(doc.name) || !isString(doc.description) || !isString(doc.u_email) || !isString(doc.u_name))
    return undefined
  if (!files || !isRef(files.gif) || !isRef(files.apng) || !isRef(files.lottie) || !isDate(doc.createdAt)) return undefined
  const tags = Array.isArray(doc.tags) ? doc.tags.filter(isString) : []
  const downloads = typeof doc.downloads === 'number' && doc.downloads >= 0 ? Math.floor(doc.downloads) : 0
  const derived =
    doc.derived && typeof doc.derived === 'object' && isDate((doc.derived as { madeAt?: unknown }).madeAt) ? doc.derived : undefined
  return toWumpusRecord({
    ...(doc as unknown as WumpusRecord),
    tags,
    downloads,
    ...(derived ? { derived: derived as WumpusRecord['derived'] } : { derived: undefined }),
    updatedAt: isDate(doc.updatedAt) ? doc.updatedAt : doc.createdAt,
  })
}

function asFile(doc: Doc): StoredFile | undefined {
  if (!isId(doc._id) || !isString(doc.contentType) || !isString(doc.filename) || typeof doc.size !== 'number' || !isDate(doc.createdAt))
    return undefined
  return toStoredFile({ ...(doc as unknown as StoredFile), id: doc._id, sha256: isString(doc.sha256) ? doc.sha256 : '' })
}

function asUser(doc: Doc): UserRecord | undefined {
  if (!isString(doc.email) || !isDate(doc.createdAt)) return undefined
  const profile = Object.fromEntries(
    Object.entries(USER_DEFAULTS).map(([key, fallback]) => [key, isString(doc[key]) ? doc[key] : fallback]),
  ) as typeof USER_DEFAULTS
  return toUserRecord({
    email: doc.email,
    ...profile,
    role: doc.role === 'admin' ? 'admin' : 'user',
    ...(isString(doc.firebaseUid) ? { firebaseUid: doc.firebaseUid } : {}),
    createdAt: doc.createdAt,
    updatedAt: isDate(doc.updatedAt) ? doc.updatedAt : doc.createdAt,
  })
}

function asSession(doc: Doc): SessionRecord | undefined {
  if (!isString(doc.email) || !isString(doc.uid) || !isDate(doc.createdAt) || !isDate(doc.expiresAt)) return undefined
  // Not known then: a full idle period from the import, as the SQLite migration gives.
  const lastUsedAt = new Date()
  return toSessionRecord({ id: doc._id, email: doc.email, uid: doc.uid, createdAt: doc.createdAt, expiresAt: doc.expiresAt, lastUsedAt })
}

function asPack(doc: Doc): PackRecord | undefined {
  if (!isId(doc._id) || !isString(doc.name) || !isString(doc.description) || !isString(doc.createdBy) || !isDate(doc.createdAt))
    return undefined
  if (!Array.isArray(doc.wumpusIds) || !doc.wumpusIds.every(isString)) return undefined
  return toPackRecord({
    id: doc._id,
    name: doc.name,
    description: doc.description,
    coverWumpusId: isString(doc.coverWumpusId) ? doc.coverWumpusId : null,
    wumpusIds: doc.wumpusIds,
    createdBy: doc.createdBy,
    createdAt: doc.createdAt,
    updatedAt: isDate(doc.updatedAt) ? doc.updatedAt : doc.createdAt,
  })
}

function asAudit(doc: Doc): AuditRecord | undefined {
  const target = doc.target as Record<string, unknown> | undefined
  if (!isDate(doc.at) || !isString(doc.actor) || !isString(doc.action) || !Array.isArray(doc.changes)) return undefined
  if (!target || !isString(target.type) || !isString(target.id) || !isString(target.name)) return undefined
  return toAuditRecord({ ...(doc as unknown as AuditRecord), id: doc._id })
}

/**
 * The SQLite store's repositories on a real database file whose statements are recorded as they run:
 * the SQL the adapter really prepares (for query plan tests) and how often each ran (for cache tests).
 */
import { mkdtemp, mkdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Statement } from 'better-sqlite3'
import { DATABASE_FILE, openDatabase, type Db } from '../../src/store/sqlite/database'
import { SqliteFavourites } from '../../src/store/sqlite/favourites'
import { SqliteFiles } from '../../src/store/sqlite/files'
import { SqliteNotifications } from '../../src/store/sqlite/notifications'
import { SqlitePacks } from '../../src/store/sqlite/packs'
import { SqliteReports } from '../../src/store/sqlite/reports'
import { SqliteSubmissions } from '../../src/store/sqlite/submissions'
import { SqliteWumpuses } from '../../src/store/sqlite/wumpuses'

export interface RecordingSqlite {
  db: Db
  wumpuses: SqliteWumpuses
  packs: SqlitePacks
  favourites: SqliteFavourites
  files: SqliteFiles
  notifications: SqliteNotifications
  submissions: SqliteSubmissions
  reports: SqliteReports
  /** How many times each SQL text ran (all, get, run, iterate), since the repositories were made. */
  runs: Map<string, number>
  /** Runs of the statements whose SQL contains `part`. */
  runsOf(part: string): number
  /** EXPLAIN QUERY PLAN of a statement (not recorded), its parameters bound to NULL: the plan's details joined by '; '. */
  plan(sql: string): string
  close(): Promise<void>
}

const RUNNERS = new Set(['all', 'get', 'run', 'iterate'])
/** Modes that answer the statement itself: the recording one is answered instead. */
const MODES = new Set(['pluck', 'raw', 'expand', 'safeIntegers', 'bind'])

export async function openRecordingSqlite(): Promise<RecordingSqlite> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'wumpus-sqlite-plans-'))
  const filesDir = path.join(dataDir, 'files')
  await mkdir(filesDir)
  const db = openDatabase(path.join(dataDir, DATABASE_FILE), dataDir)
  const runs = new Map<string, number>()
  const prepare = db.prepare.bind(db) as (...args: unknown[]) => Statement
  const recording = (sql: string, statement: Statement): Statement => {
    const proxy: Statement = new Proxy(statement, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver)
        if (typeof value !== 'function') return value
        const method = value as (...args: unknown[]) => unknown
        if (RUNNERS.has(key as string))
          return (...args: unknown[]) => {
            runs.set(sql, (runs.get(sql) ?? 0) + 1)
            return method.apply(target, args)
          }
        if (MODES.has(key as string))
          return (...args: unknown[]) => {
            method.apply(target, args)
            return proxy
          }
        return method.bind(target)
      },
    })
    return proxy
  }
  db.prepare = ((...args: unknown[]) => recording(args[0] as string, prepare(...args))) as Db['prepare']
  const packs = new SqlitePacks(db)
  const favourites = new SqliteFavourites(db)
  const wumpuses = new SqliteWumpuses(db, packs, favourites)
  const files = new SqliteFiles(db, filesDir)
  await files.prepare()
  return {
    db,
    wumpuses,
    packs,
    favourites,
    files,
    notifications: new SqliteNotifications(db),
    submissions: new SqliteSubmissions(db),
    reports: new SqliteReports(db),
    runs,
    runsOf: (part) => [...runs].reduce((sum, [sql, count]) => sum + (sql.includes(part) ? count : 0), 0),
    plan: (sql) => queryPlan(prepare(`EXPLAIN QUERY PLAN ${sql}`), sql),
    close: async () => {
      db.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

function queryPlan(explain: Statement, sql: string): string {
  const named = [...sql.matchAll(/@(\w+)/g)].map((match) => match[1]!)
  const rows = (
    named.length > 0
      ? explain.all(Object.fromEntries(named.map((name) => [name, null])))
      : explain.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null))
  ) as Array<{ detail: string }>
  return rows.map((row) => row.detail).join('; ')
}

/**
 * Backups of the embedded store while it serves, and their restore. A backup is a folder shaped like the
 * part of a data folder it copies: `gallery.sqlite3` (SQLite's online backup, page by page between
 * requests, so writes go on meanwhile and the copy holds every write committed before it ended) and
 * `files/` with the bytes of every file record in that copy, plus `backup.json` describing it. A stored
 * file's bytes never change once written (a new version is a new file), so a backup may hard-link them
 * from an earlier backup instead of copying them again.
 */
import { constants as fsConstants } from 'node:fs'
import { copyFile, link, mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { isId } from '../ids'
import { BACKUP_MANIFEST, type BackupReport } from '../port'
import { Database, DATABASE_FILE, knownSchemaVersion, takeDataDir, type Db } from './database'

/** Raised when a folder given as a backup is not a complete, readable one. */
export class BackupInvalidError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BackupInvalidError'
  }
}

/** Pages copied between two turns of the event loop (8 KB each: 1 MB), so requests go on during a backup. */
const PAGES_PER_STEP = 128
/** Files copied between two turns of the event loop. */
const FILES_PER_STEP = 200

/**
 * Copies the database and the files it refers to into `into` (a new or empty folder). `holdDeletes` keeps
 * stored bytes in place while the copy runs: a file deleted meanwhile may still be in the copied database.
 */
export async function backupDatabase(options: {
  db: Db
  filesDir: string
  into: string
  linkFrom?: string
  holdDeletes: () => () => Promise<void>
}): Promise<BackupReport> {
  const { db, filesDir, into } = options
  await mkdir(path.join(into, 'files'), { recursive: true, mode: 0o700 })
  if ((await readdir(into)).some((name) => name !== 'files')) throw new BackupInvalidError(`The backup folder ${into} is not empty`)
  const release = options.holdDeletes()
  try {
    const databaseFile = path.join(into, DATABASE_FILE)
    await db.backup(databaseFile, { progress: () => PAGES_PER_STEP })
    const takenAt = new Date()
    const copy = new Database(databaseFile, { readonly: true })
    let ids: Array<{ id: string; size: number }>
    let schemaVersion: number
    try {
      schemaVersion = copy.pragma('user_version', { simple: true }) as number
      ids = copy.prepare<[], { id: string; size: number }>('SELECT id, size FROM files').all()
    } finally {
      copy.close()
    }
    let fileBytes = 0
    let linkedFiles = 0
    for (let start = 0; start < ids.length; start += FILES_PER_STEP) {
      await Promise.all(
        ids.slice(start, start + FILES_PER_STEP).map(async ({ id, size }) => {
          const target = path.join(into, 'files', id)
          if (options.linkFrom && (await linkSameFile(path.join(options.linkFrom, 'files', id), target, size))) linkedFiles++
          else await copyDurably(path.join(filesDir, id), target)
          fileBytes += size
        }),
      )
      await yieldToEvents()
    }
    await syncPath(path.join(into, 'files'))
    const report: BackupReport = {
      takenAt,
      schemaVersion,
      databaseBytes: (await stat(databaseFile)).size,
      files: ids.length,
      fileBytes,
      linkedFiles,
    }
    await writeDurably(path.join(into, BACKUP_MANIFEST), `${JSON.stringify(report, null, 2)}\n`)
    await syncPath(into)
    return report
  } finally {
    await release()
  }
}

/** Reads a backup folder's description, after checking that the folder is a complete backup this code can restore. */
export async function checkBackup(dir: string): Promise<BackupReport> {
  let report: BackupReport
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, BACKUP_MANIFEST), 'utf8')) as BackupReport
    report = { ...manifest, takenAt: new Date(manifest.takenAt) }
  } catch {
    throw new BackupInvalidError(`${dir} is not a finished backup: it has no readable ${BACKUP_MANIFEST}`)
  }
  let db: Db
  try {
    db = new Database(path.join(dir, DATABASE_FILE), { readonly: true, fileMustExist: true })
  } catch {
    throw new BackupInvalidError(`${dir} is not a backup: it has no ${DATABASE_FILE}`)
  }
  try {
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > knownSchemaVersion()) {
      throw new BackupInvalidError(
        `The backup ${dir} was taken by a newer Wumpus Gallery (schema ${version}): restore it with that version`,
      )
    }
    const problems = db.pragma('quick_check', { simple: true }) as string
    if (problems !== 'ok') throw new BackupInvalidError(`The backup's database is damaged: ${problems}`)
    for (const { id, size } of db.prepare<[], { id: string; size: number }>('SELECT id, size FROM files').iterate()) {
      const found = await stat(path.join(dir, 'files', id)).catch(() => undefined)
      if (found?.size !== size) throw new BackupInvalidError(`The backup ${dir} lacks the bytes of file ${id}`)
    }
  } catch (error) {
    if (error instanceof BackupInvalidError) throw error
    throw new BackupInvalidError(`The backup's database cannot be read: ${(error as Error).message}`)
  } finally {
    db.close()
  }
  return report
}

/**
 * Puts a checked backup in place of the data folder's database and files, with no server running on it
 * (the caller makes sure). What was there is moved, never deleted, into `before-restore-<time>/` inside
 * the data folder; the answer names that folder.
 */
export async function restoreBackup(from: string, dataDir: string): Promise<{ report: BackupReport; movedAside: string }> {
  const report = await checkBackup(from)
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  // Copied into a side folder first, then renamed into place: a restore cut short leaves the data folder as it was.
  const incoming = path.join(dataDir, '.restoring')
  await rm(incoming, { recursive: true, force: true })
  await mkdir(path.join(incoming, 'files'), { recursive: true, mode: 0o700 })
  await copyDurably(path.join(from, DATABASE_FILE), path.join(incoming, DATABASE_FILE))
  const names = (await readdir(path.join(from, 'files'))).filter(isId)
  for (let start = 0; start < names.length; start += FILES_PER_STEP) {
    await Promise.all(
      names.slice(start, start + FILES_PER_STEP).map(async (id) => {
        const source = path.join(from, 'files', id)
        const target = path.join(incoming, 'files', id)
        // A stored file's bytes never change: a hard link shares them at no cost where both are on one disk.
        await link(source, target).catch(() => copyDurably(source, target))
      }),
    )
  }
  await syncPath(path.join(incoming, 'files'))
  const movedAside = path.join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`)
  // Only now, with the copy whole, is anything of the data folder moved.
  await mkdir(movedAside, { mode: 0o700 })
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-journal`, 'files']) {
    await rename(path.join(dataDir, name), path.join(movedAside, name)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    })
  }
  await rename(path.join(incoming, 'files'), path.join(dataDir, 'files'))
  await rename(path.join(incoming, DATABASE_FILE), path.join(dataDir, DATABASE_FILE))
  await rm(incoming, { recursive: true, force: true })
  await syncPath(dataDir)
  return { report, movedAside }
}

/** Links the earlier backup's copy when it is there whole; answers whether it did. */
async function linkSameFile(source: string, target: string, size: number): Promise<boolean> {
  const found = await stat(source).catch(() => undefined)
  if (found?.size !== size) return false
  try {
    await link(source, target)
    return true
  } catch {
    return false
  }
}

async function copyDurably(source: string, target: string): Promise<void> {
  // A copy-on-write clone where the file system has them, else a plain copy.
  await copyFile(source, target, fsConstants.COPYFILE_EXCL | fsConstants.COPYFILE_FICLONE)
  await syncPath(target)
}

async function writeDurably(file: string, text: string): Promise<void> {
  await writeFile(file, text, { mode: 0o600, flag: 'wx' })
  await syncPath(file)
}

async function syncPath(file: string): Promise<void> {
  const handle = await open(file, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * A backup of a data folder no server runs on (`npm run backup` with the server stopped). Its lock is
 * taken as a server takes it, so a server started meanwhile waits for nothing and is refused; the
 * database is copied as it is, without the upgrade a start would make.
 */
export async function backupStoppedDataDir(dataDir: string, into: string): Promise<BackupReport> {
  const file = path.join(dataDir, DATABASE_FILE)
  let db: Db
  try {
    db = new Database(file, { fileMustExist: true })
  } catch {
    throw new BackupInvalidError(`There is no database to back up in ${dataDir}`)
  }
  try {
    takeDataDir(db, dataDir)
    return await backupDatabase({ db, filesDir: path.join(dataDir, 'files'), into, holdDeletes: () => async () => undefined })
  } finally {
    db.close()
  }
}

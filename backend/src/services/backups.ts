/**
 * Backups of the embedded store into the backup folder (BACKUP_DIR): on an admin's request and, when set,
 * on a schedule; the folder keeps the newest few. Each backup is a folder `backup-<time>`, written as
 * `.partial-<time>` and renamed once whole, so a folder with the final name is always a finished backup.
 * A backup hard-links the files the previous one holds already: a stored file's bytes never change.
 */
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { conflict, unavailable } from '../domain/errors'
import type { Logger } from '../logger'
import { BACKUP_MANIFEST, type BackupReport, type Store } from '../store/port'

export interface BackupSummary extends BackupReport {
  name: string
}

export interface Backups {
  /** Makes a backup now (or joins the one under way) and answers it. */
  backUpNow(): Promise<BackupSummary>
  /** The finished backups in the folder, newest first. */
  list(): Promise<BackupSummary[]>
  /** Starts the schedule (when the config sets one); answers its stop. */
  schedule(): () => void
}

const PREFIX = 'backup-'
const PARTIAL = '.partial-'
/** After a scheduled backup failed (a full disk, say), the next try comes this much later at the soonest. */
const RETRY_MS = 15 * 60_000

export function createBackups(options: {
  store: Store
  /** The backup folder; unset: no backups on this server. */
  dir?: string
  /** How many backups the folder keeps: the oldest beyond are removed after each new one. */
  keep: number
  /** Time between scheduled backups; 0: only on request. */
  intervalMs: number
  logger: Logger
  now?: () => Date
}): Backups {
  const { store, dir, keep, logger } = options
  const now = options.now ?? (() => new Date())
  let running: Promise<BackupSummary> | undefined

  const usable = (): string => {
    if (!store.backup) {
      throw conflict('This server keeps its data in MongoDB: back it up with mongodump or your provider’s backups', { reason: 'mongodb' })
    }
    if (!dir) throw conflict('Backups are not set up on this server: set BACKUP_DIR', { reason: 'no-backup-dir' })
    return dir
  }

  const list = async (): Promise<BackupSummary[]> => {
    const folder = usable()
    const names = await readdir(folder).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    })
    const found: BackupSummary[] = []
    for (const name of names
      .filter((n) => n.startsWith(PREFIX))
      .sort()
      .reverse()) {
      const manifest = await readFile(path.join(folder, name, BACKUP_MANIFEST), 'utf8').catch(() => undefined)
      if (!manifest) continue
      const report = JSON.parse(manifest) as BackupReport
      found.push({ ...report, takenAt: new Date(report.takenAt), name })
    }
    return found
  }

  const make = async (folder: string): Promise<BackupSummary> => {
    await mkdir(folder, { recursive: true, mode: 0o700 })
    // What a backup stopped by a crash or a full disk left.
    for (const name of await readdir(folder))
      if (name.startsWith(PARTIAL)) await rm(path.join(folder, name), { recursive: true, force: true })
    const earlier = await list()
    const previous = earlier[0]
    const base = `${PREFIX}${now().toISOString().replace(/[:.]/g, '-')}`
    let name = base
    for (let n = 2; earlier.some((backup) => backup.name === name); n++) name = `${base}-${n}`
    const partial = path.join(folder, `${PARTIAL}${name.slice(PREFIX.length)}`)
    try {
      const report = await store.backup!(partial, previous && { linkFrom: path.join(folder, previous.name) })
      await rename(partial, path.join(folder, name))
      for (const old of (await list()).slice(keep)) await rm(path.join(folder, old.name), { recursive: true, force: true })
      return { ...report, name }
    } catch (error) {
      await rm(partial, { recursive: true, force: true }).catch(() => undefined)
      throw error
    }
  }

  const backUpNow = async (): Promise<BackupSummary> => {
    const folder = usable()
    running ??= make(folder)
      .catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code
        // The disk's errors (ENOSPC, EACCES…, SQLITE_FULL…) as the backup folder's: the gallery itself serves on.
        if (typeof code === 'string' && /^(E[A-Z]+|SQLITE_\w+)$/.test(code))
          throw unavailable(`The backup could not be written into ${folder} (${code})`)
        throw error
      })
      .finally(() => (running = undefined))
    return running
  }

  const schedule = (): (() => void) => {
    if (!dir || !store.backup || options.intervalMs === 0) return () => undefined
    let timer: NodeJS.Timeout | undefined
    let stopped = false
    const next = async (failed = false) => {
      // Due one interval after the newest backup, so a server restarted more often than that still makes them.
      const newest = (await list().catch(() => []))[0]
      let wait = newest ? Math.max(0, newest.takenAt.getTime() + options.intervalMs - now().getTime()) : 0
      if (failed) wait = Math.max(wait, Math.min(options.intervalMs, RETRY_MS))
      if (stopped) return
      timer = setTimeout(() => {
        backUpNow().then(
          (backup) => {
            logger.info('backup made', { name: backup.name, files: backup.files, bytes: backup.databaseBytes + backup.fileBytes })
            void next()
          },
          (error: unknown) => {
            logger.error('backup failed', { error: String(error) })
            void next(true)
          },
        )
      }, wait)
      timer.unref()
    }
    void next()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }

  return { backUpNow, list, schedule }
}

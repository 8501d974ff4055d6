import { mkdtempSync, rmSync } from 'node:fs'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { addWumpus } from '../../../test/support/test-server'
import type { Store, WumpusRecord } from '../port'
import { backupStoppedDataDir, checkBackup, restoreBackup } from './backup'
import { Database, DATABASE_FILE, DataDirInUseError } from './database'
import type { SqliteFiles } from './files'
import { openSqliteStore } from './open-sqlite-store'

const root = mkdtempSync(path.join(tmpdir(), 'wumpus-backup-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let folders = 0
const folder = () => path.join(root, `f${++folders}`)

/** Enough animations (with long descriptions) for a database of several MB: its copy takes many steps. */
async function fill(store: Store, count: number): Promise<WumpusRecord[]> {
  const added: WumpusRecord[] = []
  for (let i = 0; i < count; i++) added.push(await addWumpus(store, { name: `Filler ${i}`, description: 'wumpus '.repeat(20_000) }))
  return added
}

interface Write {
  kind: 'insert' | 'delete'
  record: WumpusRecord
  acknowledgedAt: number
  /** Acknowledged while the backup was being made. */
  during: boolean
}

describe('SQLite backups', () => {
  it('copies while writes go on, holding every write acknowledged before its copy ended, and restores into a store that has them', async () => {
    const dataDir = folder()
    const store = await openSqliteStore({ dataDir })
    const kept = await fill(store, 40)
    const writes: Write[] = []
    let writing = true
    let backingUp = false
    let n = 0
    // A write started on every turn of the event loop (up to 8 at once, as requests come together),
    // animations with their files and deletes of them, all through the backup.
    const write = async (i: number) => {
      if (i % 3 === 2 && kept.length > 0) {
        const record = kept.shift()!
        await store.wumpuses.delete(record._id)
        for (const file of Object.values(record.files)) await store.files.delete(file.id)
        writes.push({ kind: 'delete', record, acknowledgedAt: Date.now(), during: backingUp })
      } else {
        const record = await addWumpus(store, { name: `Written ${i}` })
        writes.push({ kind: 'insert', record, acknowledgedAt: Date.now(), during: backingUp })
      }
    }
    const started: Promise<void>[] = []
    let inFlight = 0
    const writer = (async () => {
      while (writing) {
        if (inFlight < 8) {
          inFlight++
          started.push(write(n++).finally(() => inFlight--))
        }
        await yieldToEvents()
      }
    })()
    while (writes.length < 3) await yieldToEvents()
    const into = folder()
    backingUp = true
    const report = await store.backup!(into)
    backingUp = false
    writing = false
    await writer
    await Promise.all(started)
    await store.close()

    const before = writes.filter((write) => write.acknowledgedAt < report.takenAt.getTime())
    // The backup really ran under writes, deletes included.
    expect(writes.filter((write) => write.during).length).toBeGreaterThan(0)
    expect(before.some((write) => write.kind === 'delete')).toBe(true)
    // Every file the copied database lists has its bytes in the backup, those deleted during the copy included.
    expect(await checkBackup(into)).toMatchObject({ files: report.files, databaseBytes: report.databaseBytes })

    const restoredDir = folder()
    await restoreBackup(into, restoredDir)
    const restored = await openSqliteStore({ dataDir: restoredDir })
    try {
      for (const write of before) {
        const found = await restored.wumpuses.get(write.record._id)
        if (write.kind === 'delete') {
          expect(found).toBeUndefined()
          continue
        }
        expect(found?.name).toBe(write.record.name)
        const gif = await restored.files.read(write.record.files.gif.id)
        expect(new TextDecoder().decode(gif?.bytes)).toBe('GIF89a')
      }
      // Still a working store: it takes a write.
      expect((await addWumpus(restored, { name: 'After the restore' })).name).toBe('After the restore')
    } finally {
      await restored.close()
    }
  })

  it("keeps a deleted file's bytes on disk while a backup holds deletes, and removes them when it ends", async () => {
    const dataDir = folder()
    const store = await openSqliteStore({ dataDir })
    try {
      const record = await addWumpus(store)
      const bytesOf = (id: string) =>
        stat(path.join(dataDir, 'files', id)).then(
          () => true,
          () => false,
        )
      const release = (store.files as unknown as SqliteFiles).holdDeletes()
      await store.files.delete(record.files.gif.id)
      // Gone for the store at once, on disk until the backup's copy of the files is done.
      expect(await store.files.info(record.files.gif.id)).toBeUndefined()
      expect(await bytesOf(record.files.gif.id)).toBe(true)
      await release()
      expect(await bytesOf(record.files.gif.id)).toBe(false)
    } finally {
      await store.close()
    }
  })

  it('links the files an earlier backup holds instead of copying them again', async () => {
    const store = await openSqliteStore({ dataDir: folder() })
    try {
      await fill(store, 2)
      const first = folder()
      await store.backup!(first)
      await addWumpus(store, { name: 'New since the first backup' })
      const second = folder()
      const report = await store.backup!(second, { linkFrom: first })
      expect(report.files).toBe(9)
      expect(report.linkedFiles).toBe(6)
      const [name] = await readdir(path.join(first, 'files'))
      expect((await stat(path.join(second, 'files', name!))).ino).toBe((await stat(path.join(first, 'files', name!))).ino)
      await checkBackup(second)
    } finally {
      await store.close()
    }
  })

  it('refuses a folder that is not a finished backup, and one with a file missing, leaving the data folder as it was', async () => {
    const store = await openSqliteStore({ dataDir: folder() })
    const into = folder()
    await addWumpus(store)
    await store.backup!(into)
    await store.close()

    const dataDir = folder()
    const live = await openSqliteStore({ dataDir })
    const mine = await addWumpus(live, { name: 'Mine' })
    await live.close()

    const empty = folder()
    await mkdir(empty)
    await expect(restoreBackup(empty, dataDir)).rejects.toThrow('is not a finished backup')
    const [lost] = await readdir(path.join(into, 'files'))
    await rm(path.join(into, 'files', lost!))
    await expect(restoreBackup(into, dataDir)).rejects.toThrow(`lacks the bytes of file ${lost}`)

    const reopened = await openSqliteStore({ dataDir })
    try {
      expect((await reopened.wumpuses.get(mine._id))?.name).toBe('Mine')
    } finally {
      await reopened.close()
    }
  })

  it('backs up a data folder no server runs on, and refuses one a server holds', async () => {
    const dataDir = folder()
    const store = await openSqliteStore({ dataDir })
    const record = await addWumpus(store, { name: 'Stopped' })
    await expect(backupStoppedDataDir(dataDir, folder())).rejects.toThrow(DataDirInUseError)
    await store.close()

    const into = folder()
    const report = await backupStoppedDataDir(dataDir, into)
    expect(report.files).toBe(3)
    const restoredDir = folder()
    await restoreBackup(into, restoredDir)
    const restored = await openSqliteStore({ dataDir: restoredDir })
    try {
      expect((await restored.wumpuses.get(record._id))?.name).toBe('Stopped')
    } finally {
      await restored.close()
    }
  })

  it('refuses a backup taken by a newer version', async () => {
    const store = await openSqliteStore({ dataDir: folder() })
    const into = folder()
    await store.backup!(into)
    await store.close()
    const db = new Database(path.join(into, DATABASE_FILE))
    db.pragma('user_version = 999')
    db.close()
    await expect(checkBackup(into)).rejects.toThrow('taken by a newer Wumpus Gallery (schema 999)')
  })
})

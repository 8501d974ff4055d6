import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { CommitSync } from './commit-sync'
import { StoreUnavailableError } from '../port'
import { openSqliteStore } from './open-sqlite-store'

const dir = mkdtempSync(path.join(tmpdir(), 'wumpus-commit-sync-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const wal = path.join(dir, 'gallery.sqlite3-wal')
writeFileSync(wal, '')

/** A sync the test finishes by hand, counting how many were started. */
function manualSync() {
  const pending: Array<(error?: Error) => void> = []
  const syncData = (_handle: FileHandle) =>
    new Promise<void>((resolve, reject) => pending.push((error) => (error ? reject(error) : resolve())))
  return { syncData, pending }
}

/** Whether the promise has settled by the time `sync` syncs started (the handle's open is asynchronous). */
async function settledWhenStarted(promise: Promise<unknown>, pending: unknown[], syncs: number) {
  let done = false
  void promise.then(
    () => (done = true),
    () => (done = true),
  )
  await vi.waitFor(() => expect(pending).toHaveLength(syncs))
  return done
}

describe('CommitSync', () => {
  it('acknowledges writes made together with one sync, and only once it has finished', async () => {
    const { syncData, pending } = manualSync()
    const commits = new CommitSync(wal, syncData)
    const writes = [commits.durable(), commits.durable(), commits.durable()]
    expect(await settledWhenStarted(Promise.race(writes), pending, 1)).toBe(false)
    pending.shift()!()
    await Promise.all(writes)
    expect(pending).toHaveLength(0)
    await commits.close()
  })

  it('does not count a write made while a sync runs as covered by it', async () => {
    const { syncData, pending } = manualSync()
    const commits = new CommitSync(wal, syncData)
    const first = commits.durable()
    await settledWhenStarted(first, pending, 1)
    const second = commits.durable()
    pending.shift()!()
    await first
    expect(await settledWhenStarted(second, pending, 1)).toBe(false)
    pending.shift()!()
    await second
    await commits.close()
  })

  it('acknowledges nothing after a sync failed: the write waiting on it and every later one fail', async () => {
    const { syncData, pending } = manualSync()
    const commits = new CommitSync(wal, syncData)
    const write = commits.durable()
    await settledWhenStarted(write, pending, 1)
    pending.shift()!(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))
    await expect(write).rejects.toThrow('EIO')
    await expect(commits.durable()).rejects.toThrow('EIO')
    expect(pending).toHaveLength(0)
    await commits.close()
  })

  it("holds the store's writes until the WAL is synced, and answers reads without waiting", async () => {
    const { syncData, pending } = manualSync()
    const store = await openSqliteStore({ dataDir: path.join(dir, 'store'), syncWal: syncData })
    try {
      const write = store.users.upsert('held@example.com', { user_name: 'Held' })
      expect(await settledWhenStarted(write, pending, 1)).toBe(false)
      // Committed (a read sees it) but not acknowledged: the sync has not finished.
      expect((await store.users.get('held@example.com'))?.user_name).toBe('Held')
      expect(pending).toHaveLength(1)
      pending.shift()!()
      await write
    } finally {
      await store.close()
    }
  })

  it('answers a write whose sync failed as the store being unavailable, and turns readiness red until a restart', async () => {
    const dataDir = path.join(dir, 'failing')
    const failing = await openSqliteStore({
      dataDir,
      syncWal: () => Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })),
    })
    try {
      await expect(failing.users.upsert('lost@example.com', { user_name: 'Lost' })).rejects.toThrow(StoreUnavailableError)
      await expect(failing.ping()).rejects.toThrow('could not be synced')
      // Reads still answer.
      expect(await failing.users.get('nobody@example.com')).toBeUndefined()
    } finally {
      await failing.close()
    }
    const restarted = await openSqliteStore({ dataDir })
    try {
      await restarted.ping()
    } finally {
      await restarted.close()
    }
  })
})

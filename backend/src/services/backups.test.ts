import { mkdtempSync, rmSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { addWumpus } from '../../test/support/test-server'
import { createLogger } from '../logger'
import type { Store } from '../store/port'
import { openSqliteStore } from '../store/sqlite/open-sqlite-store'
import { createBackups } from './backups'

const root = mkdtempSync(path.join(tmpdir(), 'wumpus-backups-'))
let store: Store
beforeAll(async () => {
  store = await openSqliteStore({ dataDir: path.join(root, 'data') })
  await addWumpus(store)
})
afterAll(async () => {
  await store.close()
  rmSync(root, { recursive: true, force: true })
})

const logger = createLogger('silent')
const HOUR = 3600_000

describe('backups', () => {
  it('on a schedule: one at start when none was made yet, none when restarted within the interval', async () => {
    const dir = path.join(root, 'scheduled')
    let clock = Date.parse('2026-12-02T10:00:00Z')
    const backups = createBackups({ store, dir, keep: 3, intervalMs: HOUR, logger, now: () => new Date(clock) })
    // What a backup cut short by a crash left: removed, never listed.
    await mkdir(path.join(dir, '.partial-2026-12-01T00-00-00-000Z'), { recursive: true })
    const stop = backups.schedule()
    try {
      await vi.waitFor(async () => expect(await backups.list()).toHaveLength(1), { timeout: 20_000 })
      expect(await readdir(dir)).toEqual([(await backups.list())[0]!.name])
    } finally {
      stop()
    }
    // Restarted within the interval: nothing is due, so the timer waits (it is unref'd and stopped here).
    clock += 10 * 60_000
    const again = createBackups({ store, dir, keep: 3, intervalMs: HOUR, logger, now: () => new Date(clock) })
    again.schedule()()
    expect(await again.list()).toHaveLength(1)
  })

  it('says what to do where there is nothing to back up with', async () => {
    const noDir = createBackups({ store, keep: 1, intervalMs: 0, logger })
    await expect(noDir.backUpNow()).rejects.toThrow('Backups are not set up on this server: set BACKUP_DIR')
    const onMongo = createBackups({
      store: { ...store, backup: undefined },
      dir: path.join(root, 'never'),
      keep: 1,
      intervalMs: 0,
      logger,
    })
    await expect(onMongo.backUpNow()).rejects.toThrow('back it up with mongodump')
    // A backup folder that cannot be made (a file stands there): unavailable (503), naming the folder.
    const blocked = path.join(root, 'a-file')
    await writeFile(blocked, '')
    await expect(createBackups({ store, dir: blocked, keep: 1, intervalMs: 0, logger }).backUpNow()).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining(`The backup could not be written into ${blocked}`),
    })
  })

  it('shares one backup between requests that arrive while it runs', async () => {
    const backups = createBackups({ store, dir: path.join(root, 'shared'), keep: 5, intervalMs: 0, logger })
    const [a, b] = await Promise.all([backups.backUpNow(), backups.backUpNow()])
    expect(a.name).toBe(b.name)
    expect(await backups.list()).toHaveLength(1)
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Store } from '../../src/store/port'
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store'

export interface TempStore {
  store: Store
  /** The store's data folder. */
  dataDir: string
  /** Closes the store and removes its folder. */
  close(): Promise<void>
}

/** A SQLite store over a new, empty temp folder (`name` starts the folder's name). */
export async function openTempStore(name = 'wumpus-test-'): Promise<TempStore> {
  const dataDir = await mkdtemp(path.join(tmpdir(), name))
  const store = await openSqliteStore({ dataDir })
  return {
    store,
    dataDir,
    async close() {
      await store.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

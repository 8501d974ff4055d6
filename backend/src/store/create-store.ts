import { openMongoStore } from './mongo/open-mongo-store'
import type { Store } from './port'
import { openSqliteStore } from './sqlite/open-sqlite-store'

export interface StoreConfig {
  /** When set, the mongo adapter is used; otherwise the embedded SQLite one under dataDir. */
  mongodbUri?: string
  dataDir: string
}

export function createStore(config: StoreConfig): Promise<Store> {
  return config.mongodbUri ? openMongoStore({ uri: config.mongodbUri }) : openSqliteStore({ dataDir: config.dataDir })
}

import { openEmbeddedStore } from './embedded'
import { openMongoStore } from './mongo'
import type { Store } from './port'

export interface StoreConfig {
  /** When set, the mongo adapter is used; otherwise the embedded one under dataDir. */
  mongodbUri?: string
  dataDir: string
}

export function createStore(config: StoreConfig): Promise<Store> {
  return config.mongodbUri ? openMongoStore({ uri: config.mongodbUri }) : openEmbeddedStore({ dataDir: config.dataDir })
}

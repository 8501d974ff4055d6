import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from '../logger'
import { createDownloadCounter, type DownloadCounter } from '../services/download-counts'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { Store, WumpusRecord } from '../store/port'
import { sampleWumpus } from '../../test/store-behaviour/store-behaviour'
import { GalleryPages } from './gallery-pages'
import { COUNTS_MAX_AGE_MS } from './page-cache'

const logger = createLogger('silent')
let temp: TempStore
let store: Store
let record: WumpusRecord
let counter: DownloadCounter | undefined

beforeEach(async () => {
  temp = await openTempStore('wumpus-gallery-pages-')
  store = temp.store
  record = await store.wumpuses.insert(sampleWumpus())
})

afterEach(async () => {
  vi.useRealTimers()
  await counter?.close()
  counter = undefined
  await temp.close()
})

describe('download counts and the cached list pages', () => {
  it('keep the newest-first pages cached, and the popular order follows the counts once flushed', async () => {
    const newer = await store.wumpuses.insert(sampleWumpus({ name: 'Newer Wumpus' }))
    const pages = new GalleryPages(store)
    const reads = vi.spyOn(store.wumpuses, 'list')
    const order = async (querystring: string) =>
      (JSON.parse((await pages.page('/api/wumpuses', querystring)).body) as { _id: string }[]).map((item) => item._id)
    expect(await order('limit=10')).toEqual([newer._id, record._id])
    expect(await order('limit=10&sort=popular')).toEqual([newer._id, record._id])
    expect(reads).toHaveBeenCalledTimes(2)

    counter = createDownloadCounter(store, { logger })
    counter.count(record._id, '203.0.113.1')
    expect(await order('limit=10&sort=popular')).toEqual([newer._id, record._id])
    await counter.flush()
    expect(await order('limit=10')).toEqual([newer._id, record._id])
    expect(reads).toHaveBeenCalledTimes(2)
    expect(await order('limit=10&sort=popular')).toEqual([record._id, newer._id])
    expect(reads).toHaveBeenCalledTimes(3)
    // The newest-first page shows the old counts for COUNTS_MAX_AGE_MS at most.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + COUNTS_MAX_AGE_MS + 1)
      await order('limit=10')
      expect(reads).toHaveBeenCalledTimes(4)
      await order('limit=10')
      expect(reads).toHaveBeenCalledTimes(4)
    } finally {
      vi.useRealTimers()
    }
    // A write to an animation still drops every page.
    await store.wumpuses.update(newer._id, { name: 'Renamed Wumpus' })
    await order('limit=10')
    expect(reads).toHaveBeenCalledTimes(5)
  })
})

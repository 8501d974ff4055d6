import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLogger } from '../logger'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { Store, WumpusRecord } from '../store/port'
import { sampleWumpus } from '../../test/store-behaviour/store-behaviour'
import { createDownloadCounter, type DownloadCounter } from './download-counts'

const logger = createLogger('silent')
let temp: TempStore
let store: Store
let record: WumpusRecord
let counter: DownloadCounter | undefined

beforeEach(async () => {
  temp = await openTempStore('wumpus-downloads-')
  store = temp.store
  record = await store.wumpuses.insert(sampleWumpus())
})

afterEach(async () => {
  vi.useRealTimers()
  await counter?.close()
  counter = undefined
  await temp.close()
})

const downloadsOf = async (id = record._id) => (await store.wumpuses.get(id))!.downloads

describe('DownloadCounter', () => {
  it('counts once per visitor and animation, and stores the counts when flushed', async () => {
    counter = createDownloadCounter(store, { logger })
    expect(counter.count(record._id, '203.0.113.1')).toBe(true)
    expect(counter.count(record._id, '203.0.113.1')).toBe(false)
    expect(counter.count(record._id, '203.0.113.2')).toBe(true)
    expect(await downloadsOf()).toBe(0)
    await counter.flush()
    expect(await downloadsOf()).toBe(2)
    await counter.flush()
    expect(await downloadsOf()).toBe(2)
  })

  it('counts a file download for its animation only', async () => {
    counter = createDownloadCounter(store, { logger })
    // It answers the animation when the download counted.
    expect(await counter.countFile(record.files.gif.id, '203.0.113.1')).toBe(record._id)
    expect(await counter.countFile(record.files.lottie.id, '203.0.113.1')).toBeUndefined()
    expect(await counter.countFile('abcdefabcdefabcdefabcdef', '203.0.113.1')).toBeUndefined()
    await counter.close()
    expect(await downloadsOf()).toBe(1)
  })

  it('counts the same visitor again in a new window, and starts a window early when full', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    counter = createDownloadCounter(store, { logger, windowMs: 60_000, maxMarks: 3 })
    expect(counter.count(record._id, '203.0.113.1')).toBe(true)
    vi.setSystemTime(Date.now() + 59_000)
    expect(counter.count(record._id, '203.0.113.1')).toBe(false)
    vi.setSystemTime(Date.now() + 2000)
    expect(counter.count(record._id, '203.0.113.1')).toBe(true)
    counter.count(record._id, '203.0.113.2')
    counter.count(record._id, '203.0.113.3')
    // Three marks remembered: the fourth visitor starts a new window, forgetting the first.
    expect(counter.count(record._id, '203.0.113.4')).toBe(true)
    expect(counter.count(record._id, '203.0.113.1')).toBe(true)
    await counter.flush()
    expect(await downloadsOf()).toBe(6)
  })

  it('flushes on its own when many animations wait', async () => {
    const other = await store.wumpuses.insert(sampleWumpus())
    counter = createDownloadCounter(store, { logger, maxPending: 2 })
    counter.count(record._id, '203.0.113.1')
    counter.count(other._id, '203.0.113.1')
    await vi.waitFor(async () => expect(await downloadsOf(other._id)).toBe(1))
    expect(await downloadsOf()).toBe(1)
  })

  it('keeps counts that could not be stored for the next flush', async () => {
    let failures = 1
    const wumpuses = new Proxy(store.wumpuses, {
      get: (target, name, receiver) =>
        name === 'addDownloads' && failures-- > 0 ? () => Promise.reject(new Error('store down')) : Reflect.get(target, name, receiver),
    })
    const flaky: Store = {
      ...store,
      wumpuses,
      rateCounter: store.rateCounter.bind(store),
      ping: store.ping.bind(store),
      close: store.close.bind(store),
    }
    counter = createDownloadCounter(flaky, { logger })
    counter.count(record._id, '203.0.113.1')
    await counter.flush()
    expect(await downloadsOf()).toBe(0)
    counter.count(record._id, '203.0.113.2')
    await counter.flush()
    expect(await downloadsOf()).toBe(2)
  })
})

// Several server instances on one store share the derived-media work: each animation is rendered
// once, and a job whose instance died is finished by another once its lease ends.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startMongoWireServer, type MongoWireServer } from '../../test/support/mongo-wire-server'
import type { Logger } from '../logger'
import type { MadeMedia } from '../media/exports/make-media'
import { lottieBytes } from '../../test/fixtures/lottie'
import { openMongoStore } from '../store/mongo/open-mongo-store'
import type { FileRef, Store, WumpusRecord } from '../store/port'
import { derivedFileIds } from '../store/records'
import { openSqliteStore } from '../store/sqlite/open-sqlite-store'
import { createDerivedMediaService, DERIVED_MEDIA_VERSION, type DerivedMediaDeps, type DerivedMediaService } from './derived-media'

const LEASE_MS = 60_000
const logger: Logger = { error: () => {}, info: () => {}, debug: () => {} }

/** Two store objects over the same data, as two instances have (SQLite: one process holds the folder, so one store). */
interface Shared {
  stores: [Store, Store]
  destroy(): Promise<void>
}

let wire: MongoWireServer
beforeAll(async () => {
  wire = await startMongoWireServer()
})
afterAll(async () => {
  await wire.close()
})

const setups: Array<[string, () => Promise<Shared>]> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'wumpus-instances-'))
      const store = await openSqliteStore({ dataDir: dir })
      return {
        stores: [store, store],
        destroy: async () => {
          await store.close()
          rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  ],
  [
    'mongo',
    async () => {
      const dbName = `instances_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
      const a = await openMongoStore({ uri: wire.uri, dbName })
      const b = await openMongoStore({ uri: wire.uri, dbName })
      return {
        stores: [a, b],
        destroy: async () => {
          await Promise.all([a.close(), b.close()])
        },
      }
    },
  ],
]

/** A cheap stand-in for the render worker: one tiny file per preview, no exports; records which Lottie (by name) it rendered. */
function countingDerive(calls: string[]) {
  return async (lottie: object): Promise<MadeMedia> => {
    calls.push((lottie as { nm: string }).nm)
    const file = {
      bytes: new Uint8Array([1, 2, 3]),
      facts: { contentType: 'image/webp', bytes: 3, width: 1, height: 1, frames: 1, durationMs: 0 },
    }
    return { previews: { small: file, large: file, still: file }, exports: [], timings: { previews: 0 } as MadeMedia['timings'] }
  }
}

describe.each(setups)('derived media shared by two instances on one %s store', (_kind, setup) => {
  let shared: Shared
  const services: DerivedMediaService[] = []
  const service = (store: Store, deps: Omit<DerivedMediaDeps, 'store' | 'logger'>) => {
    const made = createDerivedMediaService({ store, logger, leaseMs: LEASE_MS, ...deps })
    services.push(made)
    return made
  }

  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()))
    await shared.destroy()
  })

  async function animation(store: Store, name: string): Promise<WumpusRecord> {
    const put = async (bytes: Uint8Array, filename: string, contentType: string): Promise<FileRef> => {
      const info = await store.files.put({ bytes, filename, contentType, owner: 'maker@example.com', purpose: 'animation' })
      return { id: info.id, filename: info.filename }
    }
    return store.wumpuses.insert({
      name,
      description: 'Rendered by one instance only',
      u_email: 'maker@example.com',
      u_name: 'Maker',
      files: {
        gif: await put(new Uint8Array([1]), 'a.gif', 'image/gif'),
        apng: await put(new Uint8Array([2]), 'a.png', 'image/apng'),
        lottie: await put(lottieBytes({ nm: name }), 'a.json', 'application/json'),
      },
    })
  }

  const derivedFiles = async (store: Store) =>
    (await store.files.list({ createdBefore: new Date(Date.now() + 60_000), limit: 1000 })).filter((f) => f.purpose === 'derived')

  it('backfills a dozen animations at once: each is rendered exactly once', async () => {
    shared = await setup()
    const [storeA, storeB] = shared.stores
    const names = Array.from({ length: 12 }, (_, i) => `Wumpus ${i}`)
    const records = []
    for (const name of names) records.push(await animation(storeA, name))
    const calls: string[] = []
    const a = service(storeA, { derive: countingDerive(calls) })
    const b = service(storeB, { derive: countingDerive(calls) })
    const [fromA, fromB] = await Promise.all([a.backfill(), b.backfill()])
    expect([...calls].sort()).toEqual([...names].sort())
    expect(fromA.animations + fromB.animations).toBe(12)
    for (const record of records) {
      expect((await storeB.wumpuses.get(record._id))!.derived).toMatchObject({
        source: record.files.lottie.id,
        version: DERIVED_MEDIA_VERSION,
      })
    }
    // Every stored file is listed by its animation: none made twice.
    expect((await derivedFiles(storeA)).length).toBe(12 * 3)
    expect(await Promise.all([a.backfill(), b.backfill()])).toMatchObject([{ animations: 0 }, { animations: 0 }])
  })

  it('finishes the job of an instance that died mid-render once its lease ends; the late render lands nothing', async () => {
    shared = await setup()
    const [storeA, storeB] = shared.stores
    const record = await animation(storeA, 'Orphaned Wumpus')
    let finishLate: (() => void) | undefined
    const lateCalls: string[] = []
    const late = countingDerive(lateCalls)
    // A's render hangs (its instance died): it never renews, and returns only once B is done.
    const a = service(storeA, {
      renewMs: 3600_000,
      derive: (lottie) => new Promise((resolve) => (finishLate = () => resolve(late(lottie)))),
    })
    const publishedOnA = a.refresh(record._id)
    await vi.waitFor(() => expect(finishLate).toBeDefined())

    const calls: string[] = []
    const clock = { offset: 0 }
    const b = service(storeB, { derive: countingDerive(calls), now: () => new Date(Date.now() + clock.offset) })
    // Within A's lease, B leaves it alone; once the lease has ended, B takes it over.
    expect((await b.backfill()).animations).toBe(0)
    clock.offset = LEASE_MS
    expect((await b.backfill()).animations).toBe(1)
    expect(calls).toEqual(['Orphaned Wumpus'])
    const madeByB = (await storeB.wumpuses.get(record._id))!.derived!
    expect(madeByB.version).toBe(DERIVED_MEDIA_VERSION)

    // A's render ends late: the record keeps B's set, and A's files are gone.
    finishLate!()
    await publishedOnA
    expect(lateCalls).toEqual(['Orphaned Wumpus'])
    expect((await storeA.wumpuses.get(record._id))!.derived).toEqual(madeByB)
    expect((await derivedFiles(storeA)).map((f) => f.id).sort()).toEqual(derivedFileIds(madeByB).sort())
  })

  it('renders a Lottie replaced while another instance rendered the old one, without polling', async () => {
    shared = await setup()
    const [storeA, storeB] = shared.stores
    const record = await animation(storeA, 'Old Lottie')
    let finishOld: (() => void) | undefined
    const calls: string[] = []
    const derive = countingDerive(calls)
    let first = true
    const a = service(storeA, {
      derive: (lottie) => {
        if (!first) return derive(lottie)
        first = false
        return new Promise((resolve) => (finishOld = () => resolve(derive(lottie))))
      },
    })
    const publishedOnA = a.refresh(record._id)
    await vi.waitFor(() => expect(finishOld).toBeDefined())
    // An admin replaces the Lottie through B, whose refresh finds the job held by A.
    const lottie = await storeB.files.put({
      bytes: lottieBytes({ nm: 'New Lottie' }),
      filename: 'b.json',
      contentType: 'application/json',
      owner: 'maker@example.com',
      purpose: 'animation',
    })
    const edited = (await storeB.wumpuses.update(record._id, {
      files: { ...record.files, lottie: { id: lottie.id, filename: lottie.filename } },
    }))!
    const b = service(storeB, { derive: countingDerive([]) })
    await b.filesChanged(record, edited)
    await b.idle()
    finishOld!()
    await publishedOnA
    await a.idle()
    expect(calls).toEqual(['Old Lottie', 'New Lottie'])
    expect((await storeA.wumpuses.get(record._id))!.derived).toMatchObject({ source: lottie.id, version: DERIVED_MEDIA_VERSION })
  })

  it('finds work published on another instance by polling the store', async () => {
    shared = await setup()
    const [storeA, storeB] = shared.stores
    const calls: string[] = []
    service(storeB, { derive: countingDerive(calls), pollMs: 10 })
    // Published through A, which stopped before rendering it.
    const record = await animation(storeA, 'Published Elsewhere')
    await vi.waitFor(async () => expect((await storeB.wumpuses.get(record._id))!.derived?.version).toBe(DERIVED_MEDIA_VERSION))
    expect(calls).toEqual(['Published Elsewhere'])
  })

  it('on close, waits for the render in hand and gives its job back at once when it was cut short', async () => {
    shared = await setup()
    const [storeA, storeB] = shared.stores
    const record = await animation(storeA, 'Interrupted Wumpus')
    let cutShort: ((error: Error) => void) | undefined
    const a = service(storeA, { derive: () => new Promise((_, reject) => (cutShort = reject)) })
    void a.refresh(record._id)
    await vi.waitFor(() => expect(cutShort).toBeDefined())
    const closing = a.close()
    // The render worker stopping with the server.
    cutShort!(new Error('The render worker stopped'))
    await closing
    expect((await storeA.wumpuses.get(record._id))!.derived).toBeUndefined()
    const calls: string[] = []
    expect((await service(storeB, { derive: countingDerive(calls) }).backfill()).animations).toBe(1)
    expect(calls).toEqual(['Interrupted Wumpus'])
  })
})

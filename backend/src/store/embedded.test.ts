import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Datastore from '@seald-io/nedb'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openEmbeddedStore } from './embedded'
import type { Store } from './port'
import { describeStoreContract, sampleWumpus } from './store-contract'

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'wumpus-embedded-'))
}

describeStoreContract(
  'embedded',
  async () => {
    const dataDir = await tempDir()
    let store: Store = await openEmbeddedStore({ dataDir })
    return {
      store,
      reopen: async () => {
        await store.close()
        store = await openEmbeddedStore({ dataDir })
        return store
      },
      destroy: async () => {
        await store.close()
        await rm(dataDir, { recursive: true, force: true })
      },
    }
  },
  'embedded',
)

describe('embedded store on disk', () => {
  let dataDir: string
  let store: Store

  beforeEach(async () => {
    dataDir = await tempDir()
    store = await openEmbeddedStore({ dataDir })
  })

  afterEach(async () => {
    await store.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('keeps file bytes under files/<id> and leaves no temp files', async () => {
    const info = await store.putFile({ bytes: new Uint8Array([7, 8, 9]), contentType: 'image/gif', filename: 'x.gif' })
    expect(await readdir(path.join(dataDir, 'files'))).toEqual([info.id])
    expect(Array.from(await readFile(path.join(dataDir, 'files', info.id)))).toEqual([7, 8, 9])
    expect((await readdir(dataDir)).sort()).toEqual(['audit.db', 'files', 'files.db', 'packs.db', 'sessions.db', 'users.db', 'wumpuses.db'])
  })

  it('keeps its folders and files private to the owner, after compaction too', async () => {
    const info = await store.putFile({ bytes: new Uint8Array([7]), contentType: 'image/gif', filename: 'x.gif' })
    await store.upsertUser('ann@example.com', { user_name: 'Ann' })
    await store.close()
    store = await openEmbeddedStore({ dataDir })
    const mode = async (name: string) => (await stat(path.join(dataDir, name))).mode & 0o777
    expect(await mode('.')).toBe(0o700)
    expect(await mode('files')).toBe(0o700)
    expect(await mode(`files/${info.id}`)).toBe(0o600)
    await vi.waitFor(async () => {
      for (const name of ['users.db', 'wumpuses.db', 'files.db', 'sessions.db', 'audit.db', 'packs.db'])
        expect(await mode(name)).toBe(0o600)
    })
  })

  it('removes stored bytes that never got their file record (a crash in between) when it opens', async () => {
    const kept = await store.putFile({ bytes: new Uint8Array([1]), contentType: 'image/gif', filename: 'kept.gif' })
    await store.close()
    const stray = 'abcdefabcdefabcdefabcdef'
    await writeFile(path.join(dataDir, 'files', stray), 'bytes of a file never recorded')
    await writeFile(path.join(dataDir, 'files', 'notes.txt'), 'not ours to judge')
    store = await openEmbeddedStore({ dataDir })
    expect((await readdir(path.join(dataDir, 'files'))).sort()).toEqual([kept.id, 'notes.txt'])
    // While running, only bytes older than the given time go (a write may be between its two steps).
    await writeFile(path.join(dataDir, 'files', stray), 'again')
    expect(await store.sweepStrayBlobs(new Date(Date.now() - 60_000))).toBe(0)
    expect(await store.sweepStrayBlobs(new Date(Date.now() + 1000))).toBe(1)
    expect(await store.readFile(kept.id)).toBeDefined()
  })

  it('drops half-written temp files when it opens', async () => {
    const info = await store.putFile({ bytes: new Uint8Array([1]), contentType: 'image/gif', filename: 'x.gif' })
    await store.close()
    await writeFile(path.join(dataDir, 'files', `${info.id}.deadbeef.tmp`), 'partial')
    store = await openEmbeddedStore({ dataDir })
    expect(await readdir(path.join(dataDir, 'files'))).toEqual([info.id])
    expect(Array.from((await store.readFile(info.id))!.bytes)).toEqual([1])
  })

  it('persists a unique index on users.email', async () => {
    await store.upsertUser('ann@example.com', { user_name: 'Ann' })
    await store.close()
    const users = new Datastore({ filename: path.join(dataDir, 'users.db') })
    await users.loadDatabaseAsync()
    await expect(users.insertAsync({ email: 'ann@example.com' })).rejects.toMatchObject({ errorType: 'uniqueViolated' })
    store = await openEmbeddedStore({ dataDir })
  })

  it('compacts its data files on close', async () => {
    const record = await store.insertWumpus(sampleWumpus())
    for (let i = 0; i < 5; i++) await store.updateWumpus(record._id, { name: `name ${i}` })
    await store.close()
    const lines = (await readFile(path.join(dataDir, 'wumpuses.db'), 'utf8')).trim().split('\n')
    // One line for the u_email index, one for the record.
    expect(lines).toHaveLength(2)
    expect(lines.some((line) => line.includes('"name":"name 4"'))).toBe(true)
    store = await openEmbeddedStore({ dataDir })
  })

  it('reads records stored before tags and download counts, and searches them', async () => {
    await store.close()
    const old = {
      ...sampleWumpus({ name: 'Ancient Wumpus' }),
      _id: 'abc000000000000000000001',
      createdAt: { $$date: Date.UTC(2020, 0, 1) },
      updatedAt: { $$date: Date.UTC(2020, 0, 1) },
    }
    await writeFile(path.join(dataDir, 'wumpuses.db'), `${JSON.stringify(old)}\n`)
    store = await openEmbeddedStore({ dataDir })
    expect(await store.getWumpus(old._id)).toMatchObject({
      name: 'Ancient Wumpus',
      tags: [],
      downloads: 0,
      createdAt: new Date(Date.UTC(2020, 0, 1)),
    })
    expect((await store.listWumpuses({ limit: 5, q: 'ancient' })).total).toBe(1)
    await store.addDownloads(new Map([[old._id, 2]]))
    expect((await store.updateWumpus(old._id, { tags: ['old'] }))?.downloads).toBe(2)
    expect((await store.listWumpuses({ limit: 5, tag: 'old', sort: 'popular' })).items.map((item) => item._id)).toEqual([old._id])
  })

  it('pages 2,000 records with random times exactly like a full sort', async () => {
    const records = []
    for (let i = 0; i < 2000; i++) {
      const createdAt = new Date(Date.UTC(2025, 0, 1) + Math.floor(Math.random() * 50) * 1000)
      records.push(await store.insertWumpus(sampleWumpus({ u_email: `u${i % 3}@example.com`, createdAt })))
    }
    const expected = records
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : -1))
      .map((record) => record._id)
    const ids: string[] = []
    let cursor: string | undefined
    do {
      const page = await store.listWumpuses({ limit: 100, cursor })
      ids.push(...page.items.map((item) => item._id))
      cursor = page.nextCursor
    } while (cursor)
    expect(ids).toEqual(expected)
  })
})

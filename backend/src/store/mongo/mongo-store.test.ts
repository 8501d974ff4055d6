import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { GridFSBucket, MongoClient, MongoServerError, ObjectId, type Document } from 'mongodb'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startMongoWireServer, type MongoWireServer } from '../../../test/support/mongo-wire-server'
import type { Logger } from '../../logger'
import { startOrphanSweeper } from '../../orphan-files'
import { toStoreError } from './errors'
import { SWEEP_BATCH } from './files'
import { openMongoStore, SCHEMA_VERSION } from './open-mongo-store'
import { SEARCH_VERSION } from './search'
import { DuplicateKeyError, FileInUseError, StoreUnavailableError, type Store, type WumpusPage } from '../port'
import { describeStoreBehaviour, sampleWumpus } from '../../../test/store-behaviour/store-behaviour'

// Against a real MongoDB when MONGODB_TEST_URI is set, else against the in-process wire server.
const realUri = process.env.MONGODB_TEST_URI
let wireServer: MongoWireServer | undefined
let uri: string
let admin: MongoClient

beforeAll(async () => {
  if (realUri) {
    uri = realUri
  } else {
    wireServer = await startMongoWireServer()
    uri = wireServer.uri
  }
  admin = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 })
  await admin.connect()
})

afterAll(async () => {
  await admin?.close()
  await wireServer?.close()
})

function freshDbName(): string {
  return `wumpus_test_${randomBytes(6).toString('hex')}`
}

async function openFresh(): Promise<{ store: Store; dbName: string }> {
  const dbName = freshDbName()
  return { store: await openMongoStore({ uri, dbName }), dbName }
}

describeStoreBehaviour(
  realUri ? 'mongo (real server)' : 'mongo (wire server)',
  async () => {
    const dbName = freshDbName()
    let store: Store = await openMongoStore({ uri, dbName })
    return {
      store,
      reopen: async () => {
        await store.close()
        store = await openMongoStore({ uri, dbName })
        return store
      },
      destroy: async () => {
        await store.close()
        await admin.db(dbName).dropDatabase()
      },
    }
  },
  'mongo',
)

describe('mongo store storage layout', () => {
  it('creates the indexes at start', async () => {
    const { store, dbName } = await openFresh()
    try {
      const db = admin.db(dbName)
      const users = await db.collection('users').listIndexes().toArray()
      expect(users).toContainEqual(expect.objectContaining({ key: { email: 1 }, unique: true }))
      const wumpusIndexes = await db.collection('wumpuses').listIndexes().toArray()
      const wumpuses = wumpusIndexes.map((index) => index.key)
      expect(wumpuses).toEqual(
        expect.arrayContaining([
          { u_email: 1 },
          { remixOf: 1, createdAt: -1, _id: -1 },
          { u_email: 1, remixOf: 1, createdAt: -1, _id: -1 },
          { remixOf: 1, downloads: -1, createdAt: -1, _id: -1 },
          { tags: 1, remixOf: 1, createdAt: -1, _id: -1 },
          { tags: 1, remixOf: 1, downloads: -1, createdAt: -1, _id: -1 },
          { fits: 1, remixOf: 1, createdAt: -1, _id: -1 },
          { fits: 1, remixOf: 1, downloads: -1, createdAt: -1, _id: -1 },
          { u_email: 1, remixOf: 1, downloads: -1, createdAt: -1, _id: -1 },
          { searchPrefixes: 1 },
          { 'files.gif.id': 1 },
          { 'files.apng.id': 1 },
          { 'files.lottie.id': 1 },
          { renderedVersion: 1 },
        ]),
      )
      // The Discord queue's two reads (MongoDiscordUploads.head): by state and no retry time, oldest first;
      // by state with a retry time, earliest first. Each is a range of this index, in its order.
      const discord = (await db.collection('discordUploads').listIndexes().toArray()).map((index) => index.key)
      expect(discord).toContainEqual({ state: 1, retryAt: 1, createdAt: 1, _id: 1 })
      const remixesOnly = { remixOwner: { $exists: true } }
      expect(wumpusIndexes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: { remixOwner: 1, createdAt: -1, _id: -1 }, partialFilterExpression: remixesOnly }),
          expect.objectContaining({ key: { remixOwner: 1, remixSlot: 1 }, unique: true, partialFilterExpression: remixesOnly }),
        ]),
      )
      const files = (await db.collection('files.files').listIndexes().toArray()).map((index) => index.key)
      expect(files).toContainEqual({ uploadDate: 1, _id: 1 })
      const packs = (await db.collection('packs').listIndexes().toArray()).map((index) => index.key)
      expect(packs).toEqual(
        expect.arrayContaining([{ visibility: 1, createdAt: -1, _id: -1 }, { createdBy: 1, updatedAt: -1, _id: -1 }, { wumpusIds: 1 }]),
      )
      const tags = (await db.collection('tags').listIndexes().toArray()).map((index) => index.key)
      expect(tags).toContainEqual({ count: -1, _id: 1 })
      // The unique index really refuses a second user with the same email.
      await store.users.upsert('ann@example.com', {})
      const duplicate = db.collection('users').insertOne({ _id: 'x' as never, email: 'ann@example.com' })
      await expect(duplicate).rejects.toMatchObject({ code: 11000 })
      // Opening again over existing indexes is fine, and drops the list indexes from before remixes.
      const beforeRemixes: Array<Record<string, 1 | -1>> = [
        { createdAt: -1, _id: -1 },
        { downloads: -1, createdAt: -1, _id: -1 },
        { tags: 1, createdAt: -1, _id: -1 },
        { u_email: 1, downloads: -1, createdAt: -1, _id: -1 },
      ]
      for (const key of beforeRemixes) await db.collection('wumpuses').createIndex(key)
      await (await openMongoStore({ uri, dbName })).close()
      const reopened = (await db.collection('wumpuses').listIndexes().toArray()).map((index) => index.key)
      for (const key of beforeRemixes) expect(reopened).not.toContainEqual(key)
      expect(reopened).toHaveLength(wumpuses.length)
    } finally {
      await store.close()
      await admin.db(dbName).dropDatabase()
    }
  })

  it('stores string ids, BSON dates and GridFS files with metadata', async () => {
    const { store, dbName } = await openFresh()
    try {
      const db = admin.db(dbName)
      const record = await store.wumpuses.insert(sampleWumpus())
      const raw = await db.collection('wumpuses').findOne({ _id: record._id as never })
      expect(typeof raw?._id).toBe('string')
      expect(raw?.createdAt).toBeInstanceOf(Date)

      const bytes = new Uint8Array(randomBytes(600_000))
      const file = await store.files.put({ bytes, contentType: 'image/apng', filename: 'w.png' })
      const fileDoc = await db.collection('files.files').findOne({})
      expect(fileDoc?._id.toHexString()).toBe(file.id)
      expect(fileDoc?.length).toBe(600_000)
      expect(fileDoc?.metadata).toEqual({ contentType: 'image/apng', filename: 'w.png', sha256: file.sha256 })
      expect(await db.collection('files.chunks').countDocuments({ files_id: fileDoc?._id })).toBe(Math.ceil(600_000 / (255 * 1024)))
      expect(await store.files.delete(file.id)).toBe(true)
      expect(await db.collection('files.chunks').countDocuments({})).toBe(0)

      const labelled = await store.files.put({
        bytes: new Uint8Array([1]),
        contentType: 'image/png',
        filename: 'me.png',
        owner: 'ann@example.com',
        purpose: 'image',
      })
      const labelledDoc = await db.collection('files.files').findOne({ _id: new ObjectId(labelled.id) })
      expect(labelledDoc?.metadata).toEqual({
        contentType: 'image/png',
        filename: 'me.png',
        sha256: labelled.sha256,
        owner: 'ann@example.com',
        purpose: 'image',
      })
    } finally {
      await store.close()
      await admin.db(dbName).dropDatabase()
    }
  })
})

describe('mongo store search fields', () => {
  it('stores the prefixes of two characters and more of the normalized words, every whole word, and a count per tag', async () => {
    const { store, dbName } = await openFresh()
    try {
      const db = admin.db(dbName)
      const family = { char: '👩‍👩‍👧', name: 'family' }
      const record = await store.wumpuses.insert(
        sampleWumpus({ name: 'Café Wumpus C', description: 'Naïve star', tags: ['night-sky'], emoji: [family] }),
      )
      const raw = await db.collection('wumpuses').findOne({ _id: record._id as never })
      // No one-letter prefixes: a one-letter query word finds only itself, as a whole word ("c").
      expect([...(raw?.searchPrefixes as string[])].sort()).toEqual(
        [
          'c',
          'ca',
          'caf',
          'cafe',
          'wu',
          'wum',
          'wump',
          'wumpu',
          'wumpus',
          'na',
          'nai',
          'naiv',
          'naive',
          'st',
          'sta',
          'star',
          'ni',
          'nig',
          'nigh',
          'night',
          'sk',
          'sky',
          // An emoji is kept whole, and its name's words like any other.
          '👩‍👩‍👧',
          'fa',
          'fam',
          'fami',
          'famil',
          'family',
        ].sort(),
      )
      expect(raw?.searchVersion).toBe(SEARCH_VERSION)
      await store.wumpuses.insert(sampleWumpus({ name: 'Supercalifragilisticexpialidocious Wumpus', tags: ['night-sky', 'long'] }))
      const long = await db.collection('wumpuses').findOne({ tags: 'long' })
      // Prefixes up to 20 characters, and the whole word.
      expect(
        (long?.searchPrefixes as string[])
          .filter((prefix) => prefix.startsWith('super'))
          .map((prefix) => prefix.length)
          .sort((a, b) => b - a)
          .slice(0, 2),
      ).toEqual([34, 20])
      // A query word longer than the stored prefixes still finds exactly its word.
      expect((await store.wumpuses.list({ limit: 5, q: 'supercalifragilisticexpialidocious' })).total).toBe(1)
      expect((await store.wumpuses.list({ limit: 5, q: 'supercalifragilisticexpialidociouz' })).total).toBe(0)
      expect(await db.collection('tags').find({}).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 'long', count: 1 },
        { _id: 'night-sky', count: 2 },
      ])
    } finally {
      await store.close()
      await admin.db(dbName).dropDatabase()
    }
  })

  it('brings animations stored before tags, download counts and search prefixes up to date at start', async () => {
    const dbName = freshDbName()
    const db = admin.db(dbName)
    const old = {
      ...sampleWumpus({ name: 'Ancient Wumpus' }),
      _id: 'abc000000000000000000001',
      createdAt: new Date(Date.UTC(2020, 0, 1)),
      updatedAt: new Date(Date.UTC(2020, 0, 1)),
    }
    const stale = {
      ...sampleWumpus({ name: 'Stale Wumpus' }),
      _id: 'abc000000000000000000002',
      createdAt: new Date(Date.UTC(2020, 0, 2)),
      updatedAt: new Date(Date.UTC(2020, 0, 2)),
      tags: ['old'],
      downloads: 2,
      searchPrefixes: ['x'],
      searchVersion: 0,
    }
    // Indexed by the first rules, which stored one-letter prefixes.
    const versionOne = {
      ...sampleWumpus({ name: 'Old Rules Wumpus', description: 'Kept' }),
      _id: 'abc000000000000000000003',
      createdAt: new Date(Date.UTC(2020, 0, 3)),
      updatedAt: new Date(Date.UTC(2020, 0, 3)),
      tags: [],
      downloads: 0,
      searchPrefixes: [
        'o',
        'ol',
        'old',
        'r',
        'ru',
        'rul',
        'rule',
        'rules',
        'w',
        'wu',
        'wum',
        'wump',
        'wumpu',
        'wumpus',
        'k',
        'ke',
        'kep',
        'kept',
      ],
      searchVersion: 1,
    }
    await db.collection('wumpuses').insertMany([old, stale, versionOne] as never[])
    const store = await openMongoStore({ uri, dbName })
    try {
      const reindexed = await db.collection('wumpuses').findOne({ _id: versionOne._id as never })
      expect(reindexed?.searchVersion).toBe(SEARCH_VERSION)
      expect((reindexed?.searchPrefixes as string[]).filter((prefix) => prefix.length === 1)).toEqual([])
      expect(await store.wumpuses.list({ limit: 5, q: 'o' })).toEqual({ items: [], total: 0 })
      expect((await store.wumpuses.list({ limit: 5, q: 'rul' })).items.map((item) => item._id)).toEqual([versionOne._id])
      expect(await store.wumpuses.get(old._id)).toMatchObject({ name: 'Ancient Wumpus', tags: [], downloads: 0 })
      expect((await store.wumpuses.list({ limit: 5, q: 'anc' })).items.map((item) => item._id)).toEqual([old._id])
      expect((await store.wumpuses.list({ limit: 5, q: 'stale' })).items.map((item) => item._id)).toEqual([stale._id])
      expect((await store.wumpuses.list({ limit: 5, sort: 'popular' })).items.map((item) => item._id)).toEqual([
        stale._id,
        versionOne._id,
        old._id,
      ])
      await store.wumpuses.addDownloads(new Map([[old._id, 5]]))
      expect((await store.wumpuses.list({ limit: 1, sort: 'popular' })).items[0]?._id).toBe(old._id)
      const updated = await store.wumpuses.update(old._id, { tags: ['ancient'] })
      expect(updated).toMatchObject({ tags: ['ancient'], downloads: 5 })
      expect((await store.wumpuses.list({ limit: 5, tag: 'ancient' })).total).toBe(1)
    } finally {
      await store.close()
      await db.dropDatabase()
    }
  })
})

describe('mongo store search in the database', () => {
  const at = (second: number) => new Date(Date.UTC(2025, 3, 1, 0, 0, second))
  const ids = (page: WumpusPage) => page.items.map((item) => item._id)
  /** The search aggregations the adapter asks for (a match on the words' prefixes first), and those that also count. */
  const isSearch = (command: Document) => command.aggregate === 'wumpuses' && command.pipeline?.[0]?.$match?.searchPrefixes
  const counts = (command: Document) => (command.pipeline as Document[]).some((stage) => stage.$facet?.total)

  // Its own stand-in server, whatever MONGODB_TEST_URI says: it counts what the adapter asks for and receives.
  it('sends one page of a search over the wire, scored and sorted in the database, with its total', async () => {
    let received = 0
    const server = await startMongoWireServer({
      onCommand: (command, reply) => {
        if (command.find !== 'wumpuses' && command.aggregate !== 'wumpuses' && command.getMore === undefined) return
        for (const doc of (reply.cursor?.firstBatch ?? reply.cursor?.nextBatch ?? []) as Document[])
          received += Array.isArray(doc.page) ? doc.page.length : 1
      },
    })
    const store = await openMongoStore({ uri: server.uri, dbName: 'pages', searchMaxAgeMs: 0 })
    try {
      for (let i = 0; i < 30; i++) await store.wumpuses.insert(sampleWumpus({ name: `Star Wumpus ${i}`, createdAt: at(i) }))
      const best = await store.wumpuses.insert(sampleWumpus({ name: 'St', description: 'star', createdAt: at(40) }))
      received = 0
      const first = await store.wumpuses.list({ limit: 5, q: 'st' })
      expect(first.total).toBe(31)
      // An exact name word scores above the prefix matches, then newest first.
      expect(first.items[0]?._id).toBe(best._id)
      expect(first.items.slice(1).map((item) => item.name)).toEqual([
        'Star Wumpus 29',
        'Star Wumpus 28',
        'Star Wumpus 27',
        'Star Wumpus 26',
      ])
      // The page and the one that says more follow: not the 31 matches.
      expect(received).toBe(6)
      received = 0
      const second = await store.wumpuses.list({ limit: 5, q: 'st', cursor: first.nextCursor })
      expect(second.items.map((item) => item.name)).toEqual([
        'Star Wumpus 25',
        'Star Wumpus 24',
        'Star Wumpus 23',
        'Star Wumpus 22',
        'Star Wumpus 21',
      ])
      expect(received).toBe(6)
    } finally {
      await store.close()
      await server.close()
    }
  })

  it("counts a plain list's total once for its pages and visitors, again after a write here that lists see", async () => {
    const countings: Document[] = []
    const server = await startMongoWireServer({
      onCommand: (command) => {
        // countDocuments: an aggregation that groups the filter's documents.
        if (command.aggregate === 'wumpuses' && (command.pipeline as Document[]).some((stage) => stage.$group)) countings.push(command)
      },
    })
    const store = await openMongoStore({ uri: server.uri, dbName: 'totals', searchMaxAgeMs: 60_000 })
    // Not the start's (its migrations count tags).
    countings.length = 0
    try {
      const first = await store.wumpuses.insert(sampleWumpus({ name: 'One', tags: ['blue'], createdAt: at(1) }))
      await store.wumpuses.insert(sampleWumpus({ name: 'Two', createdAt: at(2) }))
      await store.wumpuses.insert(sampleWumpus({ name: 'Three', tags: ['blue'], createdAt: at(3) }))
      const page = await store.wumpuses.list({ limit: 2 })
      expect(page.total).toBe(3)
      expect((await store.wumpuses.list({ limit: 2, cursor: page.nextCursor })).total).toBe(3)
      expect((await store.wumpuses.list({ limit: 2, sort: 'popular' })).total).toBe(3)
      expect(countings).toHaveLength(1)
      expect((await store.wumpuses.list({ limit: 2, tag: 'blue' })).total).toBe(2)
      expect(countings).toHaveLength(2)
      // Downloads change no total; a remix is in no list.
      await store.wumpuses.addDownloads(new Map([[first._id, 2]]))
      const remix = { of: first._id, recipe: { colours: {}, speed: 1 }, source: first.files.lottie.id, visibility: 'private' as const }
      expect(await store.wumpuses.insertRemix({ ...sampleWumpus({ name: 'Remix' }), remix }, { max: 5 })).not.toBe('full')
      expect((await store.wumpuses.list({ limit: 2 })).total).toBe(3)
      expect(countings).toHaveLength(2)
      // A delete here changes it: counted again.
      await store.wumpuses.delete(first._id)
      expect((await store.wumpuses.list({ limit: 2 })).total).toBe(2)
      expect((await store.wumpuses.list({ limit: 2, tag: 'blue' })).total).toBe(1)
      expect(countings).toHaveLength(4)
    } finally {
      await store.close()
      await server.close()
    }
  })

  it("keeps a search's pages and total for its visitors, until a write here or their age", async () => {
    const searches: Document[] = []
    const server = await startMongoWireServer({
      onCommand: (command) => {
        if (isSearch(command)) searches.push(command)
      },
    })
    const store = await openMongoStore({ uri: server.uri, dbName: 'cache', searchMaxAgeMs: 300 })
    const other = new MongoClient(server.uri)
    try {
      const moon = await store.wumpuses.insert(sampleWumpus({ name: 'Moon Wumpus', createdAt: at(1) }))
      const moonlight = await store.wumpuses.insert(sampleWumpus({ name: 'Moonlight Wumpus', createdAt: at(2) }))
      await store.wumpuses.insert(sampleWumpus({ name: 'Sun Wumpus', createdAt: at(3) }))
      const first = await store.wumpuses.list({ limit: 1, q: 'moon' })
      expect(ids(first)).toEqual([moon._id])
      expect(first.total).toBe(2)
      expect(searches.map(counts)).toEqual([true])
      // The same page, the same words typed otherwise: kept.
      expect(await store.wumpuses.list({ limit: 1, q: 'MOON' })).toEqual(first)
      expect(searches).toHaveLength(1)
      // The next page and the newest-first order: one aggregation each, without counting again.
      expect(ids(await store.wumpuses.list({ limit: 1, q: 'moon', cursor: first.nextCursor }))).toEqual([moonlight._id])
      expect(await store.wumpuses.list({ limit: 5, q: 'moon', sort: 'new' })).toMatchObject({ total: 2 })
      expect(searches.map(counts)).toEqual([true, false, false])
      // Most downloaded first reads current counts, so a count added here shows at once.
      expect(ids(await store.wumpuses.list({ limit: 5, q: 'moon', sort: 'popular' }))).toEqual([moonlight._id, moon._id])
      await store.wumpuses.addDownloads(new Map([[moon._id, 3]]))
      expect(ids(await store.wumpuses.list({ limit: 5, q: 'moon', sort: 'popular' }))).toEqual([moon._id, moonlight._id])
      expect(searches).toHaveLength(5)
      // Visitors asking a new search at once share one aggregation; other filters are another search.
      await Promise.all([1, 2, 3].map(() => store.wumpuses.list({ limit: 5, q: 'wumpus' })))
      expect(searches).toHaveLength(6)
      expect(await store.wumpuses.list({ limit: 5, q: 'moon', tag: 'night' })).toEqual({ items: [], total: 0 })
      expect(searches).toHaveLength(7)

      // A write here that searches see: the next search asks again, and finds it.
      const moonbeam = await store.wumpuses.insert(sampleWumpus({ name: 'Moonbeam Wumpus', createdAt: at(4) }))
      expect(ids(await store.wumpuses.list({ limit: 5, q: 'moon' }))).toEqual([moon._id, moonbeam._id, moonlight._id])
      expect(searches).toHaveLength(8)
      await store.wumpuses.update(moonbeam._id, { name: 'Sunbeam Wumpus' })
      expect(await store.wumpuses.list({ limit: 5, q: 'moon' })).toMatchObject({ total: 2 })
      expect(searches).toHaveLength(9)

      // Another instance's write: unseen while the kept page is young (as the HTTP page caches), seen once it is not.
      await other.connect()
      await other
        .db('cache')
        .collection('wumpuses')
        .deleteOne({ _id: moonlight._id as never })
      expect((await store.wumpuses.list({ limit: 5, q: 'moon' })).total).toBe(2)
      expect(searches).toHaveLength(9)
      await sleep(350)
      expect(await store.wumpuses.list({ limit: 5, q: 'moon' })).toMatchObject({ items: [{ _id: moon._id }], total: 1 })
      expect(searches.map(counts).at(-1)).toBe(true)
    } finally {
      await other.close()
      await store.close()
      await server.close()
    }
  })
})

describe('mongo store durability', () => {
  // Its own stand-in server: it sees the commands.
  it('asks every write to be journaled on a majority before it is acknowledged', async () => {
    const writes: Document[] = []
    const server = await startMongoWireServer({
      onCommand: (command) => {
        // A transaction's writes carry none: its commit does.
        const write = ['insert', 'update', 'delete', 'findAndModify'].some((name) => name in command) && command.autocommit !== false
        if (write || 'commitTransaction' in command) writes.push(command)
      },
    })
    const store = await openMongoStore({ uri: server.uri, dbName: 'durable' })
    try {
      const record = await store.wumpuses.insert(sampleWumpus())
      await store.wumpuses.update(record._id, { name: 'Renamed' })
      await store.wumpuses.delete(record._id)
      expect(writes.length).toBeGreaterThan(3)
      expect(writes.some((write) => 'commitTransaction' in write)).toBe(true)
      for (const write of writes) expect(write.writeConcern, Object.keys(write)[0]).toMatchObject({ w: 'majority', j: true })
    } finally {
      await store.close()
      await server.close()
    }
  })
})

describe('mongo store start-up', () => {
  // Its own stand-in server: it sees the commands.
  it('counts tags and emoji again once, from the animations, when upgrading a database whose counts drifted', async () => {
    const dbName = freshDbName()
    const db = admin.db(dbName)
    try {
      const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
      const stored = (i: number, tags: string[], emoji: (typeof wave)[]) => ({
        ...sampleWumpus({ name: `Counted ${i}`, tags, emoji }),
        _id: `abc00000000000000000000${i}`,
        createdAt: new Date(),
        updatedAt: new Date(),
        downloads: 0,
      })
      await db.collection('wumpuses').insertMany([stored(1, ['blue', 'sky'], [wave]), stored(2, ['blue'], [wave, wave])] as never[])
      // Left by a crash between an animation's write and its counts' (before transactions).
      await db.collection('tags').insertMany([
        { _id: 'blue', count: 5 },
        { _id: 'gone', count: 1 },
      ] as never[])
      const store = await openMongoStore({ uri, dbName })
      try {
        expect(await store.wumpuses.listTags()).toEqual([
          { tag: 'blue', count: 2 },
          { tag: 'sky', count: 1 },
        ])
        expect(await store.wumpuses.listEmoji()).toEqual([{ char: '👋', count: 2 }])
      } finally {
        await store.close()
      }
    } finally {
      await db.dropDatabase()
    }
  })

  it('runs each migration once: a start on an up-to-date database reads its schema version, not its collections', async () => {
    const commands: Document[] = []
    const server = await startMongoWireServer({ onCommand: (command) => commands.push(command) })
    const client = new MongoClient(server.uri)
    try {
      await client.connect()
      const db = client.db('starts')
      // An animation from before tags and download counts: the first start brings it up to date.
      const old = { ...sampleWumpus({ name: 'Old' }), _id: 'abc000000000000000000009', createdAt: new Date(), updatedAt: new Date() }
      await db.collection('wumpuses').insertOne(old as never)
      await (await openMongoStore({ uri: server.uri, dbName: 'starts' })).close()
      expect(await db.collection('wumpuses').findOne({ _id: old._id as never })).toMatchObject({ tags: [], downloads: 0 })
      expect(await db.collection('meta').find({}).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 'schema', version: SCHEMA_VERSION },
        { _id: 'search', version: SEARCH_VERSION },
      ])
      commands.length = 0
      await (await openMongoStore({ uri: server.uri, dbName: 'starts' })).close()
      const reads = ['find', 'aggregate', 'count', 'distinct', 'update', 'delete', 'findAndModify']
      const touched = commands.filter((command) => reads.some((name) => name in command))
      // The schema version, the animations indexed by older search rules (none: a range of an index), the search version.
      expect(touched.map((command) => `${Object.keys(command)[0]} ${String(Object.values(command)[0])}`)).toEqual([
        'find meta',
        'find wumpuses',
        'find meta',
      ])
      expect(touched[1]).toMatchObject({
        filter: { $or: [{ searchVersion: { $lt: SEARCH_VERSION } }, { searchVersion: { $exists: false } }] },
      })

      // During a rolling deploy an instance on the older version stores an animation by its rules: the next start indexes it.
      const byOlderRules = {
        ...old,
        _id: 'abc000000000000000000008',
        name: 'Written By An Older Instance',
        searchVersion: SEARCH_VERSION - 1,
      }
      await db.collection('wumpuses').insertOne({ ...byOlderRules, tags: [], downloads: 0, remixOf: null } as never)
      const store = await openMongoStore({ uri: server.uri, dbName: 'starts' })
      try {
        expect((await store.wumpuses.list({ limit: 5, q: 'older instance' })).items.map((item) => item.name)).toEqual([
          'Written By An Older Instance',
        ])
      } finally {
        await store.close()
      }
    } finally {
      await client.close()
      await server.close()
    }
  })
})

/** The schema version before the sensitive counts' migration (the 6th). */
const BEFORE_SENSITIVE_COUNTS_VERSION = 5
/** The schema version before Telegram sets were keyed by pack and kind (the 7th migration, issue 36). */
const BEFORE_TELEGRAM_SET_KINDS_VERSION = 6

describe('mongo store upgrade to Telegram sets by pack and kind', () => {
  it('keeps every set stored before (keyed by its pack) as the pack’s sticker set, beside which an emoji set can be asked', async () => {
    const server = await startMongoWireServer()
    const client = new MongoClient(server.uri)
    try {
      await client.connect()
      const db = client.db('set-kinds')
      await (await openMongoStore({ uri: server.uri, dbName: 'set-kinds' })).close()
      const pack = 'aaaaaaaaaaaaaaaaaaaaaaaa'
      const updatedAt = new Date(Date.UTC(2026, 11, 3))
      // A set as stored before: its pack's id as _id, no kind.
      const sticker = { wumpusId: 'bbbbbbbbbbbbbbbbbbbbbbbb', source: 'f1', fileId: 'F', fileUniqueId: 'U', emoji: ['🙂'], keywords: [] }
      await db.collection('telegramSets').insertOne({
        _id: pack as never,
        name: 'a_by_bot',
        state: 'ready',
        removing: false,
        generation: 3,
        created: true,
        title: 'A',
        stickers: [sticker],
        pending: [],
        ownerUserId: 11,
        updatedAt,
      })
      await db.collection('meta').updateOne({ _id: 'schema' as never }, { $set: { version: BEFORE_TELEGRAM_SET_KINDS_VERSION } })
      const store = await openMongoStore({ uri: server.uri, dbName: 'set-kinds' })
      try {
        expect(await store.telegramSets.get(pack, 'stickers')).toEqual({
          packId: pack,
          kind: 'stickers',
          name: 'a_by_bot',
          state: 'ready',
          removing: false,
          generation: 3,
          created: true,
          title: 'A',
          stickers: [sticker],
          pending: [],
          ownerUserId: 11,
          updatedAt,
        })
        expect(await store.telegramSets.get(pack, 'emoji')).toBeUndefined()
        expect(await db.collection('telegramSets').countDocuments({ _id: pack as never })).toBe(0)
        expect(await store.telegramSets.request(pack, 'emoji', { name: 'a_e_by_bot', now: updatedAt })).toMatchObject({ kind: 'emoji' })
        expect(await store.telegramSets.request(pack, 'stickers', { now: updatedAt })).toMatchObject({ name: 'a_by_bot', generation: 4 })
      } finally {
        await store.close()
      }
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe('mongo store upgrade to counts without the sensitive animations', () => {
  it('counts each tag and emoji of the sensitive animations stored before, so visitors are not shown theirs', async () => {
    const server = await startMongoWireServer()
    const client = new MongoClient(server.uri)
    try {
      await client.connect()
      const db = client.db('sensitive-counts')
      let store = await openMongoStore({ uri: server.uri, dbName: 'sensitive-counts' })
      await store.wumpuses.insert(sampleWumpus({ tags: ['cat'] }))
      await store.wumpuses.insert(sampleWumpus({ tags: ['cat', 'gore'], sensitive: true }))
      await store.close()
      // As counted before: no `sensitive` on any count, one schema version back.
      await db.collection('tags').updateMany({}, { $unset: { sensitive: '' } })
      await db.collection('meta').updateOne({ _id: 'schema' as never }, { $set: { version: BEFORE_SENSITIVE_COUNTS_VERSION } })
      store = await openMongoStore({ uri: server.uri, dbName: 'sensitive-counts' })
      try {
        expect(await store.wumpuses.listTags()).toEqual([{ tag: 'cat', count: 1 }])
        expect(await store.wumpuses.listTags({ withSensitive: true })).toEqual([
          { tag: 'cat', count: 2 },
          { tag: 'gore', count: 1 },
        ])
      } finally {
        await store.close()
      }
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe('mongo store counts that drifted', () => {
  // Its own stand-in server: it sees what comes back to Node.
  it('corrects drifted tag and emoji counts in the background after a start, from a count in the database, and logs how many', async () => {
    const wumpusReplies: Document[] = []
    /** The count entries written, as "collection update|delete value". */
    const countWrites: string[] = []
    const server = await startMongoWireServer({
      onCommand: (command, reply) => {
        for (const name of ['tags', 'emoji']) {
          for (const update of (command.update === name ? command.updates : []) as Document[])
            countWrites.push(`${name} update ${update.q._id}`)
          for (const removal of (command.delete === name ? command.deletes : []) as Document[])
            countWrites.push(`${name} delete ${removal.q._id}`)
        }
        if (command.aggregate === 'wumpuses' || command.find === 'wumpuses')
          wumpusReplies.push(...((reply.cursor?.firstBatch ?? []) as Document[]))
      },
    })
    const store = await openMongoStore({ uri: server.uri, dbName: 'drift' })
    const client = new MongoClient(server.uri)
    const infos: Array<[string, Record<string, unknown> | undefined]> = []
    const errors: unknown[] = []
    const logger: Logger = {
      info: (message, fields) => infos.push([message, fields]),
      error: (...line) => errors.push(line),
      debug: () => undefined,
    }
    let stop = () => undefined as void
    try {
      await client.connect()
      const db = client.db('drift')
      const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
      const fire = { char: '🔥', name: 'fire', shortcode: 'fire' }
      await store.wumpuses.insert(sampleWumpus({ name: 'One', tags: ['blue', 'sky'], emoji: [wave] }))
      await store.wumpuses.insert(sampleWumpus({ name: 'Two', tags: ['blue'], emoji: [wave, wave, fire] }))
      await store.wumpuses.insert(sampleWumpus({ name: 'Three', tags: ['red'] }))
      const tagsTruth = [
        { tag: 'blue', count: 2 },
        { tag: 'red', count: 1 },
        { tag: 'sky', count: 1 },
      ]
      const emojiTruth = [
        { char: '👋', count: 2 },
        { char: '🔥', count: 1 },
      ]
      expect(await store.wumpuses.listTags()).toEqual(tagsTruth)
      // Left off by an older instance's writes without transactions, or a manual edit: a wrong count, a
      // missing entry, a stray entry no animation carries; an emoji missing, another wrong, a stray one.
      await db.collection('tags').updateOne({ _id: 'blue' as never }, { $set: { count: 7 } })
      await db.collection('tags').deleteOne({ _id: 'sky' as never })
      await db.collection('tags').insertOne({ _id: 'gone' as never, count: 3 })
      await db.collection('emoji').deleteOne({ _id: '👋' as never })
      await db.collection('emoji').updateOne({ _id: '🔥' as never }, { $set: { count: 4 } })
      await db.collection('emoji').insertOne({ _id: '🌈' as never, count: 0 })
      expect(await store.wumpuses.listTags()).not.toEqual(tagsTruth)

      wumpusReplies.length = 0
      countWrites.length = 0
      stop = startOrphanSweeper(store, logger, { sessionIdleSeconds: 60 })
      await vi.waitFor(() => expect(infos.map(([message]) => message)).toContain('tag and emoji counts corrected'))
      expect(infos).toContainEqual(['tag and emoji counts corrected', { corrected: 6 }])
      expect(errors).toEqual([])
      expect(await store.wumpuses.listTags()).toEqual(tagsTruth)
      expect(await store.wumpuses.listEmoji()).toEqual(emojiTruth)
      // Stray entries are removed, not left at 0; an entry that was right is not rewritten.
      expect(await db.collection('tags').find({}).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 'blue', count: 2 },
        { _id: 'red', count: 1 },
        { _id: 'sky', count: 1 },
      ])
      expect(await db.collection('emoji').countDocuments({})).toBe(2)
      // Only the entries that differed were written ('red' was right).
      expect(countWrites.sort()).toEqual(
        ['emoji delete 🌈', 'emoji update 👋', 'emoji update 🔥', 'tags delete gone', 'tags update blue', 'tags update sky'].sort(),
      )
      // Counted in the database: only distinct values with their counts (and of sensitive ones) came back, no animation.
      expect(wumpusReplies.length).toBeGreaterThan(0)
      for (const doc of wumpusReplies) expect(Object.keys(doc).sort()).toEqual(['_id', 'count', 'sensitive'])

      // Nothing left to correct: nothing written.
      countWrites.length = 0
      expect(await store.wumpuses.correctCounts?.()).toBe(0)
      expect(countWrites).toEqual([])
    } finally {
      stop()
      await client.close()
      await store.close()
      await server.close()
    }
  })
})

describe('mongo store transactions', () => {
  it('keeps the favourites and personal-pack caps under racing requests of one account', async () => {
    const { store, dbName } = await openFresh()
    try {
      const ids: string[] = []
      for (let i = 0; i < 8; i++) ids.push((await store.wumpuses.insert(sampleWumpus({ name: `Racer ${i}` })))._id)
      const added = await Promise.all(ids.map((id) => store.favourites.add('racer@example.com', id, { max: 3 })))
      expect(added.filter((outcome) => outcome === 'added')).toHaveLength(3)
      expect(added.filter((outcome) => outcome === 'full')).toHaveLength(5)
      expect((await store.favourites.list('racer@example.com', { limit: 10 })).total).toBe(3)
      const packs = await Promise.all(
        ids.map((id, i) =>
          store.packs.insertPersonal(
            { name: `Mine ${i}`, description: '', wumpusIds: [id], createdBy: 'racer@example.com', visibility: 'private' },
            { max: 2 },
          ),
        ),
      )
      expect(packs.filter((pack) => pack !== 'full')).toHaveLength(2)
      expect(await admin.db(dbName).collection('packs').countDocuments({ createdBy: 'racer@example.com' })).toBe(2)
    } finally {
      await store.close()
      await admin.db(dbName).dropDatabase()
    }
  })

  it('refuses a standalone server at start, saying it needs a replica set', async () => {
    const server = await startMongoWireServer({ standalone: true })
    try {
      await expect(openMongoStore({ uri: server.uri, dbName: 'alone' })).rejects.toThrow(/standalone.*replica set.*--replSet/)
    } finally {
      await server.close()
    }
  })

  // Its own stand-in server: it sees the commands.
  it('deletes an animation with its counts, pack places, cover and favourites in one transaction', async () => {
    const commands: Document[] = []
    const server = await startMongoWireServer({ onCommand: (command) => commands.push(command) })
    const store = await openMongoStore({ uri: server.uri, dbName: 'deletes' })
    try {
      const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
      const record = await store.wumpuses.insert(sampleWumpus({ tags: ['gone'], emoji: [wave] }))
      const other = await store.wumpuses.insert(sampleWumpus({ tags: ['kept'] }))
      const pack = await store.packs.insert({
        name: 'Pack',
        description: '',
        wumpusIds: [record._id, other._id],
        createdBy: 'boss@example.com',
      })
      await store.favourites.add('fan@example.com', record._id, { max: 10 })
      commands.length = 0
      expect(await store.wumpuses.delete(record._id)).toBe(1)
      const writes = commands.filter((command) => ['delete', 'update', 'findAndModify'].some((name) => name in command))
      expect(new Set(writes.map((command) => String(Object.values(command)[0])))).toEqual(
        new Set(['wumpuses', 'tags', 'emoji', 'packs', 'favourites']),
      )
      // Every write in the same transaction, then one commit.
      const transaction = writes[0]!.txnNumber as unknown
      expect(transaction).toBeDefined()
      for (const write of writes) expect(write).toMatchObject({ autocommit: false, txnNumber: transaction })
      expect(commands.filter((command) => 'commitTransaction' in command)).toHaveLength(1)
      expect(await store.wumpuses.listTags()).toEqual([{ tag: 'kept', count: 1 }])
      expect(await store.wumpuses.listEmoji()).toEqual([])
      expect(await store.packs.get(pack.id)).toMatchObject({ wumpusIds: [other._id], coverWumpusId: other._id })
      expect((await store.favourites.list('fan@example.com', { limit: 5 })).total).toBe(0)
    } finally {
      await store.close()
      await server.close()
    }
  })
})

describe('mongo store render leases', () => {
  // Its own stand-in server, whose clock is an hour ahead of this machine's.
  it("keeps leases and retry times in the server's clock, so instances whose clocks differ agree on them", async () => {
    const HOUR = 3600_000
    const server = await startMongoWireServer({ clockOffsetMs: HOUR })
    const store = await openMongoStore({ uri: server.uri, dbName: 'leases' })
    const client = new MongoClient(server.uri)
    try {
      await client.connect()
      const record = await store.wumpuses.insert(sampleWumpus())
      const now = new Date()
      const job = await store.renderJobs.claim({ owner: 'a', version: 1_000_000, leaseMs: 60_000, now, id: record._id })
      expect(job?.leaseUntil).toEqual(new Date(now.getTime() + 60_000))
      const stored = () =>
        client
          .db('leases')
          .collection('wumpuses')
          .findOne({ _id: record._id as never })
      const until = (await stored())?.render?.until as Date
      // An hour and a minute ahead of this machine: the server's now plus the lease (give or take the read's latency).
      expect(Math.abs(until.getTime() - (now.getTime() + HOUR + 60_000))).toBeLessThan(500)
      expect(await store.renderJobs.release(job!, { retryAt: new Date(now.getTime() + 5000) })).toBe(true)
      const retryAt = (await stored())?.render?.retryAt as Date
      expect(Math.abs(retryAt.getTime() - (now.getTime() + HOUR + 5000))).toBeLessThan(500)
      // Due again at the retry time of this instance's clock, not an hour later.
      expect(await store.renderJobs.claim({ owner: 'b', version: 1_000_000, leaseMs: 60_000, now, id: record._id })).toBeUndefined()
      const later = new Date(now.getTime() + 5000)
      expect(await store.renderJobs.claim({ owner: 'b', version: 1_000_000, leaseMs: 60_000, now: later, id: record._id })).toMatchObject({
        owner: 'b',
        failures: 1,
      })
    } finally {
      await client.close()
      await store.close()
      await server.close()
    }
  })
})

describe('mongo store upgrades and leftovers', () => {
  it('reads packs stored before personal packs as public, each field edited at their updatedAt, and lists them at /packs', async () => {
    const { store, dbName } = await openFresh()
    try {
      const createdAt = new Date(Date.now() - 60_000)
      const updatedAt = new Date(createdAt.getTime() + 5000)
      const old = {
        _id: 'abc0000000000000000000aa',
        name: 'Old Pack',
        description: '',
        coverWumpusId: null,
        wumpusIds: [],
        createdBy: 'boss@example.com',
        createdAt,
        updatedAt,
      }
      // Written by an instance of the version before, during a rolling deploy.
      await admin
        .db(dbName)
        .collection('packs')
        .insertOne(old as never)
      const times = { name: updatedAt, description: updatedAt, wumpusIds: updatedAt, coverWumpusId: updatedAt, visibility: updatedAt }
      const { _id, ...fields } = old
      expect(await store.packs.get(_id)).toEqual({ id: _id, ...fields, visibility: 'public', editedAt: times })
      expect((await store.packs.list({ limit: 10 })).items.map((pack) => pack.id)).toEqual([_id])
      expect((await store.packs.listPersonal('boss@example.com', { limit: 10 })).total).toBe(0)
      const tooOld = await store.packs.update(_id, { name: 'Too Old' }, { editedAt: new Date(createdAt.getTime() + 1000) })
      expect(tooOld!.superseded).toEqual(['name'])
      expect((await store.packs.update(_id, { description: 'New' }))!.superseded).toEqual([])
      expect(await store.packs.get(_id)).toMatchObject({ name: 'Old Pack', description: 'New', visibility: 'public' })
    } finally {
      await store.close()
      await admin.db(dbName).dropDatabase()
    }
  })

  it('gives animations stored before the fits filter and render jobs their ready platforms and rendered version at start', async () => {
    const dbName = freshDbName()
    const db = admin.db(dbName)
    const record = sampleWumpus({ name: 'Exported Wumpus' })
    const facts = { contentType: 'image/apng', bytes: 9, width: 320, height: 320, frames: 9, durationMs: 900 }
    const file = { id: 'abc0000000000000000000ff', filename: 'x.png', ...facts }
    const derived = {
      source: record.files.lottie.id,
      version: 1,
      madeAt: new Date(),
      exports: [
        { platform: 'discord', file, notes: [] },
        { platform: 'telegram', notes: ['Too long'] },
      ],
    }
    const at = new Date(Date.UTC(2020, 0, 1))
    const exported = { ...record, _id: 'abc000000000000000000011', tags: [], downloads: 0, derived, createdAt: at, updatedAt: at }
    // Made from a Lottie it no longer has: fits nothing.
    const staleDerived = { ...derived, source: 'abc0000000000000000000ee' }
    const stale = {
      ...sampleWumpus(),
      _id: 'abc000000000000000000012',
      tags: [],
      downloads: 0,
      derived: staleDerived,
      createdAt: at,
      updatedAt: at,
    }
    await db.collection('wumpuses').insertMany([exported, stale] as never[])
    const store = await openMongoStore({ uri, dbName })
    try {
      expect((await store.wumpuses.list({ limit: 5, fits: 'discord' })).items.map((item) => item._id)).toEqual([exported._id])
      expect((await store.wumpuses.list({ limit: 5, fits: 'telegram' })).total).toBe(0)
      // And their rendered version: by rules version 1 only the stale one needs a render.
      const claim = (id: string) => store.renderJobs.claim({ owner: 'probe', version: 1, leaseMs: 1000, now: new Date(), id })
      expect(await claim(exported._id)).toBeUndefined()
      expect((await claim(stale._id))?.record._id).toBe(stale._id)
    } finally {
      await store.close()
      await db.dropDatabase()
    }
  })

  it('reads and sweeps sessions an older instance created without a last use, as used at their start', async () => {
    const { store, dbName } = await openFresh()
    try {
      const day = 86_400_000
      const session = (id: string, ageMs: number) => ({
        _id: id,
        email: 'old@example.com',
        uid: 'u',
        createdAt: new Date(Date.now() - ageMs),
        expiresAt: new Date(Date.now() + day),
      })
      // Written by an instance of the version before the idle timeout, during a rolling deploy.
      await admin
        .db(dbName)
        .collection('sessions')
        .insertMany([session('recent', 1000), session('idle', 5 * day)] as never[])
      expect((await store.sessions.get('recent'))!.lastUsedAt.getTime()).toBeGreaterThan(Date.now() - day)
      expect(await store.sessions.deleteExpired(new Date(), { lastUsedBefore: new Date(Date.now() - 3 * day) })).toBe(1)
      expect(await store.sessions.get('idle')).toBeUndefined()
      expect(await store.sessions.get('recent')).toBeDefined()
    } finally {
      await store.close()
      await admin.db(dbName).dropDatabase()
    }
  })

  it('gives records stored before file claims their fileIds, and then refuses a shared file', async () => {
    const dbName = freshDbName()
    const db = admin.db(dbName)
    try {
      const old = sampleWumpus()
      await db
        .collection('wumpuses')
        .insertOne({ _id: 'aaaaaaaaaaaaaaaaaaaaaaaa' as never, ...old, createdAt: new Date(), updatedAt: new Date() })
      const store = await openMongoStore({ uri, dbName })
      try {
        expect((await db.collection('wumpuses').findOne({}))?.fileIds?.sort()).toEqual(
          [old.files.gif.id, old.files.apng.id, old.files.lottie.id].sort(),
        )
        expect(await db.collection('wumpuses').listIndexes().toArray()).toContainEqual(
          expect.objectContaining({ key: { fileIds: 1 }, unique: true }),
        )
        await expect(
          store.wumpuses.insert(sampleWumpus({ files: { ...sampleWumpus().files, apng: old.files.apng } })),
        ).rejects.toBeInstanceOf(FileInUseError)
      } finally {
        await store.close()
      }
    } finally {
      await db.dropDatabase()
    }
  })

  it('opens with a warning when old records already share a file', async () => {
    const dbName = freshDbName()
    const db = admin.db(dbName)
    try {
      const shared = sampleWumpus()
      for (const _id of ['aaaaaaaaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbb']) {
        await db.collection('wumpuses').insertOne({ _id: _id as never, ...shared, createdAt: new Date(), updatedAt: new Date() })
      }
      const warnings: string[] = []
      const store = await openMongoStore({ uri, dbName, onWarning: (message) => warnings.push(message) })
      await store.close()
      expect(warnings).toEqual([expect.stringMatching(/share files/)])
    } finally {
      await db.dropDatabase()
    }
  })

  it('removes GridFS chunks without a file document once they are older than asked', async () => {
    const { store, dbName } = await openFresh()
    try {
      const kept = await store.files.put({ bytes: new Uint8Array([1, 2]), contentType: 'image/gif', filename: 'k.gif' })
      const stray = ObjectId.createFromTime(Math.floor(Date.now() / 1000) - 3600)
      await admin
        .db(dbName)
        .collection('files.chunks')
        .insertOne({ files_id: stray, n: 0, data: new Uint8Array([9]) })
      expect(await store.files.sweepStrayBlobs(new Date(Date.now() - 2 * 3600_000))).toBe(0)
      expect(await store.files.sweepStrayBlobs(new Date())).toBe(1)
      expect(await admin.db(dbName).collection('files.chunks').countDocuments({ files_id: stray })).toBe(0)
      expect((await store.files.read(kept.id))?.bytes).toEqual(new Uint8Array([1, 2]))
    } finally {
      await store.close()
      await admin.db(dbName).dropDatabase()
    }
  })
})

describe('mongo store over files written by others', () => {
  // Its own stand-in server: it sees the commands. `distinct` answers one document, capped at 16 MB (about 0.8M ids).
  it('sweeps stray chunks by grouping their ids in the database, more than one batch of them, never with distinct', async () => {
    const commands: Document[] = []
    const server = await startMongoWireServer({ onCommand: (command) => commands.push(command) })
    const store = await openMongoStore({ uri: server.uri, dbName: 'sweep' })
    const client = new MongoClient(server.uri)
    try {
      await client.connect()
      const chunks = client.db('sweep').collection('files.chunks')
      const kept = await store.files.put({ bytes: new Uint8Array([1, 2]), contentType: 'image/gif', filename: 'k.gif' })
      const hourAgo = Math.floor(Date.now() / 1000) - 3600
      const strays = Array.from(
        { length: SWEEP_BATCH + 5 },
        (_, i) => new ObjectId(hourAgo.toString(16) + i.toString(16).padStart(16, '0')),
      )
      // Two chunks for some: an id counts once.
      await chunks.insertMany([
        ...strays.map((files_id) => ({ files_id, n: 0, data: new Uint8Array([9]) })),
        ...strays.slice(0, 10).map((files_id) => ({ files_id, n: 1, data: new Uint8Array([8]) })),
      ])
      commands.length = 0
      expect(await store.files.sweepStrayBlobs(new Date())).toBe(strays.length)
      expect(await chunks.countDocuments({})).toBe(1)
      expect((await store.files.read(kept.id))?.bytes).toEqual(new Uint8Array([1, 2]))
      expect(commands.filter((command) => 'distinct' in command)).toEqual([])
      expect(commands.find((command) => command.aggregate === 'files.chunks')).toMatchObject({ allowDiskUse: true })
      expect(commands.filter((command) => command.delete === 'files.chunks')).toHaveLength(2)
    } finally {
      await client.close()
      await store.close()
      await server.close()
    }
  })

  it('reads GridFS files without our metadata or with unknown labels', async () => {
    const { store, dbName } = await openFresh()
    try {
      const bucket = new GridFSBucket(admin.db(dbName), { bucketName: 'files' })
      const write = (id: ObjectId, filename: string, metadata?: object) =>
        new Promise<void>((resolve, reject) => {
          const upload = bucket.openUploadStreamWithId(id, filename, metadata ? { metadata } : {})
          upload.once('error', reject).once('finish', () => resolve())
          upload.end(new Uint8Array([5, 6]))
        })
      const bare = new ObjectId()
      const odd = new ObjectId()
      await write(bare, 'bare.gif')
      await write(odd, 'odd.gif', { contentType: 'image/gif', sha256: 'ab', owner: 42, purpose: 'banner' })
      const bareInfo = await store.files.info(bare.toHexString())
      expect(bareInfo).toStrictEqual({
        id: bare.toHexString(),
        contentType: 'application/octet-stream',
        filename: 'bare.gif',
        size: 2,
        sha256: '',
        createdAt: expect.any(Date),
      })
      expect(await store.files.info(odd.toHexString())).toStrictEqual({
        id: odd.toHexString(),
        contentType: 'image/gif',
        filename: 'odd.gif',
        size: 2,
        sha256: 'ab',
        createdAt: expect.any(Date),
      })
      const listed = await store.files.list({ createdBefore: new Date(Date.now() + 1000), limit: 10 })
      expect(listed.map((file) => file.id).sort()).toEqual([bare.toHexString(), odd.toHexString()].sort())
    } finally {
      await store.close()
      await admin.db(dbName).dropDatabase()
    }
  })
})

describe('mongo store errors', () => {
  it('maps duplicate keys to DuplicateKeyError and leaves other errors alone', () => {
    const duplicate = new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' })
    expect(toStoreError(duplicate)).toBeInstanceOf(DuplicateKeyError)
    const other = new MongoServerError({ code: 2, errmsg: 'bad value' })
    expect(toStoreError(other)).toBe(other)
  })

  it('fails to open with StoreUnavailableError when nothing listens', async () => {
    const server = await startMongoWireServer()
    const deadUri = server.uri
    await server.close()
    await expect(openMongoStore({ uri: deadUri, serverSelectionTimeoutMS: 300 })).rejects.toBeInstanceOf(StoreUnavailableError)
  })

  it('answers StoreUnavailableError once the server goes away', async () => {
    const server = await startMongoWireServer()
    const store = await openMongoStore({ uri: server.uri, dbName: 'gone', serverSelectionTimeoutMS: 300 })
    try {
      await store.ping()
      await server.close()
      await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError)
      await expect(store.wumpuses.list({ limit: 5 })).rejects.toBeInstanceOf(StoreUnavailableError)
    } finally {
      await store.close()
    }
  })
})

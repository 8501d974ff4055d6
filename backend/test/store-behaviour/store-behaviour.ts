/**
 * The one behaviour suite every Store adapter must pass (the store's behaviour, not the API's contract/). Call
 * it from an adapter's test file with a factory that opens a store over fresh, empty data.
 */
import { createHash, randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { compareListKeys, listOrder, matchScore, queryWords } from '../../../contract/search'
import { PLATFORMS, type Platform } from '../../../contract/stickers'
import { encodeCursor } from '../../src/store/list-order'
import {
  FileInUseError,
  InvalidCursorError,
  type DerivedMedia,
  type ListRemixesOptions,
  type ListWumpusesOptions,
  type NewFile,
  type NewPack,
  type NewWumpus,
  type PackRecord,
  type RemixInfo,
  type Store,
  type StoredFile,
  type WumpusRecord,
} from '../../src/store/port'

export interface StoreUnderTest {
  store: Store
  /** Closes `store` and opens a new store over the same data. */
  reopen(): Promise<Store>
  /** Closes whatever is open and removes the data. */
  destroy(): Promise<void>
}

export type StoreFactory = () => Promise<StoreUnderTest>

const UNKNOWN_ID = 'abcdefabcdefabcdefabcdef'
const MALFORMED_IDS = ['', 'nope', 'ABCDEFABCDEFABCDEFABCDEF', 'abcdefabcdefabcdefabcde', `${UNKNOWN_ID}0`, '{"$gt":""}']

/** A valid new record with unique names and file refs; for adapter-specific tests too. */
export function sampleWumpus(overrides: Partial<NewWumpus> = {}): NewWumpus {
  const tag = randomBytes(4).toString('hex')
  return {
    name: `Wumpus ${tag}`,
    description: `A wumpus called ${tag}`,
    files: {
      gif: { id: `${tag}0000000000000001`, filename: `${tag}.gif` },
      apng: { id: `${tag}0000000000000002`, filename: `${tag}.png` },
      lottie: { id: `${tag}0000000000000003`, filename: `${tag}.json` },
    },
    u_email: 'maker@example.com',
    u_name: 'Maker',
    ...overrides,
  }
}

/** Random 24-hex ids, as the files a record refers to. */
function sampleFiles(): NewWumpus['files'] {
  const { files } = sampleWumpus()
  return files
}

function fileIds(files: NewWumpus['files']): string[] {
  return [files.gif.id, files.apng.id, files.lottie.id]
}

async function inUse(store: Store, ids: string[]): Promise<boolean[]> {
  return Promise.all(ids.map((id) => store.wumpuses.usesFile(id)))
}

/** Puts a file once the clock has moved past the previous one, so creation times differ. */
async function putAfter(store: Store, previous: StoredFile | undefined, file: NewFile): Promise<StoredFile> {
  while (previous && Date.now() <= previous.createdAt.getTime()) await new Promise((resolve) => setImmediate(resolve))
  return store.files.put(file)
}

function later(date: Date, ms = 1): Date {
  return new Date(date.getTime() + ms)
}

/** The expected newest-first order: createdAt desc, then _id desc. */
function newestFirst(records: WumpusRecord[]): string[] {
  return [...records]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
    .map((record) => record._id)
}

type ListQuery = Omit<ListWumpusesOptions, 'limit' | 'cursor'>

async function collectPages(
  store: Store,
  limit: number,
  query: string | ListQuery = {},
): Promise<{ ids: string[]; pages: number; totals: number[] }> {
  const options = typeof query === 'string' ? { u_email: query } : query
  const ids: string[] = []
  const totals: number[] = []
  let cursor: string | undefined
  let pages = 0
  do {
    const page = await store.wumpuses.list({ ...options, limit, cursor })
    expect(page.items.length).toBeLessThanOrEqual(limit)
    ids.push(...page.items.map((item) => item._id))
    totals.push(page.total)
    cursor = page.nextCursor
    pages++
    if (pages > 1000) throw new Error('Paging does not end')
  } while (cursor)
  return { ids, pages, totals }
}

/** A small deterministic generator, so a failing random case can be run again. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

// Few words, some sharing prefixes and some with accents, so queries hit many records and ties.
const VOCABULARY = [
  'moon',
  'moonlight',
  'mood',
  'star',
  'starry',
  'café',
  'cafe',
  'crème',
  'wave',
  'waves',
  'waving',
  'happy',
  'hop',
  'hopping',
  'über',
  'naïve',
  'night',
  'nightly',
  'sky',
]
const TAGS = ['party', 'night', 'cute', 'wave', 'happy', 'blue']

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!
}

function randomTags(random: () => number): string[] {
  return [...new Set(Array.from({ length: Math.floor(random() * 3) }, () => pick(random, TAGS)))]
}

function randomWumpus(random: () => number, createdAt: Date): NewWumpus {
  const words = (count: number) => Array.from({ length: count }, () => pick(random, VOCABULARY))
  const title = (word: string) => (random() < 0.3 ? word.toUpperCase() : word[0]!.toUpperCase() + word.slice(1))
  return sampleWumpus({
    name: [...words(1 + Math.floor(random() * 2)).map(title), 'Wumpus'].join(' '),
    description: `A wumpus ${words(3 + Math.floor(random() * 4)).join(' ')}.`,
    tags: randomTags(random),
    u_email: random() < 0.5 ? 'a@example.com' : 'b@example.com',
    createdAt,
  })
}

function randomQueries(random: () => number, count: number): ListQuery[] {
  const queries: ListQuery[] = [
    {},
    { sort: 'popular' },
    { tag: 'night' },
    { tag: 'party', sort: 'popular' },
    { q: 'wumpus' },
    { q: 'Moon' },
    { q: 'star night' },
    { q: 'wave', tag: 'happy' },
    { fits: 'discord' },
    { fits: 'slack', sort: 'popular' },
    { fits: 'telegram', tag: 'night' },
    { q: 'moon', fits: 'whatsapp' },
  ]
  while (queries.length < count) {
    const words = Array.from({ length: 1 + Math.floor(random() * 2) }, () => {
      const word = pick(random, VOCABULARY)
      return random() < 0.4 ? word.slice(0, 1 + Math.floor(random() * word.length)) : word.toUpperCase()
    })
    const query: ListQuery = { q: words.join(' ') }
    if (random() < 0.3) query.tag = pick(random, TAGS)
    if (random() < 0.2) query.u_email = 'a@example.com'
    if (random() < 0.3) query.fits = pick(random, PLATFORMS)
    const sort = pick(random, [undefined, 'new', 'popular'] as const)
    if (sort) query.sort = sort
    queries.push(query)
  }
  return queries
}

/** Derived media made from `lottieId` with a file for each of `ready` (other platforms: notes only). */
function exportsFor(lottieId: string, ready: readonly Platform[]): DerivedMedia {
  const file = (platform: Platform) => ({
    id: randomBytes(12).toString('hex'),
    filename: `w.${platform}`,
    contentType: 'image/apng',
    bytes: 1000,
    width: 320,
    height: 320,
    frames: 40,
    durationMs: 2000,
  })
  return {
    source: lottieId,
    version: 1,
    madeAt: new Date(Date.UTC(2026, 0, 2)),
    exports: PLATFORMS.map((platform) =>
      ready.includes(platform) ? { platform, file: file(platform), notes: [] } : { platform, notes: ['Too big'] },
    ),
  }
}

/** Whether the record has a ready export for the platform, the slow way: made from its current Lottie, with a file. */
function fitsReference(record: WumpusRecord, platform: Platform): boolean {
  const derived = record.derived
  return derived?.source === record.files.lottie.id && derived.exports.some((e) => e.platform === platform && e.file !== undefined)
}

/** The expected ids of a list, computed the slow way from contract/search.ts's rules. */
function referenceList(records: WumpusRecord[], query: ListQuery): string[] {
  const words = queryWords(query.q)
  const order = listOrder(query.sort, words)
  return records
    .filter(
      (record) =>
        (query.u_email === undefined || record.u_email === query.u_email) && (query.tag === undefined || record.tags.includes(query.tag)),
    )
    .filter((record) => query.fits === undefined || fitsReference(record, query.fits))
    .map((record) => ({ record, score: matchScore(words, record) }))
    .filter(({ score }) => words.length === 0 || score > 0)
    .map(({ record, score }) => ({
      rank: order === 'relevance' ? score : order === 'popular' ? record.downloads : 0,
      time: record.createdAt.getTime(),
      id: record._id,
    }))
    .sort(compareListKeys)
    .map((key) => key.id)
}

export function describeStoreBehaviour(name: string, factory: StoreFactory, expectedKind: Store['kind']): void {
  describe(`Store behaviour: ${name}`, () => {
    let subject: StoreUnderTest
    let store: Store

    beforeEach(async () => {
      subject = await factory()
      store = subject.store
    })

    afterEach(async () => {
      await subject.destroy()
    })

    it('reports its kind and answers ping', async () => {
      expect(store.kind).toBe(expectedKind)
      await expect(store.ping()).resolves.toBeUndefined()
    })

    describe('wumpuses', () => {
      it('inserts and reads back a record with a 24-hex id and dates', async () => {
        const input = sampleWumpus()
        const before = Date.now()
        const inserted = await store.wumpuses.insert(input)
        expect(inserted._id).toMatch(/^[0-9a-f]{24}$/)
        expect(inserted).toMatchObject(input)
        expect(inserted.createdAt).toBeInstanceOf(Date)
        expect(inserted.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1)
        expect(inserted.updatedAt.getTime()).toBe(inserted.createdAt.getTime())
        expect(await store.wumpuses.get(inserted._id)).toEqual(inserted)
      })

      it('keeps a given createdAt and gives each record its own id', async () => {
        const createdAt = new Date('2024-02-03T04:05:06.789Z')
        const a = await store.wumpuses.insert(sampleWumpus({ createdAt }))
        const b = await store.wumpuses.insert(sampleWumpus({ createdAt }))
        expect(a.createdAt).toEqual(createdAt)
        expect((await store.wumpuses.get(a._id))?.createdAt).toEqual(createdAt)
        expect(a._id).not.toBe(b._id)
      })

      it('does not store keys outside the record shape', async () => {
        const sample = sampleWumpus()
        const input = { ...sample, role: 'admin', files: { ...sample.files, gif: { ...sample.files.gif, size: 3 } } } as NewWumpus
        const inserted = await store.wumpuses.insert(input)
        const read = await store.wumpuses.get(inserted._id)
        expect(Object.keys(read ?? {}).sort()).toEqual([
          '_id',
          'createdAt',
          'description',
          'downloads',
          'emoji',
          'files',
          'keywords',
          'name',
          'tags',
          'u_email',
          'u_name',
          'updatedAt',
        ])
        expect(read).toMatchObject({ tags: [], emoji: [], keywords: [], downloads: 0 })
        expect(read?.files).toEqual(sample.files)
        await store.wumpuses.update(inserted._id, { u_email: 'thief@example.com' } as never)
        expect((await store.wumpuses.get(inserted._id))?.u_email).toBe(sample.u_email)
      })

      it('answers undefined or 0 for unknown and malformed ids', async () => {
        await store.wumpuses.insert(sampleWumpus())
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
          expect(await store.wumpuses.get(id)).toBeUndefined()
          expect(await store.wumpuses.update(id, { name: 'x' })).toBeUndefined()
          expect(await store.wumpuses.delete(id)).toBe(0)
        }
        expect(await store.wumpuses.count()).toBe(1)
      })

      it('updates only the patched fields and bumps updatedAt', async () => {
        const inserted = await store.wumpuses.insert(sampleWumpus({ createdAt: new Date(Date.now() - 60_000) }))
        const files = {
          gif: { id: 'f00000000000000000000001', filename: 'new.gif' },
          apng: { id: 'f00000000000000000000002', filename: 'new.png' },
          lottie: { id: 'f00000000000000000000003', filename: 'new.json' },
        }
        const updated = await store.wumpuses.update(inserted._id, { name: 'Renamed', files, description: undefined })
        expect(updated).toEqual({
          ...inserted,
          name: 'Renamed',
          files,
          updatedAt: updated?.updatedAt,
        })
        expect(updated!.updatedAt.getTime()).toBeGreaterThan(inserted.createdAt.getTime())
        expect(await store.wumpuses.get(inserted._id)).toEqual(updated)
      })

      it('updates while the files are still the ones given, else changes nothing and answers undefined', async () => {
        const inserted = await store.wumpuses.insert(sampleWumpus())
        const gif = { id: 'f00000000000000000000011', filename: 'first.gif' }
        const files = { ...inserted.files, gif }
        const updated = await store.wumpuses.update(inserted._id, { files }, { whileFiles: inserted.files })
        expect(updated?.files).toEqual(files)
        // An edit made from the first read: the files changed since, so neither text nor files are written.
        for (const patch of [
          { files: { ...inserted.files, apng: { id: 'f00000000000000000000012', filename: 'late.png' } } },
          { name: 'Late' },
        ]) {
          expect(await store.wumpuses.update(inserted._id, patch, { whileFiles: inserted.files })).toBeUndefined()
        }
        expect(await store.wumpuses.get(inserted._id)).toEqual(updated)
        expect(await store.wumpuses.findByFile('f00000000000000000000012')).toBeUndefined()
        expect(await store.wumpuses.update(inserted._id, { name: 'Named' }, { whileFiles: files })).toMatchObject({ name: 'Named', files })
        expect(await store.wumpuses.update(UNKNOWN_ID, { name: 'x' }, { whileFiles: files })).toBeUndefined()
      })

      it('deletes once and counts what is left', async () => {
        const a = await store.wumpuses.insert(sampleWumpus())
        const b = await store.wumpuses.insert(sampleWumpus())
        expect(await store.wumpuses.count()).toBe(2)
        expect(await store.wumpuses.delete(a._id)).toBe(1)
        expect(await store.wumpuses.delete(a._id)).toBe(0)
        expect(await store.wumpuses.get(a._id)).toBeUndefined()
        expect(await store.wumpuses.get(b._id)).toEqual(b)
        expect(await store.wumpuses.count()).toBe(1)
        const page = await store.wumpuses.list({ limit: 10 })
        expect(page.items.map((item) => item._id)).toEqual([b._id])
        expect(page.total).toBe(1)
      })

      it('moves the revision on every animation write, and only then', async () => {
        const seen = [store.wumpuses.revision()]
        const record = await store.wumpuses.insert(sampleWumpus())
        seen.push(store.wumpuses.revision())
        await store.wumpuses.update(record._id, { name: 'Renamed' })
        seen.push(store.wumpuses.revision())
        await store.wumpuses.delete(record._id)
        seen.push(store.wumpuses.revision())
        expect(new Set(seen).size).toBe(4)
        // Reads and writes that change nothing leave it alone.
        await store.wumpuses.list({ limit: 5 })
        await store.wumpuses.update(record._id, { name: 'Gone' })
        await store.wumpuses.delete(record._id)
        await store.users.upsert('reader@example.com', {})
        expect(store.wumpuses.revision()).toBe(seen[3])
      })

      it('lists newest first across pages with no duplicates or gaps, stable on createdAt ties', async () => {
        const base = Date.UTC(2025, 0, 1)
        const records: WumpusRecord[] = []
        // 5 distinct times, 5 records each, inserted in a scrambled order.
        const times = Array.from({ length: 25 }, (_, i) => base + ((i * 7) % 5) * 1000)
        for (const time of times) records.push(await store.wumpuses.insert(sampleWumpus({ createdAt: new Date(time) })))
        const expected = newestFirst(records)

        const first = await store.wumpuses.list({ limit: 7 })
        expect(first.items.map((item) => item._id)).toEqual(expected.slice(0, 7))
        expect(first.total).toBe(25)
        expect(first.items[0]).toEqual(records.find((record) => record._id === expected[0]))

        const { ids, pages, totals } = await collectPages(store, 7)
        expect(ids).toEqual(expected)
        expect(new Set(ids).size).toBe(25)
        expect(pages).toBe(4)
        expect(totals.every((total) => total === 25)).toBe(true)
      })

      it('ends without an empty page when the count divides evenly, and handles an empty store', async () => {
        expect(await store.wumpuses.list({ limit: 5 })).toEqual({ items: [], total: 0 })
        for (let i = 0; i < 10; i++) await store.wumpuses.insert(sampleWumpus({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)) }))
        const first = await store.wumpuses.list({ limit: 5 })
        expect(first.nextCursor).toBeDefined()
        const second = await store.wumpuses.list({ limit: 5, cursor: first.nextCursor })
        expect(second.items).toHaveLength(5)
        expect(second.nextCursor).toBeUndefined()
        const whole = await store.wumpuses.list({ limit: 10 })
        expect(whole.items).toHaveLength(10)
        expect(whole.nextCursor).toBeUndefined()
      })

      it('keeps paging stable when records are added or deleted between pages', async () => {
        const records: WumpusRecord[] = []
        for (let i = 0; i < 12; i++) {
          records.push(await store.wumpuses.insert(sampleWumpus({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) })))
        }
        const expected = newestFirst(records)
        const first = await store.wumpuses.list({ limit: 4 })
        expect(first.items.map((item) => item._id)).toEqual(expected.slice(0, 4))
        // A newer record and the deletion of the cursor's own record must not shift the next page.
        await store.wumpuses.insert(sampleWumpus())
        expect(await store.wumpuses.delete(expected[3]!)).toBe(1)
        const second = await store.wumpuses.list({ limit: 4, cursor: first.nextCursor })
        expect(second.items.map((item) => item._id)).toEqual(expected.slice(4, 8))
        expect(second.total).toBe(12)
      })

      it('filters by uploader with its own total and paging', async () => {
        const mine: WumpusRecord[] = []
        for (let i = 0; i < 9; i++) {
          const createdAt = new Date(Date.UTC(2025, 5, 1, 0, 0, i % 3))
          mine.push(await store.wumpuses.insert(sampleWumpus({ u_email: 'me@example.com', createdAt })))
          await store.wumpuses.insert(sampleWumpus({ u_email: 'other@example.com', createdAt }))
        }
        const page = await store.wumpuses.list({ limit: 4, u_email: 'me@example.com' })
        expect(page.total).toBe(9)
        expect(page.items.every((item) => item.u_email === 'me@example.com')).toBe(true)
        const { ids, totals } = await collectPages(store, 4, 'me@example.com')
        expect(ids).toEqual(newestFirst(mine))
        expect(totals).toEqual([9, 9, 9])
        expect(await store.wumpuses.list({ limit: 4, u_email: 'nobody@example.com' })).toEqual({ items: [], total: 0 })
        expect(await store.wumpuses.count()).toBe(18)
      })

      it('rejects malformed cursors with InvalidCursorError', async () => {
        await store.wumpuses.insert(sampleWumpus())
        const bad = [
          'garbage',
          '',
          Buffer.from('123.nothex').toString('base64url'),
          Buffer.from(`abc.${UNKNOWN_ID}`).toString('base64url'),
          Buffer.from(`1.${UNKNOWN_ID}.1`).toString('base64url'),
        ]
        for (const cursor of bad) {
          await expect(store.wumpuses.list({ limit: 5, cursor })).rejects.toBeInstanceOf(InvalidCursorError)
        }
        // A well-formed cursor past every record is a valid, empty page.
        const past = encodeCursor({ rank: 0, time: 0, id: UNKNOWN_ID }, 'new')
        expect(await store.wumpuses.list({ limit: 5, cursor: past })).toEqual({ items: [], total: 1 })
      })
    })

    describe('search, tags and downloads', () => {
      const at = (second: number) => new Date(Date.UTC(2025, 3, 1, 0, 0, second))
      const ids = (page: { items: WumpusRecord[] }) => page.items.map((item) => item._id)

      it('keeps tags, replaces them on update, and lists them with counts, most used first', async () => {
        const a = await store.wumpuses.insert(sampleWumpus({ tags: ['happy', 'wave'] }))
        const b = await store.wumpuses.insert(sampleWumpus({ tags: ['happy'] }))
        await store.wumpuses.insert(sampleWumpus())
        expect((await store.wumpuses.get(a._id))?.tags).toEqual(['happy', 'wave'])
        expect(await store.wumpuses.listTags()).toEqual([
          { tag: 'happy', count: 2 },
          { tag: 'wave', count: 1 },
        ])
        const updated = await store.wumpuses.update(a._id, { tags: ['sleepy', 'wave', 'blue'] })
        expect(updated?.tags).toEqual(['sleepy', 'wave', 'blue'])
        expect(await store.wumpuses.listTags()).toEqual([
          { tag: 'blue', count: 1 },
          { tag: 'happy', count: 1 },
          { tag: 'sleepy', count: 1 },
          { tag: 'wave', count: 1 },
        ])
        await store.wumpuses.update(a._id, { name: 'Renamed Wumpus' })
        expect((await store.wumpuses.get(a._id))?.tags).toEqual(['sleepy', 'wave', 'blue'])
        expect(await store.wumpuses.delete(b._id)).toBe(1)
        await store.wumpuses.update(a._id, { tags: [] })
        expect(await store.wumpuses.listTags()).toEqual([])
      })

      it('keeps emoji and keywords, replaces them on update, finds animations by them, and lists emoji with counts', async () => {
        const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
        const heart = { char: '❤️', name: 'red heart', shortcode: 'heart' }
        const party = { char: '🎉', name: 'party popper', shortcode: 'tada' }
        const a = await store.wumpuses.insert(sampleWumpus({ emoji: [wave, heart], keywords: ['good morning'] }))
        const b = await store.wumpuses.insert(sampleWumpus({ emoji: [heart] }))
        const plain = await store.wumpuses.insert(sampleWumpus())
        expect(await store.wumpuses.get(a._id)).toMatchObject({ emoji: [wave, heart], keywords: ['good morning'] })
        expect(await store.wumpuses.get(plain._id)).toMatchObject({ emoji: [], keywords: [] })
        expect(await store.wumpuses.listEmoji()).toEqual([
          { char: '❤️', count: 2 },
          { char: '👋', count: 1 },
        ])
        for (const q of ['👋', '👋🏽', 'wave', 'waving hand', 'morning', 'goo'])
          expect(ids(await store.wumpuses.list({ limit: 10, q })), q).toEqual([a._id])
        expect(new Set(ids(await store.wumpuses.list({ limit: 10, q: '❤' })))).toEqual(new Set([a._id, b._id]))
        expect(new Set(ids(await store.wumpuses.list({ limit: 10, q: 'heart' })))).toEqual(new Set([a._id, b._id]))
        expect(await store.wumpuses.list({ limit: 10, q: '🎉' })).toEqual({ items: [], total: 0 })

        const updated = await store.wumpuses.update(a._id, { emoji: [party], keywords: [] })
        expect(updated).toMatchObject({ emoji: [party], keywords: [] })
        expect(ids(await store.wumpuses.list({ limit: 10, q: '🎉' }))).toEqual([a._id])
        expect(await store.wumpuses.list({ limit: 10, q: '👋' })).toEqual({ items: [], total: 0 })
        expect(await store.wumpuses.list({ limit: 10, q: 'morning' })).toEqual({ items: [], total: 0 })
        expect(await store.wumpuses.listEmoji()).toEqual([
          { char: '❤️', count: 1 },
          { char: '🎉', count: 1 },
        ])
        await store.wumpuses.update(a._id, { name: 'Renamed Wumpus' })
        expect((await store.wumpuses.get(a._id))?.emoji).toEqual([party])
        expect(await store.wumpuses.delete(b._id)).toBe(1)
        expect(await store.wumpuses.listEmoji()).toEqual([{ char: '🎉', count: 1 }])
      })

      it('filters by tag with its own total and paging, newest first, also with an uploader', async () => {
        const tagged: WumpusRecord[] = []
        for (let i = 0; i < 9; i++) {
          const u_email = i % 2 ? 'odd@example.com' : 'even@example.com'
          tagged.push(await store.wumpuses.insert(sampleWumpus({ tags: ['party', `t${i % 3}`], u_email, createdAt: at(i % 4) })))
          await store.wumpuses.insert(sampleWumpus({ tags: ['other'], u_email, createdAt: at(i % 4) }))
        }
        const { ids: all, totals } = await collectPages(store, 4, { tag: 'party' })
        expect(all).toEqual(newestFirst(tagged))
        expect(totals).toEqual([9, 9, 9])
        const odd = await collectPages(store, 2, { tag: 'party', u_email: 'odd@example.com' })
        expect(odd.ids).toEqual(newestFirst(tagged.filter((record) => record.u_email === 'odd@example.com')))
        expect(odd.totals.every((total) => total === 4)).toBe(true)
        expect(await store.wumpuses.list({ limit: 5, tag: 'none' })).toEqual({ items: [], total: 0 })
        expect(await store.wumpuses.list({ limit: 5, tag: 't1', u_email: 'nobody@example.com' })).toEqual({ items: [], total: 0 })
      })

      it('finds words whatever their case and accents, and as prefixes while typing', async () => {
        const cafe = await store.wumpuses.insert(sampleWumpus({ name: 'Café Wumpus', description: 'Sipping a crème brûlée latte' }))
        const wave = await store.wumpuses.insert(
          sampleWumpus({ name: 'Waving Wumpus', description: 'Says hello to everyone', tags: ['greeting'] }),
        )
        for (const q of ['cafe', 'CAFÉ', 'Cafe\u0301', 'caf', 'ca', 'creme brulee', 'BRÛ']) {
          expect(ids(await store.wumpuses.list({ limit: 10, q })), q).toEqual([cafe._id])
        }
        // One letter is too short to be a prefix: it finds only itself, as a whole word.
        expect(ids(await store.wumpuses.list({ limit: 10, q: 'c' }))).toEqual([])
        const letter = await store.wumpuses.insert(sampleWumpus({ name: 'Plan C Wumpus', description: 'Calm' }))
        expect(ids(await store.wumpuses.list({ limit: 10, q: 'c' }))).toEqual([letter._id])
        expect(await store.wumpuses.delete(letter._id)).toBe(1)
        for (const q of ['wav', 'waving', 'greet', 'HELLO', 'wumpus hello', 'hel wav']) {
          expect(ids(await store.wumpuses.list({ limit: 10, q })), q).toEqual([wave._id])
        }
        for (const q of ['wavy', 'waving latte', 'zebra', 'ingw']) {
          expect(await store.wumpuses.list({ limit: 10, q }), q).toEqual({ items: [], total: 0 })
        }
        // Any script, and letters outside the Basic Multilingual Plane.
        const greeting = await store.wumpuses.insert(sampleWumpus({ name: 'Привет Wumpus', description: 'Says 𝒽𝒾 in 日本語' }))
        for (const q of ['пр', 'ПРИВЕТ', '𝒽𝒾', '日本']) expect(ids(await store.wumpuses.list({ limit: 10, q })), q).toEqual([greeting._id])
        // One character, even one written with two UTF-16 units, is whole words only.
        expect(await store.wumpuses.list({ limit: 10, q: '𝒽' })).toEqual({ items: [], total: 0 })
        expect(await store.wumpuses.delete(greeting._id)).toBe(1)
        // Only punctuation is no words at all: the plain list.
        expect((await store.wumpuses.list({ limit: 10, q: ' !? ' })).total).toBe(2)
      })

      it('ranks name over tags over description, whole words over prefixes, then newest first', async () => {
        const description = await store.wumpuses.insert(
          sampleWumpus({ name: 'Quiet One', description: 'Looks at the moon all night', createdAt: at(5) }),
        )
        const tag = await store.wumpuses.insert(
          sampleWumpus({ name: 'Sky Wumpus', description: 'Looks up at the sky', tags: ['moon'], createdAt: at(4) }),
        )
        const prefix = await store.wumpuses.insert(
          sampleWumpus({ name: 'Moonlight Wumpus', description: 'Glows softly at night', createdAt: at(3) }),
        )
        const older = await store.wumpuses.insert(
          sampleWumpus({ name: 'Moon Wumpus', description: 'Round and pale as it is', createdAt: at(1) }),
        )
        const newer = await store.wumpuses.insert(
          sampleWumpus({ name: 'Moon Wumpus', description: 'Round and pale as it is', createdAt: at(2) }),
        )
        const everywhere = await store.wumpuses.insert(sampleWumpus({ name: 'Moon', description: 'The moon itself', createdAt: at(0) }))
        const page = await store.wumpuses.list({ limit: 10, q: 'moon' })
        expect(ids(page)).toEqual([everywhere, newer, older, tag, prefix, description].map((record) => record._id))
        expect(page.total).toBe(6)
        // Another order keeps the same matches.
        expect(ids(await store.wumpuses.list({ limit: 10, q: 'moon', sort: 'new' }))).toEqual(
          [description, tag, prefix, newer, older, everywhere].map((record) => record._id),
        )
      })

      it('pages ranked results without gaps or repeats, also when records come and go between pages', async () => {
        const records: WumpusRecord[] = []
        for (let i = 0; i < 24; i++) {
          const name = i % 3 === 0 ? 'Star Wumpus' : i % 3 === 1 ? 'Starry Wumpus' : 'Plain Wumpus'
          records.push(await store.wumpuses.insert(sampleWumpus({ name, description: 'Bright star in the sky', createdAt: at(i % 4) })))
        }
        const whole = await store.wumpuses.list({ limit: 100, q: 'star' })
        expect(whole.total).toBe(24)
        const { ids: paged, totals } = await collectPages(store, 5, { q: 'star' })
        expect(paged).toEqual(ids(whole))
        expect(totals.every((total) => total === 24)).toBe(true)

        const first = await store.wumpuses.list({ limit: 5, q: 'star' })
        await store.wumpuses.insert(sampleWumpus({ name: 'Star Wumpus', description: 'Bright star in the sky', createdAt: at(9) }))
        expect(await store.wumpuses.delete(ids(first)[4]!)).toBe(1)
        const second = await store.wumpuses.list({ limit: 5, q: 'star', cursor: first.nextCursor })
        expect(ids(second)).toEqual(ids(whole).slice(5, 10))
      })

      it('counts downloads without touching updatedAt, and lists the most downloaded first', async () => {
        const a = await store.wumpuses.insert(sampleWumpus({ name: 'Alpha Wumpus', createdAt: at(1) }))
        const b = await store.wumpuses.insert(sampleWumpus({ name: 'Beta Wumpus', createdAt: at(2) }))
        const c = await store.wumpuses.insert(sampleWumpus({ name: 'Gamma Wumpus', createdAt: at(3) }))
        const revision = store.wumpuses.revision()
        const downloads = store.wumpuses.downloadsRevision()
        await store.wumpuses.addDownloads(
          new Map([
            [a._id, 3],
            [b._id, 1],
            [UNKNOWN_ID, 5],
            ['nope', 1],
          ]),
        )
        // Counts move their own revision: pages in other orders stay cached.
        expect(store.wumpuses.downloadsRevision()).not.toBe(downloads)
        expect(store.wumpuses.revision()).toBe(revision)
        await store.wumpuses.addDownloads(new Map([[b._id, 2]]))
        expect(await store.wumpuses.get(a._id)).toEqual({ ...a, downloads: 3 })
        expect((await store.wumpuses.get(b._id))?.downloads).toBe(3)
        // Equal counts: newest first.
        expect(ids(await store.wumpuses.list({ limit: 10, sort: 'popular' }))).toEqual([b._id, a._id, c._id])
        const { ids: paged } = await collectPages(store, 1, { sort: 'popular' })
        expect(paged).toEqual([b._id, a._id, c._id])
        expect(ids(await store.wumpuses.list({ limit: 10, q: 'wumpus', sort: 'popular' }))).toEqual([b._id, a._id, c._id])
        const unchanged = store.wumpuses.downloadsRevision()
        await store.wumpuses.addDownloads(new Map([[UNKNOWN_ID, 1]]))
        await store.wumpuses.addDownloads(new Map())
        expect(store.wumpuses.downloadsRevision()).toBe(unchanged)
      })

      it('refuses a cursor made for another order', async () => {
        for (let i = 0; i < 3; i++) await store.wumpuses.insert(sampleWumpus({ createdAt: at(i) }))
        const newest = await store.wumpuses.list({ limit: 1 })
        const popular = await store.wumpuses.list({ limit: 1, sort: 'popular' })
        const ranked = await store.wumpuses.list({ limit: 1, q: 'wumpus' })
        await expect(store.wumpuses.list({ limit: 1, sort: 'popular', cursor: newest.nextCursor })).rejects.toBeInstanceOf(
          InvalidCursorError,
        )
        await expect(store.wumpuses.list({ limit: 1, cursor: popular.nextCursor })).rejects.toBeInstanceOf(InvalidCursorError)
        await expect(store.wumpuses.list({ limit: 1, q: 'wumpus', sort: 'new', cursor: ranked.nextCursor })).rejects.toBeInstanceOf(
          InvalidCursorError,
        )
        expect((await store.wumpuses.list({ limit: 1, q: 'wumpus', cursor: ranked.nextCursor })).items).toHaveLength(1)
      })

      it('finds the animation a file belongs to', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        expect(await store.wumpuses.findByFile(record.files.apng.id)).toBe(record._id)
        for (const id of [UNKNOWN_ID, record._id, ...MALFORMED_IDS]) expect(await store.wumpuses.findByFile(id)).toBeUndefined()
        await store.wumpuses.delete(record._id)
        expect(await store.wumpuses.findByFile(record.files.apng.id)).toBeUndefined()
      })

      it('answers every query like the reference ranking over random records, before and after edits', async () => {
        const random = seededRandom(12)
        const records = new Map<string, WumpusRecord>()
        for (let i = 0; i < 120; i++) {
          const record = await store.wumpuses.insert(randomWumpus(random, at(Math.floor(random() * 6))))
          records.set(record._id, record)
        }
        // Some have exports for a few platforms, some for none yet.
        for (const record of [...records.values()]) {
          if (random() < 0.3) continue
          const ready = PLATFORMS.filter(() => random() < 0.5)
          const lottie = record.files.lottie.id
          records.set(record._id, (await store.wumpuses.setDerived(record._id, lottie, exportsFor(lottie, ready)))!)
        }
        const downloads = new Map([...records.keys()].filter(() => random() < 0.4).map((id) => [id, 1 + Math.floor(random() * 3)]))
        await store.wumpuses.addDownloads(downloads)
        for (const [id, count] of downloads) records.get(id)!.downloads += count
        const check = async () => {
          for (const query of randomQueries(random, 60)) {
            const { ids: paged, totals } = await collectPages(store, 7, query)
            const expected = referenceList([...records.values()], query)
            expect(paged, JSON.stringify(query)).toEqual(expected)
            expect(totals[0], JSON.stringify(query)).toBe(expected.length)
          }
        }
        await check()
        // Edits move records between results: the index must follow (a new Lottie leaves no ready export).
        for (const id of [...records.keys()].slice(0, 30)) {
          if (random() < 0.15) {
            const { lottie } = sampleFiles()
            records.set(id, (await store.wumpuses.update(id, { files: { ...records.get(id)!.files, lottie } }))!)
          } else if (random() < 0.5) {
            const updated = await store.wumpuses.update(id, { name: randomWumpus(random, new Date()).name, tags: randomTags(random) })
            records.set(id, updated!)
          } else {
            await store.wumpuses.delete(id)
            records.delete(id)
          }
        }
        await check()
      })

      it('keeps tags, emoji, download counts and the search index across close and reopen', async () => {
        const sleepy = { char: '😴', name: 'sleeping face', shortcode: 'sleeping' }
        const moon = await store.wumpuses.insert(
          sampleWumpus({ name: 'Moon Wumpus', tags: ['night'], emoji: [sleepy], keywords: ['bedtime'] }),
        )
        await store.wumpuses.insert(sampleWumpus({ name: 'Sun Wumpus', tags: ['day', 'night'] }))
        await store.wumpuses.addDownloads(new Map([[moon._id, 4]]))
        const reopened = await subject.reopen()
        expect((await reopened.wumpuses.get(moon._id))?.downloads).toBe(4)
        expect(ids(await reopened.wumpuses.list({ limit: 5, q: 'moo' }))).toEqual([moon._id])
        expect(ids(await reopened.wumpuses.list({ limit: 5, sort: 'popular' }))[0]).toBe(moon._id)
        expect(await reopened.wumpuses.listTags()).toEqual([
          { tag: 'night', count: 2 },
          { tag: 'day', count: 1 },
        ])
        expect(await reopened.wumpuses.get(moon._id)).toMatchObject({ emoji: [sleepy], keywords: ['bedtime'] })
        expect(await reopened.wumpuses.listEmoji()).toEqual([{ char: '😴', count: 1 }])
        for (const q of ['😴', 'bedtime', 'sleeping']) expect(ids(await reopened.wumpuses.list({ limit: 5, q })), q).toEqual([moon._id])
        await reopened.wumpuses.update(moon._id, { name: 'Star Wumpus' })
        expect(await reopened.wumpuses.list({ limit: 5, q: 'moon' })).toEqual({ items: [], total: 0 })
      })
    })

    describe('users', () => {
      it('creates a user with defaults for missing fields', async () => {
        const before = Date.now()
        const user = await store.users.upsert('ann@example.com', { user_name: 'Ann', photo: 'https://x/ann.png' })
        expect(user).toEqual({
          email: 'ann@example.com',
          user_name: 'Ann',
          role: 'user',
          photo: 'https://x/ann.png',
          cover: '',
          url: '',
          job: '',
          description: '',
          createdAt: user.createdAt,
          updatedAt: user.updatedAt,
        })
        expect(user.createdAt).toBeInstanceOf(Date)
        expect(user.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1)
        expect(await store.users.get('ann@example.com')).toEqual(user)
        expect(await store.users.get('nobody@example.com')).toBeUndefined()
      })

      it('patches an existing user without touching other fields', async () => {
        const created = await store.users.upsert('bob@example.com', { user_name: 'Bob', job: 'Baker', role: 'admin' })
        const patched = await store.users.upsert('bob@example.com', { description: 'Bakes', job: undefined })
        expect(patched).toEqual({ ...created, description: 'Bakes', updatedAt: patched.updatedAt })
        expect(patched.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime())
        expect(await store.users.get('bob@example.com')).toEqual(patched)
      })

      it('lists users by email ascending', async () => {
        for (const email of ['c@example.com', 'a@example.com', 'b@example.com']) {
          await store.users.upsert(email, { user_name: email[0] })
        }
        const users = await store.users.list()
        expect(users.map((user) => user.email)).toEqual(['a@example.com', 'b@example.com', 'c@example.com'])
        expect(Object.keys(users[0]!).sort()).toEqual([
          'cover',
          'createdAt',
          'description',
          'email',
          'job',
          'photo',
          'role',
          'updatedAt',
          'url',
          'user_name',
        ])
      })

      it('sets a role once and answers 0 when nothing changes', async () => {
        await store.users.upsert('dan@example.com', {})
        expect(await store.users.setRole('dan@example.com', 'admin')).toBe(1)
        expect(await store.users.setRole('dan@example.com', 'admin')).toBe(0)
        expect(await store.users.setRole('nobody@example.com', 'admin')).toBe(0)
        expect((await store.users.get('dan@example.com'))?.role).toBe('admin')
        expect(await store.users.setRole('dan@example.com', 'user')).toBe(1)
        expect((await store.users.get('dan@example.com'))?.role).toBe('user')
      })

      it('keeps one user per email when first sign-ins race', async () => {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => store.users.upsert('eve@example.com', { user_name: `Eve ${i}` })),
        )
        expect(results.every((user) => user.email === 'eve@example.com')).toBe(true)
        const users = await store.users.list()
        expect(users).toHaveLength(1)
        expect(users[0]!.user_name).toMatch(/^Eve \d$/)
      })
    })

    describe('binding users to Firebase accounts', () => {
      it('binds an unbound user once; another uid is refused and the same uid is answered again', async () => {
        await store.users.upsert('gus@example.com', { user_name: 'Gus' })
        expect((await store.users.get('gus@example.com'))?.firebaseUid).toBeUndefined()
        expect(await store.users.bind('gus@example.com', 'uid-1')).toMatchObject({
          email: 'gus@example.com',
          user_name: 'Gus',
          firebaseUid: 'uid-1',
        })
        expect(await store.users.bind('gus@example.com', 'uid-2')).toBeUndefined()
        expect(await store.users.bind('gus@example.com', 'uid-1')).toMatchObject({ firebaseUid: 'uid-1' })
        expect(await store.users.bind('nobody@example.com', 'uid-1')).toBeUndefined()
        // Profile patches keep the binding.
        expect(await store.users.upsert('gus@example.com', { job: 'Guard' })).toMatchObject({ job: 'Guard', firebaseUid: 'uid-1' })
        expect((await store.users.list())[0]).toMatchObject({ firebaseUid: 'uid-1' })
      })

      it('lets exactly one of two racing binds win', async () => {
        await store.users.upsert('hal@example.com', {})
        const results = await Promise.all(['uid-a', 'uid-b', 'uid-a', 'uid-b'].map((uid) => store.users.bind('hal@example.com', uid)))
        const winner = (await store.users.get('hal@example.com'))!.firebaseUid
        expect(['uid-a', 'uid-b']).toContain(winner)
        for (const [i, result] of results.entries()) {
          expect(result?.firebaseUid).toBe(['uid-a', 'uid-b', 'uid-a', 'uid-b'][i] === winner ? winner : undefined)
        }
      })
    })

    describe('sessions', () => {
      const inAnHour = () => new Date(Date.now() + 3600_000)

      it('creates, reads and ends a session', async () => {
        const session = await store.sessions.create({ email: 'ivy@example.com', uid: 'uid-ivy', expiresAt: inAnHour() })
        expect(session.id).toMatch(/^[0-9a-f]{32}$/)
        expect(session.createdAt).toBeInstanceOf(Date)
        expect(await store.sessions.get(session.id)).toEqual(session)
        expect(await store.sessions.delete(session.id)).toBe(true)
        expect(await store.sessions.delete(session.id)).toBe(false)
        expect(await store.sessions.get(session.id)).toBeUndefined()
        expect(await store.sessions.get('nope')).toBeUndefined()
      })

      it("ends a user's sessions, optionally keeping one", async () => {
        const mine = await store.sessions.create({ email: 'jo@example.com', uid: 'uid-jo', expiresAt: inAnHour() })
        const squatter = await store.sessions.create({ email: 'jo@example.com', uid: 'uid-other', expiresAt: inAnHour() })
        const someoneElse = await store.sessions.create({ email: 'kim@example.com', uid: 'uid-kim', expiresAt: inAnHour() })
        expect(await store.sessions.deleteForUser('jo@example.com', { exceptId: mine.id })).toBe(1)
        expect(await store.sessions.get(squatter.id)).toBeUndefined()
        expect(await store.sessions.get(mine.id)).toEqual(mine)
        expect(await store.sessions.deleteForUser('jo@example.com')).toBe(1)
        expect(await store.sessions.get(mine.id)).toBeUndefined()
        expect(await store.sessions.get(someoneElse.id)).toEqual(someoneElse)
      })

      it('forgets sessions past their end', async () => {
        const old = await store.sessions.create({ email: 'lu@example.com', uid: 'u', expiresAt: new Date(Date.now() - 1000) })
        const live = await store.sessions.create({ email: 'lu@example.com', uid: 'u', expiresAt: inAnHour() })
        expect(await store.sessions.deleteExpired(new Date())).toBe(1)
        expect(await store.sessions.get(old.id)).toBeUndefined()
        expect(await store.sessions.get(live.id)).toEqual(live)
      })

      it('keeps when a session was last used, moving it forward only', async () => {
        const start = new Date(Date.UTC(2026, 0, 1))
        const session = await store.sessions.create({ email: 'mo@example.com', uid: 'u', expiresAt: inAnHour(), lastUsedAt: start })
        expect(session.lastUsedAt).toEqual(start)
        const later = new Date(start.getTime() + 60_000)
        expect(await store.sessions.touch(session.id, later)).toBe(true)
        expect(await store.sessions.touch(session.id, start)).toBe(true)
        expect(await store.sessions.get(session.id)).toEqual({ ...session, lastUsedAt: later })
        expect(await store.sessions.touch('nope', later)).toBe(false)
        // Without a time given, a session is last used when it is created.
        const fresh = await store.sessions.create({ email: 'mo@example.com', uid: 'u', expiresAt: inAnHour() })
        expect(fresh.lastUsedAt).toEqual(fresh.createdAt)
      })

      it('forgets sessions idle since before the given time', async () => {
        const now = new Date()
        const idle = await store.sessions.create({
          email: 'nia@example.com',
          uid: 'u',
          expiresAt: inAnHour(),
          lastUsedAt: new Date(now.getTime() - 3_600_000),
        })
        const used = await store.sessions.create({ email: 'nia@example.com', uid: 'u', expiresAt: inAnHour(), lastUsedAt: now })
        expect(await store.sessions.deleteExpired(now)).toBe(0)
        expect(await store.sessions.deleteExpired(now, { lastUsedBefore: new Date(now.getTime() - 60_000) })).toBe(1)
        expect(await store.sessions.get(idle.id)).toBeUndefined()
        expect(await store.sessions.get(used.id)).toEqual(used)
      })
    })

    describe('packs', () => {
      const newPack = (wumpusIds: string[], overrides: Partial<NewPack> = {}): NewPack => ({
        name: 'Cheerful Wumpuses',
        description: 'Happy ones',
        wumpusIds,
        createdBy: 'boss@example.com',
        ...overrides,
      })
      const personalPack = (wumpusIds: string[], owner: string, visibility: 'link' | 'private', overrides: Partial<NewPack> = {}) => ({
        ...newPack(wumpusIds, { ...overrides, createdBy: owner }),
        visibility,
      })

      it('stores packs with their order and lists them newest first across pages', async () => {
        const w = await Promise.all([0, 1, 2].map(() => store.wumpuses.insert(sampleWumpus())))
        const ids = w.map((record) => record._id)
        const before = Date.now()
        const first = await store.packs.insert(newPack([ids[2]!, ids[0]!, ids[1]!]))
        expect(first).toEqual({
          id: expect.stringMatching(/^[0-9a-f]{24}$/),
          name: 'Cheerful Wumpuses',
          description: 'Happy ones',
          coverWumpusId: ids[2],
          wumpusIds: [ids[2], ids[0], ids[1]],
          visibility: 'public',
          createdBy: 'boss@example.com',
          editedAt: {
            name: first.createdAt,
            description: first.createdAt,
            wumpusIds: first.createdAt,
            coverWumpusId: first.createdAt,
            visibility: first.createdAt,
          },
          createdAt: expect.any(Date),
          updatedAt: expect.any(Date),
        })
        expect(first.createdAt.getTime()).toBeGreaterThanOrEqual(before)
        expect(await store.packs.get(first.id)).toEqual(first)
        const made = [first]
        for (let i = 0; i < 4; i++) {
          while (Date.now() <= made.at(-1)!.createdAt.getTime()) await new Promise((resolve) => setImmediate(resolve))
          made.push(await store.packs.insert(newPack([ids[i % 3]!], { name: `Pack ${i}`, coverWumpusId: ids[i % 3] })))
        }
        // A given creation time (seeding) places the pack in the order by it.
        const older = await store.packs.insert(newPack([ids[0]!], { createdAt: new Date(first.createdAt.getTime() - 60_000) }))
        expect(older.createdAt).toEqual(new Date(first.createdAt.getTime() - 60_000))
        made.unshift(older)
        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await store.packs.list({ limit: 2, cursor })
          expect(page.total).toBe(6)
          seen.push(...page.items.map((pack) => pack.id))
          cursor = page.nextCursor
        } while (cursor)
        expect(seen).toEqual(made.map((pack) => pack.id).reverse())
        await expect(store.packs.list({ limit: 2, cursor: 'bad cursor' })).rejects.toBeInstanceOf(InvalidCursorError)
        for (const id of MALFORMED_IDS) expect(await store.packs.get(id)).toBeUndefined()
        expect(await store.packs.get(UNKNOWN_ID)).toBeUndefined()

        const reopened = await subject.reopen()
        expect(await reopened.packs.get(first.id)).toEqual(first)
        expect((await reopened.packs.list({ limit: 10 })).items.map((pack) => pack.id)).toEqual(seen)
        expect(await reopened.packs.delete(made[1]!.id)).toBe(1)
        expect(await reopened.packs.delete(made[1]!.id)).toBe(0)
        expect(await reopened.packs.delete('nope')).toBe(0)
        expect((await reopened.packs.list({ limit: 10 })).total).toBe(5)
      })

      it('keeps the cover among the stickers: the chosen one, else the first', async () => {
        const ids = (await Promise.all([0, 1, 2].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        const pack = await store.packs.insert(newPack([ids[0]!, ids[1]!], { coverWumpusId: ids[2] }))
        expect(pack.coverWumpusId).toBe(ids[0])
        const covered = (await store.packs.update(pack.id, { coverWumpusId: ids[1] }))!.pack
        expect(covered).toMatchObject({ coverWumpusId: ids[1], wumpusIds: [ids[0], ids[1]], name: 'Cheerful Wumpuses' })
        expect(covered.updatedAt.getTime()).toBeGreaterThanOrEqual(pack.updatedAt.getTime())
        // The cover leaves the pack: the new first takes its place.
        const reordered = await store.packs.update(pack.id, { wumpusIds: [ids[2]!, ids[0]!], name: 'Renamed', description: '' })
        expect(reordered).toEqual({
          pack: expect.objectContaining({ coverWumpusId: ids[2], wumpusIds: [ids[2], ids[0]], name: 'Renamed', description: '' }),
          superseded: [],
        })
        expect(await store.packs.get(pack.id)).toEqual(reordered!.pack)
        // A chosen cover outside the stickers keeps the stored one.
        expect((await store.packs.update(pack.id, { coverWumpusId: ids[1] }))!.pack.coverWumpusId).toBe(ids[2])
        expect(await store.packs.update(UNKNOWN_ID, { name: 'Nobody' })).toBeUndefined()
        expect(await store.packs.update('nope', { name: 'Nobody' })).toBeUndefined()
      })

      it('lists only public packs; each owner their personal ones, most recently updated first, across pages', async () => {
        const [id] = (await Promise.all([0].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        const shown = await store.packs.insert(newPack([id!]))
        const mine: PackRecord[] = []
        for (const [i, visibility] of (['private', 'link', 'private'] as const).entries()) {
          while (Date.now() <= (mine.at(-1)?.updatedAt.getTime() ?? 0)) await new Promise((resolve) => setImmediate(resolve))
          const made = await store.packs.insertPersonal(personalPack([id!], 'me@example.com', visibility, { name: `Mine ${i}` }), {
            max: 10,
          })
          expect(made).toMatchObject({ visibility, createdBy: 'me@example.com' })
          if (made !== 'full') mine.push(made)
        }
        const theirs = await store.packs.insertPersonal(personalPack([id!], 'them@example.com', 'link'), { max: 10 })
        // The admin's public pack is not among their personal ones.
        await store.packs.insert(newPack([id!], { createdBy: 'me@example.com' }))
        const publicPage = await store.packs.list({ limit: 10 })
        expect(publicPage.total).toBe(2)
        expect(publicPage.items.every((pack) => pack.visibility === 'public')).toBe(true)
        expect(publicPage.items.map((pack) => pack.id)).toContain(shown.id)

        // An edit moves the pack to the front.
        while (Date.now() <= mine[2]!.updatedAt.getTime()) await new Promise((resolve) => setImmediate(resolve))
        await store.packs.update(mine[0]!.id, { name: 'Mine edited' })
        const personalPages = async (owner: string, limit: number) => {
          const seen: string[] = []
          let cursor: string | undefined
          do {
            const page = await store.packs.listPersonal(owner, { limit, cursor })
            expect(page.total).toBe(owner === 'me@example.com' ? 3 : 1)
            seen.push(...page.items.map((pack) => pack.id))
            cursor = page.nextCursor
          } while (cursor)
          return seen
        }
        expect(await personalPages('me@example.com', 2)).toEqual([mine[0]!.id, mine[2]!.id, mine[1]!.id])
        expect(await personalPages('them@example.com', 2)).toEqual([(theirs as PackRecord).id])
        expect(await store.packs.listPersonal('nobody@example.com', { limit: 2 })).toEqual({ items: [], total: 0 })
        await expect(store.packs.listPersonal('me@example.com', { limit: 2, cursor: 'bad cursor' })).rejects.toBeInstanceOf(
          InvalidCursorError,
        )
        const reopened = await subject.reopen()
        expect((await reopened.packs.listPersonal('me@example.com', { limit: 10 })).items.map((pack) => pack.id)).toEqual([
          mine[0]!.id,
          mine[2]!.id,
          mine[1]!.id,
        ])
        expect(await reopened.packs.get(mine[1]!.id)).toEqual(mine[1])
      })

      it('refuses a personal pack past its owner’s cap, counting their personal packs only', async () => {
        const [id] = (await Promise.all([0].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        const personal = (owner: string) => personalPack([id!], owner, 'private')
        await store.packs.insert(newPack([id!], { createdBy: 'me@example.com' }))
        expect(await store.packs.insertPersonal(personal('me@example.com'), { max: 2 })).toMatchObject({ createdBy: 'me@example.com' })
        expect(await store.packs.insertPersonal(personal('me@example.com'), { max: 2 })).toMatchObject({ createdBy: 'me@example.com' })
        expect(await store.packs.insertPersonal(personal('me@example.com'), { max: 2 })).toBe('full')
        expect(await store.packs.insertPersonal(personal('them@example.com'), { max: 2 })).not.toBe('full')
        expect((await store.packs.listPersonal('me@example.com', { limit: 10 })).total).toBe(2)
        const [first] = (await store.packs.listPersonal('me@example.com', { limit: 1 })).items
        expect(await store.packs.delete(first!.id)).toBe(1)
        expect(await store.packs.insertPersonal(personal('me@example.com'), { max: 2 })).not.toBe('full')
      })

      it('keeps the latest edit of each field: an older edit of a field edited since is superseded, its other fields apply', async () => {
        const ids = (await Promise.all([0, 1, 2].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        const made = (await store.packs.insertPersonal(personalPack([ids[0]!, ids[1]!], 'me@example.com', 'private'), {
          max: 10,
        })) as PackRecord
        const at = (s: number) => new Date(made.createdAt.getTime() + s * 1000)
        // Edited on a laptop at +10 s...
        const laptop = await store.packs.update(made.id, { name: 'Laptop Name', visibility: 'link' }, { editedAt: at(10) })
        expect(laptop!.superseded).toEqual([])
        expect(laptop!.pack).toMatchObject({ name: 'Laptop Name', visibility: 'link' })
        expect(laptop!.pack.editedAt).toMatchObject({ name: at(10), visibility: at(10), description: made.createdAt })
        // ...then a phone's edit made offline at +5 s arrives: its name loses, its stickers and description win.
        const phone = await store.packs.update(
          made.id,
          { name: 'Phone Name', description: 'From the phone', wumpusIds: [ids[2]!, ids[0]!], coverWumpusId: ids[2] },
          { editedAt: at(5) },
        )
        expect(phone!.superseded).toEqual(['name'])
        expect(phone!.pack).toMatchObject({
          name: 'Laptop Name',
          description: 'From the phone',
          wumpusIds: [ids[2], ids[0]],
          coverWumpusId: ids[2],
          visibility: 'link',
        })
        expect(phone!.pack.editedAt).toEqual({
          name: at(10),
          description: at(5),
          wumpusIds: at(5),
          coverWumpusId: at(5),
          visibility: at(10),
        })
        expect(await store.packs.get(made.id)).toEqual(phone!.pack)
        // An edit at the same time as the stored one applies; one whose every field lost changes nothing.
        const same = await store.packs.update(made.id, { name: 'Same Time' }, { editedAt: at(10) })
        expect(same!.pack.name).toBe('Same Time')
        const stale = await store.packs.update(made.id, { name: 'Stale', visibility: 'private' }, { editedAt: at(1) })
        expect(stale).toEqual({ pack: await store.packs.get(made.id), superseded: ['name', 'visibility'] })
        expect(stale!.pack.updatedAt).toEqual(same!.pack.updatedAt)
        const reopened = await subject.reopen()
        expect((await reopened.packs.get(made.id))!.editedAt).toEqual({ ...phone!.pack.editedAt, name: at(10) })
        expect(await reopened.packs.update(UNKNOWN_ID, { name: 'Nobody' }, { editedAt: at(1) })).toBeUndefined()
      })

      it('loses no edit when edits of different fields of one pack race', async () => {
        const ids = (await Promise.all([0, 1].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        const pack = await store.packs.insert(newPack([ids[0]!, ids[1]!]))
        const patches = [
          { name: 'Raced Name' },
          { description: 'Raced description' },
          { wumpusIds: [ids[1]!, ids[0]!] },
          { coverWumpusId: ids[1]! },
        ]
        for (let round = 0; round < 3; round++) {
          const results = await Promise.all(patches.map((patch) => store.packs.update(pack.id, patch)))
          expect(results.every((result) => result!.superseded.length === 0)).toBe(true)
          expect(await store.packs.get(pack.id)).toMatchObject({
            name: 'Raced Name',
            description: 'Raced description',
            wumpusIds: [ids[1], ids[0]],
            coverWumpusId: ids[1],
          })
          await store.packs.update(pack.id, { name: 'Reset', description: '', wumpusIds: [ids[0]!, ids[1]!], coverWumpusId: ids[0]! })
        }
        // The same field edited at two times (after the resets), sent in any order: the later edit stays.
        const base = Date.now()
        await Promise.all([
          store.packs.update(pack.id, { name: 'Later' }, { editedAt: new Date(base + 2000) }),
          store.packs.update(pack.id, { name: 'Earlier' }, { editedAt: new Date(base + 1000) }),
        ])
        expect((await store.packs.get(pack.id))!.name).toBe('Later')
      })

      it('takes a deleted animation out of every pack; a pack left with none stays, empty', async () => {
        const ids = (await Promise.all([0, 1, 2].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        const both = await store.packs.insert(newPack([ids[0]!, ids[1]!, ids[2]!], { coverWumpusId: ids[1] }))
        const only = await store.packs.insert(newPack([ids[1]!]))
        const other = await store.packs.insert(newPack([ids[2]!]))
        expect(await store.wumpuses.delete(ids[1]!)).toBe(1)
        expect(await store.packs.get(both.id)).toMatchObject({ wumpusIds: [ids[0], ids[2]], coverWumpusId: ids[0] })
        expect(await store.packs.get(only.id)).toMatchObject({ wumpusIds: [], coverWumpusId: null, name: 'Cheerful Wumpuses' })
        expect(await store.packs.get(other.id)).toEqual(other)
        const reopened = await subject.reopen()
        expect(await reopened.packs.get(both.id)).toMatchObject({ wumpusIds: [ids[0], ids[2]], coverWumpusId: ids[0] })
        expect(await reopened.packs.get(only.id)).toMatchObject({ wumpusIds: [], coverWumpusId: null })
      })
    })

    describe('favourites', () => {
      const ME = 'fan@example.com'
      const OTHER = 'other-fan@example.com'

      it('adds each favourite once, keeps its first time, and lists them newest favourited first across pages', async () => {
        const ids = (await Promise.all([0, 1, 2, 3].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        const base = Date.now() - 60_000
        // ids[1] and ids[2] share a time: the larger id comes first.
        const times = [base, base + 1000, base + 1000, base + 2000]
        for (const [i, id] of ids.entries()) expect(await store.favourites.add(ME, id, { max: 10, at: new Date(times[i]!) })).toBe('added')
        expect(await store.favourites.add(ME, ids[0]!, { max: 10, at: new Date(base + 5000) })).toBe('kept')
        expect(await store.favourites.add(OTHER, ids[0]!, { max: 10 })).toBe('added')

        const expected = [ids[3]!, ...[ids[1]!, ids[2]!].sort().reverse(), ids[0]!]
        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await store.favourites.list(ME, { limit: 3, cursor })
          expect(page.total).toBe(4)
          seen.push(...page.items.map((item) => item.wumpusId))
          cursor = page.nextCursor
        } while (cursor)
        expect(seen).toEqual(expected)
        const all = await store.favourites.list(ME, { limit: 10 })
        expect(all.items.at(-1)).toEqual({ wumpusId: ids[0], favouritedAt: new Date(base) })
        expect(all.nextCursor).toBeUndefined()
        expect(await store.favourites.ids(ME)).toEqual(expected)
        expect(await store.favourites.ids(OTHER)).toEqual([ids[0]])
        expect(await store.favourites.ids('nobody@example.com')).toEqual([])
        await expect(store.favourites.list(ME, { limit: 2, cursor: 'bad cursor' })).rejects.toBeInstanceOf(InvalidCursorError)

        const reopened = await subject.reopen()
        expect(await reopened.favourites.ids(ME)).toEqual(expected)
        expect(await reopened.favourites.remove(ME, ids[3]!)).toBe(true)
        expect(await reopened.favourites.remove(ME, ids[3]!)).toBe(false)
        expect(await reopened.favourites.remove(ME, UNKNOWN_ID)).toBe(false)
        expect(await reopened.favourites.ids(ME)).toEqual(expected.slice(1))
        expect(await reopened.favourites.ids(OTHER)).toEqual([ids[0]])
      })

      it('refuses a new favourite at the cap, but still answers one already there', async () => {
        const ids = (await Promise.all([0, 1, 2].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        expect(await store.favourites.add(ME, ids[0]!, { max: 2 })).toBe('added')
        expect(await store.favourites.add(ME, ids[1]!, { max: 2 })).toBe('added')
        expect(await store.favourites.add(ME, ids[2]!, { max: 2 })).toBe('full')
        expect(await store.favourites.add(ME, ids[1]!, { max: 2 })).toBe('kept')
        expect(await store.favourites.add(OTHER, ids[2]!, { max: 2 })).toBe('added')
        expect((await store.favourites.list(ME, { limit: 10 })).total).toBe(2)
      })

      it('forgets a deleted animation in everyone’s favourites', async () => {
        const ids = (await Promise.all([0, 1].map(() => store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
        for (const email of [ME, OTHER]) for (const id of ids) await store.favourites.add(email, id, { max: 10 })
        expect(await store.wumpuses.delete(ids[0]!)).toBe(1)
        expect(await store.favourites.ids(ME)).toEqual([ids[1]])
        expect(await store.favourites.ids(OTHER)).toEqual([ids[1]])
        expect((await store.favourites.list(ME, { limit: 10 })).total).toBe(1)
        const reopened = await subject.reopen()
        expect(await reopened.favourites.ids(OTHER)).toEqual([ids[1]])
      })
    })

    describe('audit log', () => {
      it('appends entries and lists them newest first across pages', async () => {
        const written = []
        for (let i = 0; i < 5; i++) {
          written.push(
            await store.audit.append({
              actor: 'boss@example.com',
              action: i % 2 ? 'wumpus.edit' : 'wumpus.publish',
              target: { type: 'wumpus', id: UNKNOWN_ID, name: `Wumpus ${i}` },
              changes: [
                { field: 'name', from: `Old ${i}`, to: `Wumpus ${i}` },
                { field: 'description', to: 'Fresh' },
              ],
            }),
          )
        }
        expect(written[0]).toMatchObject({
          actor: 'boss@example.com',
          action: 'wumpus.publish',
          changes: [
            { field: 'name', from: 'Old 0', to: 'Wumpus 0' },
            { field: 'description', to: 'Fresh' },
          ],
        })
        expect(written[0]!.at).toBeInstanceOf(Date)
        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await store.audit.list({ limit: 2, cursor })
          seen.push(...page.items.map((item) => item.id))
          cursor = page.nextCursor
        } while (cursor)
        expect(seen).toEqual(written.map((entry) => entry.id).reverse())
        expect((await store.audit.list({ limit: 1 })).items[0]).toEqual(written[4])
        await expect(store.audit.list({ limit: 2, cursor: 'bad cursor' })).rejects.toBeInstanceOf(InvalidCursorError)
      })
    })

    describe('rate counters', () => {
      it('allows the points per key and then answers how long to wait', async () => {
        const counter = store.rateCounter({ name: `test-${randomBytes(4).toString('hex')}`, points: 2, durationSeconds: 60 })
        expect(await counter.hit('1.2.3.4')).toBe(0)
        expect(await counter.hit('1.2.3.4')).toBe(0)
        const wait = await counter.hit('1.2.3.4')
        expect(wait).toBeGreaterThan(50_000)
        expect(wait).toBeLessThanOrEqual(60_000)
        expect(await counter.hit('5.6.7.8')).toBe(0)
      })
    })

    describe('files', () => {
      it("lists a user's files of one purpose, oldest first", async () => {
        const first = await store.files.put({
          bytes: new Uint8Array([1]),
          contentType: 'image/png',
          filename: 'a.png',
          owner: 'max@example.com',
          purpose: 'image',
        })
        await store.files.put({
          bytes: new Uint8Array([2]),
          contentType: 'image/gif',
          filename: 'b.gif',
          owner: 'max@example.com',
          purpose: 'animation',
        })
        await store.files.put({
          bytes: new Uint8Array([3]),
          contentType: 'image/png',
          filename: 'c.png',
          owner: 'ned@example.com',
          purpose: 'image',
        })
        const second = await putAfter(store, first, {
          bytes: new Uint8Array([4]),
          contentType: 'image/png',
          filename: 'd.png',
          owner: 'max@example.com',
          purpose: 'image',
        })
        expect(await store.files.listByOwner('max@example.com', 'image')).toEqual([first, second])
        expect(await store.files.listByOwner('nobody@example.com', 'image')).toEqual([])
      })

      it('stores and reads back about 1 MB byte for byte with its sha256', async () => {
        const bytes = new Uint8Array(randomBytes(1024 * 1024 + 4321))
        const sha256 = createHash('sha256').update(bytes).digest('hex')
        const info = await store.files.put({ bytes, contentType: 'image/gif', filename: 'dancing wumpus.gif' })
        expect(info).toEqual({
          id: info.id,
          contentType: 'image/gif',
          filename: 'dancing wumpus.gif',
          size: bytes.length,
          sha256,
          createdAt: info.createdAt,
        })
        expect(info.id).toMatch(/^[0-9a-f]{24}$/)
        expect(info.createdAt).toBeInstanceOf(Date)
        expect(await store.files.info(info.id)).toEqual(info)
        const read = await store.files.read(info.id)
        expect(read?.info).toEqual(info)
        expect(read?.bytes).toBeInstanceOf(Uint8Array)
        expect(Buffer.compare(Buffer.from(read!.bytes), Buffer.from(bytes))).toBe(0)
      })

      it('round-trips an empty file', async () => {
        const info = await store.files.put({ bytes: new Uint8Array(), contentType: 'application/json', filename: 'empty.json' })
        expect(info.size).toBe(0)
        expect(info.sha256).toBe(createHash('sha256').digest('hex'))
        expect((await store.files.read(info.id))?.bytes).toHaveLength(0)
      })

      it('answers undefined or false for unknown and malformed ids', async () => {
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
          expect(await store.files.info(id)).toBeUndefined()
          expect(await store.files.read(id)).toBeUndefined()
          expect(await store.files.delete(id)).toBe(false)
        }
      })

      it('deletes a file once and leaves the others', async () => {
        const keep = await store.files.put({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png', filename: 'a.png' })
        const gone = await store.files.put({ bytes: new Uint8Array([4, 5, 6]), contentType: 'image/apng', filename: 'b.png' })
        expect(await store.files.delete(gone.id)).toBe(true)
        expect(await store.files.delete(gone.id)).toBe(false)
        expect(await store.files.info(gone.id)).toBeUndefined()
        expect(await store.files.read(gone.id)).toBeUndefined()
        expect(Array.from((await store.files.read(keep.id))!.bytes)).toEqual([1, 2, 3])
      })

      it('keeps owner and purpose, and leaves them out when not given', async () => {
        const bytes = new Uint8Array([1, 2, 3])
        const photo = await store.files.put({
          bytes,
          contentType: 'image/png',
          filename: 'me.png',
          owner: 'ann@example.com',
          purpose: 'image',
        })
        const frame = await store.files.put({ bytes, contentType: 'image/gif', filename: 'w.gif', purpose: 'animation' })
        const plain = await store.files.put({ bytes, contentType: 'image/gif', filename: 'p.gif' })
        expect(photo).toMatchObject({ owner: 'ann@example.com', purpose: 'image' })
        expect(frame.purpose).toBe('animation')
        expect(Object.keys(frame)).not.toContain('owner')
        expect(Object.keys(plain).sort()).toEqual(['contentType', 'createdAt', 'filename', 'id', 'sha256', 'size'])
        for (const info of [photo, frame, plain]) {
          expect(await store.files.info(info.id)).toStrictEqual(info)
          expect((await store.files.read(info.id))?.info).toStrictEqual(info)
        }
        const listed = await store.files.list({ createdBefore: later(new Date(), 1000), limit: 10 })
        expect(listed).toHaveLength(3)
        for (const info of [photo, frame, plain]) expect(listed.find((file) => file.id === info.id)).toStrictEqual(info)
      })

      it('lists files created strictly before a time, oldest first, at most limit', async () => {
        expect(await store.files.list({ createdBefore: new Date(), limit: 10 })).toEqual([])
        const files: StoredFile[] = []
        for (let i = 0; i < 5; i++) {
          const file = await putAfter(store, files[i - 1], {
            bytes: new Uint8Array([i]),
            contentType: 'image/gif',
            filename: `${i}.gif`,
            owner: `u${i}@example.com`,
            purpose: 'animation',
          })
          files.push(file)
        }
        const end = later(files[4]!.createdAt)
        expect(await store.files.list({ createdBefore: end, limit: 10 })).toStrictEqual(files)
        expect(await store.files.list({ createdBefore: end, limit: 2 })).toStrictEqual(files.slice(0, 2))
        expect(await store.files.list({ createdBefore: end, limit: 0 })).toEqual([])
        // The boundary is exclusive.
        expect(await store.files.list({ createdBefore: files[2]!.createdAt, limit: 10 })).toStrictEqual(files.slice(0, 2))
        expect(await store.files.list({ createdBefore: later(files[2]!.createdAt), limit: 10 })).toStrictEqual(files.slice(0, 3))
        expect(await store.files.list({ createdBefore: files[0]!.createdAt, limit: 10 })).toEqual([])
        expect(await store.files.delete(files[1]!.id)).toBe(true)
        expect((await store.files.list({ createdBefore: end, limit: 3 })).map((file) => file.id)).toEqual(
          [files[0]!, files[2]!, files[3]!].map((file) => file.id),
        )
      })

      it('pages through files after a given one, including files that share a creation time', async () => {
        const files: StoredFile[] = []
        for (let i = 0; i < 3; i++)
          files.push(await putAfter(store, files[i - 1], { bytes: new Uint8Array([i]), contentType: 'image/gif', filename: `${i}.gif` }))
        // Two more in quick succession may share a millisecond: ordering falls back to the id.
        files.push(await store.files.put({ bytes: new Uint8Array([7]), contentType: 'image/gif', filename: 'a.gif' }))
        files.push(await store.files.put({ bytes: new Uint8Array([8]), contentType: 'image/gif', filename: 'b.gif' }))
        const end = later(files[4]!.createdAt)
        const all = await store.files.list({ createdBefore: end, limit: 10 })
        const paged: StoredFile[] = []
        let after: StoredFile | undefined
        for (;;) {
          const page = await store.files.list({ createdBefore: end, limit: 2, after })
          if (page.length === 0) break
          paged.push(...page)
          after = page.at(-1)
        }
        expect(paged).toStrictEqual(all)
        expect(new Set(paged.map((file) => file.id)).size).toBe(5)
      })
    })

    describe('files in use', () => {
      it('follows inserts, updates that replace files, and deletes', async () => {
        const a = await store.wumpuses.insert(sampleWumpus())
        const aIds = fileIds(a.files)
        expect(await inUse(store, aIds)).toEqual([true, true, true])
        const b = await store.wumpuses.insert(sampleWumpus())
        const bIds = fileIds(b.files)
        expect(await inUse(store, bIds)).toEqual([true, true, true])

        // a gets a new GIF and Lottie and keeps its APNG.
        const fresh = sampleFiles()
        const replaced = { gif: fresh.gif, apng: a.files.apng, lottie: fresh.lottie }
        expect(await store.wumpuses.update(a._id, { files: replaced })).toBeDefined()
        expect(await inUse(store, fileIds(replaced))).toEqual([true, true, true])
        expect(await store.wumpuses.usesFile(a.files.lottie.id)).toBe(false)
        expect(await store.wumpuses.usesFile(a.files.gif.id)).toBe(false)
        await store.wumpuses.update(a._id, { name: 'Renamed' })
        expect(await inUse(store, fileIds(replaced))).toEqual([true, true, true])
        // A file let go of can be claimed by another record.
        expect((await store.wumpuses.update(b._id, { files: { ...b.files, gif: a.files.gif } }))?.files.gif).toEqual(a.files.gif)

        expect(await store.wumpuses.delete(b._id)).toBe(1)
        expect(await inUse(store, [...bIds.slice(1), a.files.gif.id])).toEqual([false, false, false])
        expect(await inUse(store, fileIds(replaced))).toEqual([true, true, true])
        expect(await store.wumpuses.delete(a._id)).toBe(1)
        expect((await inUse(store, [...aIds, ...fileIds(replaced)])).some(Boolean)).toBe(false)
      })

      it('lets a file belong to one record only, on insert and on update, even when writes race', async () => {
        const a = await store.wumpuses.insert(sampleWumpus())
        for (const format of ['gif', 'apng', 'lottie'] as const) {
          await expect(
            store.wumpuses.insert(sampleWumpus({ files: { ...sampleFiles(), [format]: a.files[format] } })),
          ).rejects.toBeInstanceOf(FileInUseError)
        }
        const b = await store.wumpuses.insert(sampleWumpus())
        await expect(store.wumpuses.update(b._id, { files: { ...b.files, lottie: a.files.lottie } })).rejects.toBeInstanceOf(FileInUseError)
        expect(await store.wumpuses.get(b._id)).toEqual(b)
        expect(await store.wumpuses.count()).toBe(2)

        // Two records racing for one new file: exactly one gets it.
        const shared = sampleFiles().gif
        const racing = await Promise.allSettled(
          [0, 1, 2].map(() => store.wumpuses.insert(sampleWumpus({ files: { ...sampleFiles(), gif: shared } }))),
        )
        expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
        for (const refused of racing.filter((r) => r.status === 'rejected')) expect(refused.reason).toBeInstanceOf(FileInUseError)
        expect(await store.wumpuses.count()).toBe(3)
        // A refused write claims nothing: the files it named are free.
        const refusedFiles = sampleFiles()
        await expect(store.wumpuses.insert(sampleWumpus({ files: { ...refusedFiles, apng: a.files.apng } }))).rejects.toBeInstanceOf(
          FileInUseError,
        )
        expect(await inUse(store, [refusedFiles.gif.id, refusedFiles.lottie.id])).toEqual([false, false])
        await expect(store.wumpuses.insert(sampleWumpus({ files: refusedFiles }))).resolves.toBeDefined()
      })

      it('answers false for unknown and malformed ids and for record ids', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        expect(await store.wumpuses.usesFile(record._id)).toBe(false)
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await store.wumpuses.usesFile(id)).toBe(false)
        // Even when a record refers to a malformed id.
        const odd = await store.wumpuses.insert(
          sampleWumpus({ files: { ...sampleFiles(), gif: { id: 'ABCDEFABCDEFABCDEFABCDEF', filename: 'x.gif' } } }),
        )
        expect(await store.wumpuses.usesFile(odd.files.gif.id)).toBe(false)
        expect(await store.wumpuses.usesFile(odd.files.apng.id)).toBe(true)
      })

      it('does not count a stored file as in use by itself', async () => {
        const file = await store.files.put({
          bytes: new Uint8Array([1]),
          contentType: 'image/gif',
          filename: 'x.gif',
          purpose: 'animation',
        })
        expect(await store.wumpuses.usesFile(file.id)).toBe(false)
        await store.wumpuses.insert(sampleWumpus({ files: { ...sampleFiles(), lottie: { id: file.id, filename: 'x.json' } } }))
        expect(await store.wumpuses.usesFile(file.id)).toBe(true)
      })
    })

    describe('derived media', () => {
      const derivedFor = (lottieId: string): DerivedMedia => {
        const file = (n: number) => ({
          id: `${randomBytes(10).toString('hex')}${String(n).padStart(4, '0')}`,
          filename: `w.${n}.webp`,
          contentType: 'image/webp',
          bytes: 1000 + n,
          width: 300,
          height: 300,
          frames: 40,
          durationMs: 2000,
        })
        return {
          source: lottieId,
          version: 1,
          madeAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
          previews: { small: file(1), large: file(2), still: { ...file(3), frames: 1, durationMs: 0 } },
          exports: [
            { platform: 'discord', file: { ...file(4), contentType: 'image/apng' }, notes: [] },
            { platform: 'telegram', notes: ['The animation runs 4 s; Telegram allows 3 s'] },
          ],
        }
      }
      const idsOf = (d: DerivedMedia) => [d.previews!.small.id, d.previews!.large.id, d.previews!.still.id, d.exports[0]!.file!.id]

      it('sets it only while the Lottie is the given one, reads it back everywhere, and keeps updatedAt', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        const derived = derivedFor(record.files.lottie.id)
        const revision = store.wumpuses.revision()
        expect(await store.wumpuses.setDerived(record._id, UNKNOWN_ID, derived)).toBeUndefined()
        expect(store.wumpuses.revision()).toBe(revision)
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
          expect(await store.wumpuses.setDerived(id, record.files.lottie.id, derived)).toBeUndefined()
        }

        const updated = await store.wumpuses.setDerived(record._id, record.files.lottie.id, {
          ...derived,
          extra: 'dropped',
        } as DerivedMedia)
        expect(updated).toEqual({ ...record, derived })
        expect(store.wumpuses.revision()).toBeGreaterThan(revision)
        expect(await store.wumpuses.get(record._id)).toEqual({ ...record, derived })
        expect((await store.wumpuses.list({ limit: 10 })).items).toEqual([{ ...record, derived }])
        // Other writes keep it.
        expect((await store.wumpuses.update(record._id, { name: 'Renamed' }))?.derived).toEqual(derived)
      })

      it('removes it with null, and its files count as in use only while it is there', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        const derived = derivedFor(record.files.lottie.id)
        expect(await inUse(store, idsOf(derived))).toEqual([false, false, false, false])
        await store.wumpuses.setDerived(record._id, record.files.lottie.id, derived)
        expect(await inUse(store, idsOf(derived))).toEqual([true, true, true, true])
        const next = derivedFor(record.files.lottie.id)
        await store.wumpuses.setDerived(record._id, record.files.lottie.id, next)
        expect(await inUse(store, [...idsOf(derived), ...idsOf(next)])).toEqual([false, false, false, false, true, true, true, true])
        const cleared = await store.wumpuses.setDerived(record._id, record.files.lottie.id, null)
        expect(cleared).toBeDefined()
        expect(cleared!.derived).toBeUndefined()
        expect(await inUse(store, idsOf(next))).toEqual([false, false, false, false])

        await store.wumpuses.setDerived(record._id, record.files.lottie.id, next)
        await store.wumpuses.delete(record._id)
        expect(await inUse(store, idsOf(next))).toEqual([false, false, false, false])
      })

      it('is refused once the Lottie was replaced', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        const { lottie } = sampleFiles()
        await store.wumpuses.update(record._id, { files: { ...record.files, lottie } })
        expect(await store.wumpuses.setDerived(record._id, record.files.lottie.id, derivedFor(record.files.lottie.id))).toBeUndefined()
        expect(await store.wumpuses.setDerived(record._id, lottie.id, derivedFor(lottie.id))).toMatchObject({
          derived: { source: lottie.id },
        })
      })

      it('filters by a platform with a ready export, following new exports and a replaced Lottie, with tag, words and paging', async () => {
        const lists = async (query: ListQuery) => (await collectPages(store, 2, query)).ids
        const records: WumpusRecord[] = []
        for (let i = 0; i < 7; i++) {
          const createdAt = new Date(Date.UTC(2025, 3, 1, 0, 0, i))
          const name = `Moon ${['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'][i]}`
          records.push(await store.wumpuses.insert(sampleWumpus({ name, tags: i % 2 ? ['night'] : [], createdAt })))
        }
        expect(await store.wumpuses.list({ limit: 5, fits: 'discord' })).toEqual({ items: [], total: 0 })
        for (const [i, record] of records.entries()) {
          const ready: Platform[] = i < 5 ? ['discord', 'signal'] : ['telegram']
          const revision = store.wumpuses.revision()
          await store.wumpuses.setDerived(record._id, record.files.lottie.id, exportsFor(record.files.lottie.id, ready))
          // Lists (and the pages cached by revision) follow new exports.
          expect(store.wumpuses.revision()).toBeGreaterThan(revision)
        }
        const newest = newestFirst(records)
        const discord = newest.filter((id) => records.findIndex((r) => r._id === id) < 5)
        expect(await lists({ fits: 'discord' })).toEqual(discord)
        expect((await store.wumpuses.list({ limit: 2, fits: 'discord' })).total).toBe(5)
        expect(await lists({ fits: 'telegram' })).toEqual(newest.filter((id) => !discord.includes(id)))
        expect(await store.wumpuses.list({ limit: 5, fits: 'slack' })).toEqual({ items: [], total: 0 })
        const night = discord.filter((id) => records.find((r) => r._id === id)!.tags.length > 0)
        expect(await lists({ fits: 'discord', tag: 'night' })).toEqual(night)
        expect(await lists({ fits: 'signal', q: 'moon delta' })).toEqual([records[3]!._id])
        await store.wumpuses.addDownloads(new Map([[records[0]!._id, 2]]))
        expect((await lists({ fits: 'discord', sort: 'popular' }))[0]).toBe(records[0]!._id)

        // A new Lottie: its old exports fit nothing until new ones are made; cleared ones neither.
        const { lottie } = sampleFiles()
        await store.wumpuses.update(records[1]!._id, { files: { ...records[1]!.files, lottie } })
        await store.wumpuses.setDerived(records[2]!._id, records[2]!.files.lottie.id, null)
        expect(await lists({ fits: 'discord' })).toEqual(discord.filter((id) => id !== records[1]!._id && id !== records[2]!._id))
        await store.wumpuses.setDerived(records[1]!._id, lottie.id, exportsFor(lottie.id, ['discord']))
        expect(await lists({ fits: 'discord' })).toContain(records[1]!._id)
        expect(await lists({ fits: 'signal' })).not.toContain(records[1]!._id)
        const reopened = await subject.reopen()
        expect((await reopened.wumpuses.list({ limit: 10, fits: 'discord' })).total).toBe(4)
      })

      it('survives close and reopen', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        const derived = derivedFor(record.files.lottie.id)
        await store.wumpuses.setDerived(record._id, record.files.lottie.id, derived)
        const reopened = await subject.reopen()
        expect((await reopened.wumpuses.get(record._id))?.derived).toEqual(derived)
        expect(await inUse(reopened, idsOf(derived))).toEqual([true, true, true, true])
      })
    })

    describe('render jobs', () => {
      const VERSION = 2
      const LEASE_MS = 60_000
      const t0 = new Date(Date.UTC(2026, 10, 26, 12))
      const at = (ms: number) => new Date(t0.getTime() + ms)
      const claim = (owner: string, now = t0, options: { id?: string; version?: number } = {}) =>
        store.renderJobs.claim({ owner, version: VERSION, leaseMs: LEASE_MS, now, ...options })
      const made = (lottieId: string, version = VERSION, error?: string): DerivedMedia => ({
        source: lottieId,
        version,
        madeAt: t0,
        exports: [],
        ...(error ? { error } : {}),
      })

      it('claims each animation that needs derived media once, whatever the number of claimants', async () => {
        const records = await Promise.all([0, 1, 2].map(() => store.wumpuses.insert(sampleWumpus())))
        const done = await store.wumpuses.insert(sampleWumpus())
        await store.wumpuses.setDerived(done._id, done.files.lottie.id, made(done.files.lottie.id))
        const jobs = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((owner) => claim(owner)))
        const claimed = jobs.filter((job) => job !== undefined)
        expect(claimed.map((job) => job.record._id).sort()).toEqual(records.map((r) => r._id).sort())
        expect(new Set(claimed.map((job) => job.owner)).size).toBe(3)
        for (const job of claimed) {
          expect(job.record).toEqual(records.find((r) => r._id === job.record._id))
          expect(job).toMatchObject({ version: VERSION, failures: 0, leaseUntil: at(LEASE_MS) })
        }
        expect(await claim('f')).toBeUndefined()
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await claim('f', t0, { id })).toBeUndefined()
      })

      it('claims by id only that animation, and only while it needs derived media by these rules', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        const other = await store.wumpuses.insert(sampleWumpus())
        const lottie = record.files.lottie.id
        await store.wumpuses.setDerived(record._id, lottie, made(lottie))
        expect(await claim('a', t0, { id: record._id })).toBeUndefined()
        // Newer rules, a failed render, media of another Lottie: each is work again.
        expect((await claim('a', t0, { id: record._id, version: VERSION + 1 }))?.record._id).toBe(record._id)
        await store.wumpuses.setDerived(record._id, lottie, made(lottie, VERSION, 'Too long'))
        expect((await claim('b', at(LEASE_MS), { id: record._id }))?.record._id).toBe(record._id)
        await store.wumpuses.setDerived(record._id, lottie, made(lottie))
        const { lottie: next } = sampleFiles()
        await store.wumpuses.update(record._id, { files: { ...record.files, lottie: next } })
        expect((await claim('c', at(2 * LEASE_MS), { id: record._id }))?.owner).toBe('c')
        expect((await claim('d', at(2 * LEASE_MS), { id: other._id }))?.record._id).toBe(other._id)
      })

      it('is taken over once its lease ends; renewed, the lease lasts; only the holder sets the media', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        const lottie = record.files.lottie.id
        const first = (await claim('a'))!
        expect(await claim('b', at(LEASE_MS - 1))).toBeUndefined()
        expect(await store.renderJobs.renew(first, at(2 * LEASE_MS))).toBe(true)
        expect(await claim('b', at(2 * LEASE_MS - 1))).toBeUndefined()
        const second = (await claim('b', at(2 * LEASE_MS)))!
        expect(second.owner).toBe('b')
        // The first holder lost it: no renewal, no media, no release.
        expect(await store.renderJobs.renew(first, at(5 * LEASE_MS))).toBe(false)
        expect(await store.wumpuses.setDerived(record._id, lottie, made(lottie), { leaseOwner: 'a' })).toBeUndefined()
        expect((await store.wumpuses.get(record._id))!.derived).toBeUndefined()
        expect(await store.renderJobs.release(first)).toBe(false)
        expect(await claim('c', at(2 * LEASE_MS + 1))).toBeUndefined()
        expect(await store.wumpuses.setDerived(record._id, lottie, made(lottie), { leaseOwner: 'b' })).toMatchObject({
          derived: { version: VERSION },
        })
        expect(await store.renderJobs.release(second)).toBe(true)
        expect(await claim('c', at(2 * LEASE_MS + 1))).toBeUndefined()
      })

      it('is free again at once when released without a failure', async () => {
        await store.wumpuses.insert(sampleWumpus())
        const job = (await claim('a'))!
        expect(await store.renderJobs.release(job)).toBe(true)
        expect(await store.renderJobs.release(job)).toBe(false)
        expect((await claim('b'))?.failures).toBe(0)
      })

      it('backs off after a failure until its retry time, counting failures; a new Lottie or newer rules make it new work', async () => {
        const record = await store.wumpuses.insert(sampleWumpus())
        const lottie = record.files.lottie.id
        const first = (await claim('a'))!
        await store.wumpuses.setDerived(record._id, lottie, made(lottie, VERSION, 'Too long'), { leaseOwner: 'a' })
        expect(await store.renderJobs.release(first, { retryAt: at(60_000) })).toBe(true)
        expect(await claim('b', at(59_999))).toBeUndefined()
        const second = (await claim('b', at(60_000)))!
        expect(second.failures).toBe(1)
        await store.renderJobs.release(second, { retryAt: at(600_000) })
        expect(await claim('c', at(599_999))).toBeUndefined()
        // Kept across a reopen.
        store = await subject.reopen()
        expect(await claim('c', at(599_999))).toBeUndefined()
        const newer = (await claim('c', at(599_999), { version: VERSION + 1 }))!
        expect(newer.failures).toBe(0)
        await store.renderJobs.release(newer)
        const third = (await claim('c', at(600_000)))!
        expect(third.failures).toBe(2)
        await store.renderJobs.release(third, { retryAt: at(3_600_000) })
        const { lottie: next } = sampleFiles()
        await store.wumpuses.update(record._id, { files: { ...record.files, lottie: next } })
        const fourth = (await claim('d', at(600_001)))!
        expect(fourth.failures).toBe(0)
        // A failure of a Lottie replaced meanwhile does not hold back the new one.
        const { lottie: newest } = sampleFiles()
        await store.wumpuses.update(record._id, { files: { ...record.files, lottie: newest } })
        expect(await store.renderJobs.release(fourth, { retryAt: at(3_600_000) })).toBe(true)
        expect((await claim('e', at(600_002)))?.failures).toBe(0)
      })
    })

    describe('remixes', () => {
      const recipe = { colours: { '8c9eff': '#e0457b' }, caption: { text: 'Hi', position: 'top' as const }, speed: 1.5 }
      const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
      /** An original with tags, emoji, words, an uploader and ready exports, so that a remix like it would show wherever it does. */
      const listedOriginal = async () => {
        const original = await store.wumpuses.insert(
          sampleWumpus({ name: 'Zebra Moon', tags: ['party'], emoji: [wave], keywords: ['stripes'], u_email: 'remixer@example.com' }),
        )
        return (await store.wumpuses.setDerived(original._id, original.files.lottie.id, exportsFor(original.files.lottie.id, PLATFORMS)))!
      }
      /** A remix of `of` carrying the same tags, emoji, words and uploader. */
      const remixOf = (of: WumpusRecord, overrides: Partial<NewWumpus> = {}): NewWumpus & { remix: RemixInfo } => ({
        ...sampleWumpus({
          name: of.name,
          description: of.description,
          tags: of.tags,
          emoji: of.emoji,
          keywords: of.keywords,
          u_email: of.u_email,
          ...overrides,
        }),
        remix: { of: of._id, recipe: structuredClone(recipe), source: of.files.lottie.id, visibility: 'private' },
      })
      const insertRemix = async (remix: NewWumpus & { remix: RemixInfo }, max = 50) => {
        const made = await store.wumpuses.insertRemix(remix, { max })
        if (made === 'full') throw new Error('Full')
        return made
      }
      const allRemixes = async (options: Omit<ListRemixesOptions, 'limit' | 'cursor'>, limit: number) => {
        const ids: string[] = []
        const totals: number[] = []
        let cursor: string | undefined
        do {
          const page = await store.wumpuses.listRemixes({ ...options, limit, cursor })
          expect(page.items.length).toBeLessThanOrEqual(limit)
          ids.push(...page.items.map((item) => item._id))
          totals.push(page.total)
          cursor = page.nextCursor
        } while (cursor)
        return { ids, totals }
      }

      it('stores a remix with its own copy of the recipe, and reads it back like any record, after a reopen too', async () => {
        const original = await store.wumpuses.insert(sampleWumpus())
        const input = remixOf(original, { u_email: 'me@example.com' })
        const remix = await insertRemix(input)
        expect(remix).toMatchObject({ ...input, downloads: 0 })
        input.remix.recipe.colours!['8c9eff'] = '#000000'
        input.remix.recipe.caption!.text = 'Changed'
        const read = await store.wumpuses.get(remix._id)
        expect(read).toEqual(remix)
        // insertRemix is the one way in (it keeps the cap), and takes remixes only.
        await expect(store.wumpuses.insert(remixOf(original))).rejects.toThrow(Error)
        await expect(store.wumpuses.insertRemix(sampleWumpus() as NewWumpus & { remix: RemixInfo }, { max: 50 })).rejects.toThrow(Error)
        expect((await store.wumpuses.listRemixes({ of: original._id, limit: 5 })).total).toBe(1)
        expect(read!.remix).toEqual({ of: original._id, recipe, source: original.files.lottie.id, visibility: 'private' })
        expect((await store.wumpuses.get(original._id))!.remix).toBeUndefined()
        store = await subject.reopen()
        expect(await store.wumpuses.get(remix._id)).toEqual(remix)
      })

      it('never shows a remix in a list, count, search, tag or emoji count, whatever it carries', async () => {
        const original = await listedOriginal()
        const remix = await insertRemix(remixOf(original))
        await store.wumpuses.setDerived(remix._id, remix.files.lottie.id, exportsFor(remix.files.lottie.id, PLATFORMS))
        await store.wumpuses.addDownloads(new Map([[remix._id, 5]]))
        await store.wumpuses.update(remix._id, { name: 'Zebra Star', tags: ['party', 'night'] })
        const queries: ListQuery[] = [
          {},
          { sort: 'popular' },
          { u_email: original.u_email },
          { u_email: original.u_email, sort: 'popular' },
          { tag: 'party' },
          { tag: 'party', sort: 'popular' },
          { tag: 'night' },
          { fits: 'discord' },
          { fits: 'slack', sort: 'popular' },
          { q: 'zebra' },
          { q: 'zeb', sort: 'new' },
          { q: 'zebra', sort: 'popular' },
          { q: 'stripes', tag: 'party' },
          { q: 'star' },
          { q: '👋' },
          { q: 'zebra', u_email: original.u_email, fits: 'telegram' },
        ]
        for (const query of queries) {
          const { ids, totals } = await collectPages(store, 1, query)
          const expected = query.tag === 'night' || query.q === 'star' ? [] : [original._id]
          expect(ids, JSON.stringify(query)).toEqual(expected)
          expect(totals[0], JSON.stringify(query)).toBe(expected.length)
        }
        expect(await store.wumpuses.count()).toBe(1)
        expect(await store.wumpuses.listTags()).toEqual([{ tag: 'party', count: 1 }])
        expect(await store.wumpuses.listEmoji()).toEqual([{ char: wave.char, count: 1 }])
        store = await subject.reopen()
        expect((await collectPages(store, 5, {})).ids).toEqual([original._id])
        expect((await collectPages(store, 5, { q: 'zebra' })).ids).toEqual([original._id])
        expect(await store.wumpuses.count()).toBe(1)
        // Removing the remix leaves the original's counts as they were.
        await store.wumpuses.delete(remix._id)
        expect(await store.wumpuses.listTags()).toEqual([{ tag: 'party', count: 1 }])
        expect(await store.wumpuses.listEmoji()).toEqual([{ char: wave.char, count: 1 }])
      })

      it('lists remixes by owner and by original, newest first and paged, and counts those of an original', async () => {
        const [a, b] = await Promise.all([store.wumpuses.insert(sampleWumpus()), store.wumpuses.insert(sampleWumpus())])
        const remixes: WumpusRecord[] = []
        for (let i = 0; i < 7; i++) {
          // Pairs share a creation time: the id decides.
          const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 2)))
          const owner = i % 3 === 0 ? 'me@example.com' : 'them@example.com'
          remixes.push(await insertRemix(remixOf(i < 4 ? a : b, { u_email: owner, createdAt })))
        }
        const expectRemixes = async (options: Omit<ListRemixesOptions, 'limit' | 'cursor'>, chosen: WumpusRecord[]) => {
          for (const limit of [1, 2, 10]) {
            const { ids, totals } = await allRemixes(options, limit)
            expect(ids).toEqual(newestFirst(chosen))
            expect(new Set(totals)).toEqual(new Set([chosen.length]))
          }
        }
        await expectRemixes(
          { owner: 'me@example.com' },
          remixes.filter((r) => r.u_email === 'me@example.com'),
        )
        await expectRemixes(
          { owner: 'them@example.com' },
          remixes.filter((r) => r.u_email === 'them@example.com'),
        )
        await expectRemixes({ of: a._id }, remixes.slice(0, 4))
        await expectRemixes(
          { of: b._id, owner: 'them@example.com' },
          remixes.slice(4).filter((r) => r.u_email === 'them@example.com'),
        )
        await expectRemixes({ owner: 'nobody@example.com' }, [])
        await expectRemixes({ of: UNKNOWN_ID }, [])
        // An uploader's originals are not their remixes.
        await expectRemixes({ owner: 'maker@example.com' }, [])
        expect(await store.wumpuses.countRemixes(a._id)).toBe(4)
        expect(await store.wumpuses.countRemixes(b._id)).toBe(3)
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await store.wumpuses.countRemixes(id)).toBe(0)
        for (const cursor of ['nope', encodeCursor({ rank: 3, time: 1, id: UNKNOWN_ID }, 'popular')]) {
          await expect(store.wumpuses.listRemixes({ owner: 'me@example.com', limit: 2, cursor })).rejects.toBeInstanceOf(InvalidCursorError)
        }
      })

      it('refuses a remix when its owner has max already, and takes one again after a removal', async () => {
        const original = await store.wumpuses.insert(sampleWumpus())
        const mine = () => remixOf(original, { u_email: 'me@example.com' })
        const first = await insertRemix(mine(), 2)
        await insertRemix(mine(), 2)
        const refused = mine()
        expect(await store.wumpuses.insertRemix(refused, { max: 2 })).toBe('full')
        // Nothing of the refused one was kept: its files are free.
        expect(await inUse(store, fileIds(refused.files))).toEqual([false, false, false])
        expect(await store.wumpuses.insertRemix(remixOf(original, { u_email: 'them@example.com' }), { max: 2 })).not.toBe('full')
        // Originals do not count.
        await store.wumpuses.insert(sampleWumpus({ u_email: 'me@example.com' }))
        expect(await store.wumpuses.delete(first._id)).toBe(1)
        expect(await store.wumpuses.insertRemix(refused, { max: 2 })).not.toBe('full')
        expect(await store.wumpuses.insertRemix(mine(), { max: 2 })).toBe('full')
        expect((await store.wumpuses.listRemixes({ owner: 'me@example.com', limit: 10 })).total).toBe(2)
      })

      it('never passes max, however many inserts race', async () => {
        const original = await store.wumpuses.insert(sampleWumpus())
        const max = 4
        const made = await Promise.all(
          Array.from({ length: max + 3 }, () => store.wumpuses.insertRemix(remixOf(original, { u_email: 'me@example.com' }), { max })),
        )
        expect(made.filter((result) => result === 'full')).toHaveLength(3)
        const page = await store.wumpuses.listRemixes({ owner: 'me@example.com', limit: 10 })
        expect(page.total).toBe(max)
        expect(page.items.map((r) => r._id).sort()).toEqual(made.flatMap((r) => (r === 'full' ? [] : [r._id])).sort())
      })

      it("changes a remix's source and sharing, and never turns an original into a remix or a remix into another's", async () => {
        const original = await listedOriginal()
        const other = await store.wumpuses.insert(sampleWumpus())
        const remix = await insertRemix(remixOf(original))
        const files = sampleFiles()
        const shared = { ...remix.remix!, source: UNKNOWN_ID, visibility: 'link' as const }
        const updated = await store.wumpuses.update(remix._id, { remix: shared, files, tags: ['party', 'night'] })
        expect(updated).toMatchObject({ remix: shared, files, tags: ['party', 'night'] })
        expect(await store.wumpuses.get(remix._id)).toEqual(updated)
        expect((await store.wumpuses.update(remix._id, { name: 'Renamed' }))!.remix).toEqual(shared)
        expect((await collectPages(store, 5, {})).ids).not.toContain(remix._id)
        expect((await collectPages(store, 5, { tag: 'night' })).ids).toEqual([])
        await expect(store.wumpuses.update(original._id, { remix: shared })).rejects.toThrow(Error)
        await expect(store.wumpuses.update(remix._id, { remix: { ...shared, of: other._id } })).rejects.toThrow(Error)
        expect((await store.wumpuses.get(original._id))!.remix).toBeUndefined()
        expect((await store.wumpuses.get(remix._id))!.remix).toEqual(shared)
        expect(await store.wumpuses.countRemixes(other._id)).toBe(0)
        expect((await collectPages(store, 5, {})).ids).toEqual(newestFirst([original, other]))
      })

      it('keeps remixes in packs and favourites, claims their files, and removes them from all of it', async () => {
        const original = await store.wumpuses.insert(sampleWumpus())
        const remix = await insertRemix(remixOf(original, { u_email: 'me@example.com' }))
        expect(await store.wumpuses.findByFile(remix.files.apng.id)).toBe(remix._id)
        await expect(store.wumpuses.insert(sampleWumpus({ files: remix.files }))).rejects.toBeInstanceOf(FileInUseError)
        const pack = await store.packs.insertPersonal(
          { name: 'Mine', description: '', wumpusIds: [remix._id, original._id], createdBy: 'me@example.com', visibility: 'private' },
          { max: 10 },
        )
        expect(pack).toMatchObject({ wumpusIds: [remix._id, original._id], coverWumpusId: remix._id })
        expect(await store.favourites.add('me@example.com', remix._id, { max: 10 })).toBe('added')
        expect(await store.favourites.ids('me@example.com')).toEqual([remix._id])

        expect(await store.wumpuses.delete(remix._id)).toBe(1)
        expect(await store.wumpuses.get(remix._id)).toBeUndefined()
        expect((await store.wumpuses.listRemixes({ owner: 'me@example.com', limit: 5 })).items).toEqual([])
        expect(await store.wumpuses.countRemixes(original._id)).toBe(0)
        expect(await store.packs.get((pack as PackRecord).id)).toMatchObject({ wumpusIds: [original._id], coverWumpusId: original._id })
        expect(await store.favourites.ids('me@example.com')).toEqual([])
        expect(await inUse(store, fileIds(remix.files))).toEqual([false, false, false])
      })

      it('makes a remix without derived media a render job, and sets its media like any record', async () => {
        const original = await store.wumpuses.insert(sampleWumpus())
        await store.wumpuses.setDerived(original._id, original.files.lottie.id, exportsFor(original.files.lottie.id, []))
        const remix = await insertRemix(remixOf(original))
        const now = new Date()
        const job = await store.renderJobs.claim({ owner: 'a', version: 1, leaseMs: 60_000, now })
        expect(job?.record).toEqual(remix)
        const derived = exportsFor(remix.files.lottie.id, ['discord'])
        const done = await store.wumpuses.setDerived(remix._id, remix.files.lottie.id, derived, { leaseOwner: 'a' })
        expect(done).toMatchObject({ derived, remix: remix.remix })
        expect(await store.renderJobs.release(job!)).toBe(true)
        expect(await store.renderJobs.claim({ owner: 'b', version: 1, leaseMs: 60_000, now })).toBeUndefined()
        expect(await store.wumpuses.findByFile(derived.exports.find((e) => e.file)!.file!.id)).toBe(remix._id)
        expect((await collectPages(store, 5, { fits: 'discord' })).ids).toEqual([])
      })
    })

    it('keeps everything across close and reopen', async () => {
      const records: WumpusRecord[] = []
      for (let i = 0; i < 6; i++) {
        const createdAt = new Date(Date.UTC(2025, 1, 1, 0, 0, i % 2))
        records.push(await store.wumpuses.insert(sampleWumpus({ createdAt, u_email: i % 2 ? 'odd@example.com' : 'even@example.com' })))
      }
      await store.wumpuses.update(records[0]!._id, { name: 'Changed' })
      const replacedFiles = sampleFiles()
      await store.wumpuses.update(records[2]!._id, { files: replacedFiles })
      await store.wumpuses.delete(records[5]!._id)
      const updatedFirst = await store.wumpuses.get(records[0]!._id)
      const user = await store.users.upsert('fay@example.com', { user_name: 'Fay' })
      await store.users.setRole('fay@example.com', 'admin')
      const bytes = new Uint8Array(randomBytes(300_000))
      const file = await store.files.put({ bytes, contentType: 'image/gif', filename: 'f.gif' })
      const removedFile = await store.files.put({ bytes: new Uint8Array([9]), contentType: 'image/gif', filename: 'g.gif' })
      await store.files.delete(removedFile.id)
      const photo = await store.files.put({
        bytes: new Uint8Array([8]),
        contentType: 'image/png',
        filename: 'p.png',
        owner: 'fay@example.com',
        purpose: 'image',
      })
      const bound = await store.users.bind('fay@example.com', 'uid-fay')
      const session = await store.sessions.create({ email: 'fay@example.com', uid: 'uid-fay', expiresAt: new Date(Date.now() + 60_000) })
      const ended = await store.sessions.create({ email: 'fay@example.com', uid: 'uid-fay', expiresAt: new Date(Date.now() + 60_000) })
      await store.sessions.delete(ended.id)
      const entry = await store.audit.append({
        actor: 'fay@example.com',
        action: 'user.make-admin',
        target: { type: 'user', id: 'gil@example.com', name: 'Gil' },
        changes: [{ field: 'role', from: 'user', to: 'admin' }],
      })
      const listed = await store.wumpuses.list({ limit: 100 })
      const listedFiles = await store.files.list({ createdBefore: later(photo.createdAt), limit: 10 })
      expect(listedFiles.map((info) => info.id).sort()).toEqual([file.id, photo.id].sort())

      const reopened = await subject.reopen()
      expect(await reopened.wumpuses.count()).toBe(5)
      expect(await reopened.wumpuses.list({ limit: 100 })).toEqual(listed)
      expect(await reopened.wumpuses.get(records[0]!._id)).toEqual(updatedFirst)
      expect(await reopened.wumpuses.get(records[5]!._id)).toBeUndefined()
      expect((await collectPages(reopened, 2, 'odd@example.com')).ids).toEqual(newestFirst(records.slice(0, 5).filter((_, i) => i % 2)))
      expect(await reopened.users.get('fay@example.com')).toEqual({
        ...user,
        role: 'admin',
        firebaseUid: 'uid-fay',
        updatedAt: bound!.updatedAt,
      })
      expect(await reopened.sessions.get(session.id)).toEqual(session)
      expect(await reopened.sessions.get(ended.id)).toBeUndefined()
      expect((await reopened.audit.list({ limit: 5 })).items).toEqual([entry])
      expect(await reopened.users.upsert('fay@example.com', { job: 'Judge' })).toMatchObject({ role: 'admin', job: 'Judge' })
      expect((await reopened.users.list()).map((u) => u.email)).toEqual(['fay@example.com'])
      expect(await reopened.files.info(file.id)).toEqual(file)
      expect(Buffer.compare(Buffer.from((await reopened.files.read(file.id))!.bytes), Buffer.from(bytes))).toBe(0)
      expect(await reopened.files.info(removedFile.id)).toBeUndefined()
      expect(await reopened.files.info(photo.id)).toStrictEqual(photo)
      expect(await reopened.files.list({ createdBefore: later(photo.createdAt), limit: 10 })).toStrictEqual(listedFiles)
      expect(await inUse(reopened, fileIds(records[0]!.files))).toEqual([true, true, true])
      expect(await inUse(reopened, fileIds(replacedFiles))).toEqual([true, true, true])
      expect(await inUse(reopened, fileIds(records[2]!.files))).toEqual([false, false, false])
      expect(await inUse(reopened, fileIds(records[5]!.files))).toEqual([false, false, false])

      // The reopened store keeps working, ordered indexes included.
      const newest = await reopened.wumpuses.insert(sampleWumpus({ u_email: 'odd@example.com' }))
      expect((await reopened.wumpuses.list({ limit: 1, u_email: 'odd@example.com' })).items[0]?._id).toBe(newest._id)
      expect(await reopened.wumpuses.delete(records[1]!._id)).toBe(1)
      expect(await inUse(reopened, fileIds(records[1]!.files))).toEqual([false, false, false])
      expect(await inUse(reopened, fileIds(newest.files))).toEqual([true, true, true])
      expect((await reopened.wumpuses.list({ limit: 100, u_email: 'odd@example.com' })).total).toBe(2)
    })
  })
}

/** Records, helpers and reference answers shared by the store behaviour suites. */
import { randomBytes } from 'node:crypto'
import { expect } from 'vitest'
import { compareListKeys, listOrder, matchScore, queryWords } from '../../../contract/search'
import { type Platform, PLATFORMS } from '../../../contract/stickers'
import type { DerivedMedia, ListWumpusesOptions, NewFile, NewWumpus, Store, StoredFile, WumpusRecord } from '../../src/store/port'

export interface StoreUnderTest {
  store: Store
  /** Closes `store` and opens a new store over the same data. */
  reopen(): Promise<Store>
  /** Closes whatever is open and removes the data. */
  destroy(): Promise<void>
}

export type StoreFactory = () => Promise<StoreUnderTest>

/** What a suite's tests use: the store the current test opened (or reopened over the same data), and what opened it. */
export interface StoreInUse {
  readonly subject: StoreUnderTest
  store: Store
}

export const UNKNOWN_ID = 'abcdefabcdefabcdefabcdef'
export const MALFORMED_IDS = ['', 'nope', 'ABCDEFABCDEFABCDEFABCDEF', 'abcdefabcdefabcdefabcde', `${UNKNOWN_ID}0`, '{"$gt":""}']

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
export function sampleFiles(): NewWumpus['files'] {
  const { files } = sampleWumpus()
  return files
}

export function fileIds(files: NewWumpus['files']): string[] {
  return [files.gif.id, files.apng.id, files.lottie.id]
}

export async function inUse(store: Store, ids: string[]): Promise<boolean[]> {
  return Promise.all(ids.map((id) => store.wumpuses.usesFile(id)))
}

/** Puts a file once the clock has moved past the previous one, so creation times differ. */
export async function putAfter(store: Store, previous: StoredFile | undefined, file: NewFile): Promise<StoredFile> {
  while (previous && Date.now() <= previous.createdAt.getTime()) await new Promise((resolve) => setImmediate(resolve))
  return store.files.put(file)
}

export function later(date: Date, ms = 1): Date {
  return new Date(date.getTime() + ms)
}

/** The expected newest-first order: createdAt desc, then _id desc. */
export function newestFirst(records: WumpusRecord[]): string[] {
  return [...records]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
    .map((record) => record._id)
}

export type ListQuery = Omit<ListWumpusesOptions, 'limit' | 'cursor'>

export async function collectPages(
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
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

// Few words, some sharing prefixes and some with accents, so queries hit many records and ties.
export const VOCABULARY = [
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
export const TAGS = ['party', 'night', 'cute', 'wave', 'happy', 'blue']

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!
}

export function randomTags(random: () => number): string[] {
  return [...new Set(Array.from({ length: Math.floor(random() * 3) }, () => pick(random, TAGS)))]
}

export function randomWumpus(random: () => number, createdAt: Date): NewWumpus {
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

export function randomQueries(random: () => number, count: number): ListQuery[] {
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
export function exportsFor(lottieId: string, ready: readonly Platform[]): DerivedMedia {
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
export function fitsReference(record: WumpusRecord, platform: Platform): boolean {
  const derived = record.derived
  return derived?.source === record.files.lottie.id && derived.exports.some((e) => e.platform === platform && e.file !== undefined)
}

/** The expected ids of a list, computed the slow way from contract/search.ts's rules. */
export function referenceList(records: WumpusRecord[], query: ListQuery): string[] {
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

/**
 * What a search matches, found from the prefix index (search.ts) and ranked here by contract/search.ts
 * matchScore, kept best first per (words, filters) so that its next pages, the next visitor and the
 * newest-first order cost a binary search instead of another scan. Kept within a memory budget, least
 * recently used out first, until this instance writes something searches see, and never longer than
 * `maxAgeMs`: other instances on the same database write too, and their writes show within that age.
 */
import { compareKeyParts, matchScore, type ListKey } from '../../../../contract/search'
import type { Collection } from 'mongodb'
import { filterFacets, mongoFilter } from '../facets'
import type { WumpusFilters } from '../port'
import { prefixFilter } from './search'
import type { WumpusDocument } from './wumpuses'

/** A search's matches, best first (score desc, then newest first). */
export interface Matches {
  ids: string[]
  scores: Uint16Array
  times: Float64Array
  /** Positions of the matches newest first; made when first asked for. */
  newest?: Int32Array
}

/** What ranking a match needs of its document. */
const RANKING_FIELDS = { name: 1, description: 1, tags: 1, emoji: 1, keywords: 1, createdAt: 1 } as const
/** Bytes of the cache of searches (about 70 per match: its id string, score, time and newest position). */
const CACHE_BYTES = 32 * 1024 * 1024
const BYTES_PER_MATCH = 70

interface Entry {
  matches: Matches
  bytes: number
  storedAt: number
}

export class WumpusSearch {
  private readonly cache = new Map<string, Entry>()
  private cachedBytes = 0
  /** Scans under way, so that visitors asking the same search at once share one. */
  private readonly pending = new Map<string, Promise<Matches>>()
  /** Moves with every change: a scan that started before one is not kept. */
  private generation = 0

  constructor(
    private readonly wumpuses: Collection<WumpusDocument>,
    private readonly maxAgeMs: number,
  ) {}

  /** Forgets every kept search: call when this instance changes any animation's words, filters or existence. */
  changed(): void {
    this.generation++
    this.cache.clear()
    this.pending.clear()
    this.cachedBytes = 0
  }

  /** The animations matching every (normalized) word and every filter, best first. */
  matches(words: readonly string[], filters: WumpusFilters): Promise<Matches> {
    const key = `${[...words].sort().join(' ')}|${filterFacets(filters).sort().join(' ')}`
    const cached = this.cache.get(key)
    if (cached) {
      this.cache.delete(key)
      if (Date.now() - cached.storedAt <= this.maxAgeMs) {
        // Most recently used last.
        this.cache.set(key, cached)
        return Promise.resolve(cached.matches)
      }
      this.cachedBytes -= cached.bytes
    }
    let scan = this.pending.get(key)
    if (!scan) {
      scan = this.scan(key, words, filters)
      this.pending.set(key, scan)
    }
    return scan
  }

  private async scan(key: string, words: readonly string[], filters: WumpusFilters): Promise<Matches> {
    const generation = this.generation
    const startedAt = Date.now()
    try {
      const matches = await this.find(words, filters)
      if (generation === this.generation) this.keep(key, matches, startedAt)
      return matches
    } finally {
      if (generation === this.generation) this.pending.delete(key)
    }
  }

  private keep(key: string, matches: Matches, storedAt: number): void {
    const bytes = matches.ids.length * BYTES_PER_MATCH + 200
    if (bytes > CACHE_BYTES / 4 || this.maxAgeMs <= 0) return
    this.cache.set(key, { matches, bytes, storedAt })
    this.cachedBytes += bytes
    for (const [oldest, entry] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break
      this.cache.delete(oldest)
      this.cachedBytes -= entry.bytes
    }
  }

  /** Candidates from the prefix index, with only the fields ranking reads; those that match, best first. */
  private async find(words: readonly string[], filters: WumpusFilters): Promise<Matches> {
    const candidates = this.wumpuses.find({ ...mongoFilter(filters), ...prefixFilter(words) }, { projection: RANKING_FIELDS })
    const rows: Array<{ id: string; score: number; time: number }> = []
    for await (const doc of candidates) {
      // Words longer than the stored prefixes, and documents indexed by older rules, can be candidates without matching.
      const score = matchScore(words, doc)
      if (score > 0) rows.push({ id: doc._id, score, time: doc.createdAt.getTime() })
    }
    rows.sort((a, b) => compareKeyParts(a.score, a.time, a.id, { rank: b.score, time: b.time, id: b.id }))
    return {
      ids: rows.map((row) => row.id),
      scores: Uint16Array.from(rows, (row) => row.score),
      times: Float64Array.from(rows, (row) => row.time),
    }
  }
}

/** The position of the first match after a cursor's key in the best-first order. */
export function firstAfter(matches: Matches, after: ListKey): number {
  let low = 0
  let high = matches.ids.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (compareKeyParts(matches.scores[middle]!, matches.times[middle]!, matches.ids[middle]!, after) <= 0) low = middle + 1
    else high = middle
  }
  return low
}

/** The matches' positions newest first (kept with them). */
export function newestPositions(matches: Matches): Int32Array {
  matches.newest ??= Int32Array.from(matches.ids.keys()).sort(
    (a, b) => matches.times[b]! - matches.times[a]! || (matches.ids[a]! < matches.ids[b]! ? 1 : matches.ids[a]! > matches.ids[b]! ? -1 : 0),
  )
  return matches.newest
}

/** The first place in the newest-first positions after the cursor's key. */
export function firstNewestAfter(matches: Matches, positions: Int32Array, after: ListKey): number {
  let low = 0
  let high = positions.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const at = positions[middle]!
    const time = matches.times[at]!
    const id = matches.ids[at]!
    if (time > after.time || (time === after.time && id >= after.id)) low = middle + 1
    else high = middle
  }
  return low
}

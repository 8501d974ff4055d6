/**
 * Word search in SQLite. `wumpus_words` holds every normalized word of an animation's searched fields,
 * with the mask of the fields holding it (contract/search.ts FIELD_BIT) and the animation's creation time.
 * A query word matches its own word and, from PREFIX_MIN_LENGTH characters on, the words it starts: one
 * range of the primary key, read in one row (group_concat: a row per match would cost far more in the
 * driver than in SQLite). The masks are combined per animation and scored here (contract/search.ts
 * wordScore), and every query word must match.
 *
 * What a search matches is kept until an animation it matches (before or after the change) changes what
 * searches see of it: its next page, the next visitor and the other orders then cost one pass over the
 * matches, within a memory budget.
 */
import { matchesAsPrefix, wordScore } from '../../../../contract/search'
import type { Db } from './database'

/** A search's matches, in no particular order. */
export interface Matches {
  seqs: Int32Array
  scores: Uint16Array
  times: Float64Array
}

/** Bytes of the cache of searches (14 per match). */
const CACHE_BYTES = 48 * 1024 * 1024
/** A posting read from SQL: the animation's seq shifted left 4 bits, the whole-word bit (8) and the field mask. */
const WHOLE_WORD = 8
const FIELD_MASK = 7
/** wordScore by (whole-word mask << 3 | any-match mask). */
const SCORES = Array.from({ length: 64 }, (_, i) => wordScore(i >> 3, i & FIELD_MASK & ~(i >> 3)))

export class WumpusSearch {
  private readonly cache = new Map<string, { words: readonly string[]; facets: readonly string[]; matches: Matches; bytes: number }>()
  private cachedBytes = 0
  private readonly sql
  // Scratch space by seq; a stamp marks what belongs to the current search or query word.
  private stamp = 0
  private searchMark = new Uint32Array(0)
  private wordMark = new Uint32Array(0)
  private facetMark = new Uint32Array(0)
  private whole = new Uint8Array(0)
  private any = new Uint8Array(0)
  private matched = new Uint8Array(0)
  private scores = new Uint16Array(0)
  private times = new Float64Array(0)

  constructor(db: Db) {
    const postings = (where: string) =>
      db.prepare<Record<string, string>, { postings: string | null; times: string | null }>(
        `SELECT group_concat((seq << 4) | fields | ((word = @word) << 3)) AS postings, group_concat(created_at) AS times
         FROM wumpus_words WHERE ${where}`,
      )
    this.sql = {
      wholeWord: postings('word = @word'),
      prefix: postings('word >= @word AND word < @end'),
      facet: db.prepare<[string], string | null>('SELECT group_concat(seq) FROM wumpus_facets WHERE facet = ?').pluck(),
    }
  }

  /** Forgets the kept searches an animation's change touches (`affected` says which, by their words and facets). */
  forget(affected: (words: readonly string[], facets: readonly string[]) => boolean): void {
    for (const [key, entry] of this.cache) {
      if (!affected(entry.words, entry.facets)) continue
      this.cache.delete(key)
      this.cachedBytes -= entry.bytes
    }
  }

  /** The animations matching every (normalized) word and belonging to every facet. */
  matches(words: readonly string[], facets: readonly string[]): Matches {
    const key = `${[...words].sort().join(' ')}|${[...facets].sort().join(' ')}`
    const cached = this.cache.get(key)
    if (cached) {
      // Most recently used last.
      this.cache.delete(key)
      this.cache.set(key, cached)
      return cached.matches
    }
    const matches = this.find(words, facets)
    const bytes = matches.seqs.length * 14 + 200
    if (bytes <= CACHE_BYTES / 4) {
      this.cache.set(key, { words: [...words], facets: [...facets], matches, bytes })
      this.cachedBytes += bytes
      for (const [oldest, entry] of this.cache) {
        if (this.cachedBytes <= CACHE_BYTES) break
        this.cache.delete(oldest)
        this.cachedBytes -= entry.bytes
      }
    }
    return matches
  }

  private find(words: readonly string[], facets: readonly string[]): Matches {
    const searchStamp = this.nextStamp()
    let candidates: number[] = []
    for (const [index, word] of words.entries()) {
      const row = matchesAsPrefix(word) ? this.sql.prefix.get({ word, end: prefixEnd(word) }) : this.sql.wholeWord.get({ word })
      const postings = numbers(row?.postings)
      const times = index === 0 ? numbers(row?.times) : undefined
      const touched = this.combine(postings, times, index, searchStamp)
      if (index === 0) candidates = touched
      if (touched.length === 0) return { seqs: new Int32Array(), scores: new Uint16Array(), times: new Float64Array() }
    }
    let found = words.length > 1 ? candidates.filter((seq) => this.matched[seq] === words.length) : candidates
    for (const facet of facets) {
      const facetStamp = this.nextStamp()
      for (const seq of numbers(this.sql.facet.get(facet))) {
        this.grow(seq)
        this.facetMark[seq] = facetStamp
      }
      found = found.filter((seq) => this.facetMark[seq] === facetStamp)
    }
    const matches = { seqs: new Int32Array(found.length), scores: new Uint16Array(found.length), times: new Float64Array(found.length) }
    for (let i = 0; i < found.length; i++) {
      const seq = found[i]!
      matches.seqs[i] = seq
      matches.scores[i] = this.scores[seq]!
      matches.times[i] = this.times[seq]!
    }
    return matches
  }

  /** Adds one query word's postings to the search; answers the animations it matched. */
  private combine(postings: Float64Array, times: Float64Array | undefined, index: number, searchStamp: number): number[] {
    const wordStamp = this.nextStamp()
    const touched: number[] = []
    for (let i = 0; i < postings.length; i++) {
      const posting = postings[i]!
      const seq = posting >>> 4
      if (index === 0) this.grow(seq)
      else if (seq >= this.searchMark.length || this.searchMark[seq] !== searchStamp || this.matched[seq] !== index) continue
      if (this.wordMark[seq] !== wordStamp) {
        this.wordMark[seq] = wordStamp
        this.whole[seq] = 0
        this.any[seq] = 0
        touched.push(seq)
        if (times) this.times[seq] = times[i]!
      }
      this.any[seq]! |= posting & FIELD_MASK
      if (posting & WHOLE_WORD) this.whole[seq]! |= posting & FIELD_MASK
    }
    for (const seq of touched) {
      const score = SCORES[(this.whole[seq]! << 3) | this.any[seq]!]!
      if (index === 0) {
        this.searchMark[seq] = searchStamp
        this.matched[seq] = 1
        this.scores[seq] = score
      } else {
        this.matched[seq]! += 1
        this.scores[seq]! += score
      }
    }
    return touched
  }

  private nextStamp(): number {
    if (this.stamp === 0xffffffff) {
      this.stamp = 0
      for (const marks of [this.searchMark, this.wordMark, this.facetMark]) marks.fill(0)
    }
    return ++this.stamp
  }

  /** Room in the scratch space for this seq, doubling. */
  private grow(seq: number): void {
    if (seq < this.searchMark.length) return
    const size = Math.max(1024, 2 ** Math.ceil(Math.log2(seq + 1)))
    const bigger = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(old: T, made: T): T => {
      made.set(old)
      return made
    }
    this.searchMark = bigger(this.searchMark, new Uint32Array(size))
    this.wordMark = bigger(this.wordMark, new Uint32Array(size))
    this.facetMark = bigger(this.facetMark, new Uint32Array(size))
    this.whole = bigger(this.whole, new Uint8Array(size))
    this.any = bigger(this.any, new Uint8Array(size))
    this.matched = bigger(this.matched, new Uint8Array(size))
    this.scores = bigger(this.scores, new Uint16Array(size))
    this.times = bigger(this.times, new Float64Array(size))
  }
}

/** The numbers of a group_concat list. */
function numbers(list: string | null | undefined): Float64Array {
  if (!list) return new Float64Array()
  const parts = list.split(',')
  const values = new Float64Array(parts.length)
  for (let i = 0; i < parts.length; i++) values[i] = Number(parts[i])
  return values
}

/** The smallest string after every string that starts with `prefix` (by SQLite's binary order, which is UTF-8's). */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix]
  const last = chars.pop()!.codePointAt(0)!
  return chars.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1)
}

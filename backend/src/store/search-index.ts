/**
 * The embedded catalog's word index: every normalized word of the searched fields, with the records
 * (by slot number) whose field holds it. A query word matches the words it is a prefix of, found as a
 * range of the sorted word list, and every query word must match. Scores are contract/search.ts's
 * (fieldsScore), computed from the field bits of the postings, so no record is read to rank it.
 */
import { FIELD_BIT, SEARCH_FIELDS, wordScore, type SearchField } from '../../../contract/search'

/** A posting is the slot shifted left 3 bits, or the FIELD_BIT mask of the fields holding the word. */
const FIELD_BITS = 3
const FIELD_MASK = (1 << FIELD_BITS) - 1

/** wordScore for every (exact mask, prefix mask) pair, indexed exact * 8 + prefix. */
const SCORES = Array.from({ length: 1 << (2 * FIELD_BITS) }, (_, i) => wordScore(i >> FIELD_BITS, i & FIELD_MASK))

export interface SearchHits {
  /** Slots of the matching records, in no particular order. */
  slots: number[]
  /** Their scores, by slot (valid for the slots listed only, until the next search). */
  scores: Int32Array
}

export class SearchIndex {
  private readonly postings = new Map<string, number[]>()
  /** Every word with postings, sorted; words added since the last search wait in `unsorted`. */
  private words: string[] = []
  private unsorted = false
  private maxSlot = 0

  // Scratch space of one search, by slot; a stamp marks what belongs to the current search or word.
  private stamp = 0
  private searchMark = new Uint32Array(0)
  private wordMark = new Uint32Array(0)
  private exact = new Uint8Array(0)
  private prefix = new Uint8Array(0)
  private matched = new Uint8Array(0)
  private scores = new Int32Array(0)

  /** Indexes a record's field words under its slot. */
  add(slot: number, fields: Record<SearchField, string[]>): void {
    if (slot > this.maxSlot) this.maxSlot = slot
    for (const [word, bits] of fieldMasks(fields)) {
      let posting = this.postings.get(word)
      if (!posting) {
        posting = []
        this.postings.set(word, posting)
        this.words.push(word)
        this.unsorted = true
      }
      posting.push((slot << FIELD_BITS) | bits)
    }
  }

  /** Removes what add() indexed for this slot (pass the same fields). */
  remove(slot: number, fields: Record<SearchField, string[]>): void {
    for (const word of fieldMasks(fields).keys()) {
      const posting = this.postings.get(word)
      if (!posting) continue
      const at = posting.findIndex((entry) => entry >>> FIELD_BITS === slot)
      if (at < 0) continue
      posting[at] = posting[posting.length - 1]!
      posting.pop()
      if (posting.length === 0) {
        this.postings.delete(word)
        // The sorted list is cleaned of it at the next sort.
        this.unsorted = true
      }
    }
  }

  /** The records every query word matches, with their scores. Query words must be normalized. */
  search(queryWords: readonly string[]): SearchHits {
    this.sortWords()
    this.ensureCapacity(this.maxSlot)
    // Locals, not fields, in the loops below: they run once per posting.
    const { words, postings, searchMark, wordMark, exact, prefix, matched, scores } = this
    const searchStamp = this.nextStamp()
    let candidates: number[] = []
    for (const [index, queryWord] of queryWords.entries()) {
      const wordStamp = this.nextStamp()
      const touched: number[] = []
      for (let at = this.lowerBound(queryWord); at < words.length; at++) {
        const word = words[at]!
        if (!word.startsWith(queryWord)) break
        const isExact = word === queryWord
        const posting = postings.get(word)!
        for (let i = 0; i < posting.length; i++) {
          const entry = posting[i]!
          const slot = entry >>> FIELD_BITS
          if (index > 0 && (searchMark[slot] !== searchStamp || matched[slot] !== index)) continue
          if (wordMark[slot] !== wordStamp) {
            wordMark[slot] = wordStamp
            exact[slot] = 0
            prefix[slot] = 0
            touched.push(slot)
          }
          if (isExact) exact[slot]! |= entry & FIELD_MASK
          else prefix[slot]! |= entry & FIELD_MASK
        }
      }
      for (let i = 0; i < touched.length; i++) {
        const slot = touched[i]!
        const score = SCORES[(exact[slot]! << FIELD_BITS) | prefix[slot]!]!
        if (index === 0) {
          searchMark[slot] = searchStamp
          matched[slot] = 1
          scores[slot] = score
        } else {
          matched[slot]! += 1
          scores[slot]! += score
        }
      }
      if (index === 0) candidates = touched
      if (touched.length === 0) return { slots: [], scores }
    }
    const slots = queryWords.length <= 1 ? candidates : candidates.filter((slot) => matched[slot] === queryWords.length)
    return { slots, scores }
  }

  private sortWords(): void {
    if (!this.unsorted) return
    this.words = this.words.filter((word) => this.postings.has(word)).sort()
    this.unsorted = false
  }

  private lowerBound(word: string): number {
    let low = 0
    let high = this.words.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.words[middle]! < word) low = middle + 1
      else high = middle
    }
    return low
  }

  private nextStamp(): number {
    if (this.stamp === 0xffffffff) {
      this.stamp = 0
      this.searchMark.fill(0)
      this.wordMark.fill(0)
    }
    return ++this.stamp
  }

  private ensureCapacity(slot: number): void {
    if (slot < this.searchMark.length) return
    const size = Math.max(1024, 2 ** Math.ceil(Math.log2(slot + 1)))
    this.searchMark = grown(this.searchMark, new Uint32Array(size))
    this.wordMark = grown(this.wordMark, new Uint32Array(size))
    this.exact = grown(this.exact, new Uint8Array(size))
    this.prefix = grown(this.prefix, new Uint8Array(size))
    this.matched = grown(this.matched, new Uint8Array(size))
    this.scores = grown(this.scores, new Int32Array(size))
  }
}

function grown<T extends Uint8Array | Uint32Array | Int32Array>(old: T, bigger: T): T {
  bigger.set(old)
  return bigger
}

/** Each distinct word of the fields with the mask of the fields holding it. */
function fieldMasks(fields: Record<SearchField, string[]>): Map<string, number> {
  const masks = new Map<string, number>()
  for (const field of SEARCH_FIELDS) {
    for (const word of fields[field]) masks.set(word, (masks.get(word) ?? 0) | FIELD_BIT[field])
  }
  return masks
}

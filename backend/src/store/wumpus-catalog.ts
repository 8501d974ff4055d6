/**
 * The embedded store's animations in memory, with the indexes that answer every list without going
 * through nedb's query engine (which sorts every matching document on each query):
 * - list order indexes: all records newest first and most downloaded first, and both orders per facet
 *   (uploader, tag: see facets.ts), so a plain or filtered list is a binary search and a slice;
 * - a word index for search (search-index.ts), and the ranked matches of recent searches, so a search
 *   asked again (its next page, the next visitor, another order) is a binary search and a slice too;
 * - which records refer to each file id.
 * Records are the data file's own documents (never changed in place: an update brings a new one),
 * normalized when read. A file belongs to one record: adding or replacing a record that would share one
 * throws, before anything changes.
 */
import { fieldWords, listOrder, queryWords, type ListKey, type ListOrder } from '../../../contract/search'
import type { TagCount } from '../../../contract/wumpus'
import { filterFacets, recordFacets, tagOfFacet } from './facets'
import { decodeCursor, encodeCursor, PageSelector } from './list-order'
import { OrderedIndex } from './ordered-index'
import { FileInUseError, type ListWumpusesOptions, type WumpusPage, type WumpusRecord } from './port'
import { toWumpusRecord, wumpusFileIds } from './records'
import { SearchIndex } from './search-index'

/** A record as the data file keeps it: from before tags and download counts, it has neither. */
export type StoredWumpus = Omit<WumpusRecord, 'tags' | 'downloads'> & Partial<Pick<WumpusRecord, 'tags' | 'downloads'>>

/** A key that knows its record's slot, so walking an index needs no lookup by id. */
interface CatalogKey extends ListKey {
  slot: number
}

interface CatalogItem {
  record: StoredWumpus
  slot: number
  /** Its key newest first (rank 0); the same object sits in the all-records index and every facet's. */
  newest: CatalogKey
  /** Its key most downloaded first (rank = downloads); likewise shared. */
  popular: CatalogKey
  facets: string[]
}

interface FacetIndexes {
  newest: OrderedIndex<CatalogKey>
  popular: OrderedIndex<CatalogKey>
}

/** The records a search (its words, and its filters) matches, best first: score desc, then newest first. */
interface Matches {
  slots: Int32Array
  scores: Uint8Array
  /** Newest-first positions of the same records, ascending; made when first asked for. */
  newestPositions?: Uint32Array
}

/** Sorting key of a match: `(SCORE_CEILING - score) * ORDER_SPAN + position in the newest-first order`. */
const SCORE_CEILING = 255
const ORDER_SPAN = 2 ** 32
/** Bytes the cache of searches may hold (5 per match, 4 more once also asked for newest first). */
const CACHE_BYTES = 48 * 1024 * 1024

export class WumpusCatalog {
  private readonly items = new Map<string, CatalogItem>()
  private readonly slots: Array<CatalogItem | undefined> = []
  private readonly freeSlots: number[] = []
  private readonly newest = new OrderedIndex<CatalogKey>()
  private readonly popular = new OrderedIndex<CatalogKey>()
  private readonly facets = new Map<string, FacetIndexes>()
  private readonly words = new SearchIndex()
  /** File id to the ids of the records referring to it (once per reference). */
  private readonly fileUsers = new Map<string, string[]>()
  private tagCounts: TagCount[] | undefined
  /** Creation time and download count by slot, so ranking many candidates reads no objects. */
  private times = new Float64Array(1024)
  private downloads = new Float64Array(1024)
  /** Position of each slot in the newest-first order, and back; rebuilt after records come or go. */
  private positionOf = new Uint32Array(0)
  private slotAt = new Int32Array(0)
  private positionsStale = true
  /** Matches by search, least recently used first; emptied when records come or go. */
  private readonly searches = new Map<string, Matches>()
  private cachedBytes = 0
  // Scratch space for combining the matches of several words, by slot.
  private stamp = 0
  private marks = new Uint32Array(0)
  private sums = new Uint16Array(0)
  private readonly idOfSlot = (slot: number) => this.slots[slot]!.record._id

  constructor(records: StoredWumpus[]) {
    const byFacet = new Map<string, CatalogItem[]>()
    for (const record of records) {
      const item = this.track(record)
      for (const facet of item.facets) {
        const members = byFacet.get(facet) ?? []
        members.push(item)
        byFacet.set(facet, members)
      }
    }
    const all = [...this.items.values()]
    this.newest.reset(all.map((item) => item.newest))
    this.popular.reset(all.map((item) => item.popular))
    for (const [facet, members] of byFacet) {
      const indexes = this.facetIndexes(facet)
      indexes.newest.reset(members.map((item) => item.newest))
      indexes.popular.reset(members.map((item) => item.popular))
    }
  }

  get size(): number {
    return this.items.size
  }

  get(id: string): WumpusRecord | undefined {
    const item = this.items.get(id)
    return item && toWumpusRecord(item.record)
  }

  /** Every stored record (the catalog's own objects: for writing the data file, not for changing). */
  *all(): IterableIterator<StoredWumpus> {
    for (const item of this.items.values()) yield item.record
  }

  isFileInUse(id: string): boolean {
    return this.fileUsers.has(id)
  }

  /** Throws FileInUseError when another record has one of these files: a file belongs to one animation. */
  assertFilesFree(recordId: string, files: WumpusRecord['files']): void {
    const taken = wumpusFileIds({ files }).filter((id) => (this.fileUsers.get(id) ?? []).some((user) => user !== recordId))
    if (taken.length > 0) throw new FileInUseError([...new Set(taken)])
  }

  findByFile(id: string): string | undefined {
    return this.fileUsers.get(id)?.[0]
  }

  /** Adds a record; the catalog keeps the object, so the caller must not change it afterwards. */
  add(record: StoredWumpus): void {
    this.assertFilesFree(record._id, record.files)
    const item = this.track(record)
    this.newest.add(item.newest)
    this.popular.add(item.popular)
    for (const facet of item.facets) {
      const indexes = this.facetIndexes(facet)
      indexes.newest.add(item.newest)
      indexes.popular.add(item.popular)
    }
  }

  remove(id: string): void {
    const item = this.items.get(id)
    if (!item) return
    this.items.delete(id)
    this.slots[item.slot] = undefined
    this.freeSlots.push(item.slot)
    this.words.remove(item.slot, fieldWords(item.record))
    this.countFileUsers(item.record, -1)
    this.newest.remove(item.newest)
    this.popular.remove(item.popular)
    for (const facet of item.facets) {
      const indexes = this.facets.get(facet)
      indexes?.newest.remove(item.newest)
      indexes?.popular.remove(item.popular)
      if (indexes?.newest.size === 0) this.facets.delete(facet)
    }
    this.recordsChanged()
  }

  /** For updates: any field but _id and createdAt may have changed. */
  replace(record: StoredWumpus): void {
    if (!this.items.has(record._id)) return
    this.assertFilesFree(record._id, record.files)
    this.remove(record._id)
    this.add(record)
  }

  /** Adds to records' download counts (id to how many more); answers the ids it knew. */
  addDownloads(counts: ReadonlyMap<string, number>): string[] {
    const changes = new Map<OrderedIndex<CatalogKey>, { olds: CatalogKey[]; news: CatalogKey[] }>()
    const known: string[] = []
    for (const [id, count] of counts) {
      const item = this.items.get(id)
      if (!item) continue
      known.push(id)
      const downloads = (item.record.downloads ?? 0) + count
      const popular = { ...item.popular, rank: downloads }
      for (const index of [this.popular, ...item.facets.map((facet) => this.facets.get(facet)!.popular)]) {
        const change = changes.get(index) ?? { olds: [], news: [] }
        change.olds.push(item.popular)
        change.news.push(popular)
        changes.set(index, change)
      }
      item.record = { ...item.record, downloads }
      item.popular = popular
      this.downloads[item.slot] = downloads
    }
    for (const [index, { olds, news }] of changes) index.replaceMany(olds, news)
    return known
  }

  list(options: ListWumpusesOptions): WumpusPage {
    const words = queryWords(options.q)
    const order = listOrder(options.sort, words)
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, order)
    const facets: FacetIndexes[] = []
    for (const facet of filterFacets(options)) {
      const indexes = this.facets.get(facet)
      if (!indexes) return { items: [], total: 0 }
      facets.push(indexes)
    }

    if (words.length === 0) {
      if (facets.length <= 1) {
        const index = order === 'popular' ? (facets[0]?.popular ?? this.popular) : (facets[0]?.newest ?? this.newest)
        return this.slicedPage(index, options.limit, after, order)
      }
      // Several filters: walk the smallest, checking the others.
      return this.filteredPage(
        options,
        order,
        after,
        facets.reduce((a, b) => (b.newest.size < a.newest.size ? b : a)),
      )
    }

    const matches = this.matches(words, filterFacets(options))
    if (order === 'relevance') return this.rankedPage(matches, options.limit, after)
    if (order === 'new') return this.newestPage(matches, options.limit, after)
    // Most downloaded first changes with every count: one pass over the matches.
    const selector = new PageSelector<number>(options.limit, after, this.idOfSlot)
    for (const slot of matches.slots) selector.offer(this.downloads[slot]!, this.times[slot]!, slot)
    const { values, nextKey } = selector.page()
    const items = values.map((slot) => toWumpusRecord(this.slots[slot]!.record))
    return nextKey ? { items, total: selector.total, nextCursor: encodeCursor(nextKey, order) } : { items, total: selector.total }
  }

  /** The tags in use with their counts, most used first (kept until the tags change). */
  tags(): TagCount[] {
    this.tagCounts ??= [...this.facets]
      .flatMap(([facet, indexes]) => {
        const tag = tagOfFacet(facet)
        return tag === undefined ? [] : [{ tag, count: indexes.newest.size }]
      })
      .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))
    return this.tagCounts.map((entry) => ({ ...entry }))
  }

  /** A page of an index kept in the list's order: a binary search and a slice. */
  private slicedPage(index: OrderedIndex<CatalogKey>, limit: number, after: ListKey | undefined, order: ListOrder): WumpusPage {
    const keys = index.slice(limit + 1, after)
    const shown = keys.slice(0, limit).map((key) => key.slot)
    return this.pageOf(shown, index.size, keys.length > limit, order, 0)
  }

  /** A page of a search's matches, best first. */
  private rankedPage(result: Matches, limit: number, after: ListKey | undefined): WumpusPage {
    const { slots, scores } = result
    let start = 0
    if (after) {
      const bound = sortKey(after.rank, this.positionAfter(after))
      let high = slots.length
      while (start < high) {
        const middle = (start + high) >>> 1
        if (sortKey(scores[middle]!, this.positionOf[slots[middle]!]!) < bound) start = middle + 1
        else high = middle
      }
    }
    const shown = Array.from(slots.subarray(start, start + limit))
    const more = start + limit < slots.length
    return this.pageOf(shown, slots.length, more, 'relevance', more ? scores[start + limit - 1]! : 0)
  }

  /** A page of a search's matches, newest first. */
  private newestPage(result: Matches, limit: number, after: ListKey | undefined): WumpusPage {
    if (!result.newestPositions) {
      result.newestPositions = Uint32Array.from(result.slots, (slot) => this.positionOf[slot]!).sort()
      this.cachedBytes += result.newestPositions.byteLength
    }
    const positions = result.newestPositions
    const start = after ? lowerBound(positions, this.positionAfter(after)) : 0
    const shown = Array.from(positions.subarray(start, start + limit), (position) => this.slotAt[position]!)
    return this.pageOf(shown, positions.length, start + limit < positions.length, 'new', 0)
  }

  /** A list with several filters and no words: one pass over the smallest filter's members. */
  private filteredPage(options: ListWumpusesOptions, order: ListOrder, after: ListKey | undefined, smallest: FacetIndexes): WumpusPage {
    const required = filterFacets(options)
    const selector = new PageSelector<number>(options.limit, after, this.idOfSlot)
    for (const key of smallest.newest.keys) {
      const facets = this.slots[key.slot]!.facets
      if (required.every((facet) => facets.includes(facet)))
        selector.offer(order === 'popular' ? this.downloads[key.slot]! : 0, key.time, key.slot)
    }
    const { values, nextKey } = selector.page()
    const items = values.map((slot) => toWumpusRecord(this.slots[slot]!.record))
    return nextKey ? { items, total: selector.total, nextCursor: encodeCursor(nextKey, order) } : { items, total: selector.total }
  }

  /** Records of the shown slots; with more to come, a cursor at the last one (`relevance` is its score). */
  private pageOf(shown: number[], total: number, more: boolean, order: ListOrder, relevance: number): WumpusPage {
    const items = shown.map((slot) => toWumpusRecord(this.slots[slot]!.record))
    const last = shown[shown.length - 1]
    if (!more || last === undefined) return { items, total }
    const rank = order === 'relevance' ? relevance : order === 'popular' ? this.downloads[last]! : 0
    return { items, total, nextCursor: encodeCursor({ rank, time: this.times[last]!, id: this.idOfSlot(last) }, order) }
  }

  /**
   * What a search matches, from the cache or found now: one word from the word index; several words (and
   * filters) by combining each word's matches, walking the rarest word's and adding up the scores.
   */
  private matches(words: readonly string[], facets: readonly string[]): Matches {
    const key = `${[...words].sort().join(' ')}|${facets.join(' ')}`
    const cached = this.searches.get(key)
    if (cached) {
      // Most recently used last.
      this.searches.delete(key)
      this.searches.set(key, cached)
      return cached
    }
    this.refreshPositions()
    const found: { slots: number[]; scores: ArrayLike<number> } =
      words.length === 1 && facets.length === 0
        ? this.words.search(words)
        : this.combined(
            words.map((word) => this.matches([word], [])),
            facets,
          )
    const keys = new Float64Array(found.slots.length)
    found.slots.forEach((slot, i) => {
      keys[i] = sortKey(found.scores[slot]!, this.positionOf[slot]!)
    })
    keys.sort()
    const matches: Matches = {
      slots: Int32Array.from(keys, (sorted) => this.slotAt[sorted % ORDER_SPAN]!),
      scores: Uint8Array.from(keys, (sorted) => SCORE_CEILING - Math.floor(sorted / ORDER_SPAN)),
    }
    this.searches.set(key, matches)
    this.cachedBytes += bytesOf(matches)
    for (const [oldKey, old] of this.searches) {
      if (this.cachedBytes <= CACHE_BYTES || old === matches) break
      this.searches.delete(oldKey)
      this.cachedBytes -= bytesOf(old)
    }
    return matches
  }

  /** The records in every word's matches and every facet, with their summed scores (by slot). */
  private combined(parts: Matches[], facets: readonly string[]): { slots: number[]; scores: ArrayLike<number> } {
    if (this.marks.length < this.slots.length) {
      this.marks = new Uint32Array(this.slots.length)
      this.sums = new Uint16Array(this.slots.length)
    }
    const { marks, sums } = this
    const [rarest, ...others] = [...parts].sort((a, b) => a.slots.length - b.slots.length)
    let previous = 0
    for (const [round, part] of others.entries()) {
      const stamp = this.nextStamp()
      part.slots.forEach((slot, i) => {
        if (round > 0 && marks[slot] !== previous) return
        sums[slot] = (round > 0 ? sums[slot]! : 0) + part.scores[i]!
        marks[slot] = stamp
      })
      previous = stamp
    }
    const slots: number[] = []
    rarest!.slots.forEach((slot, i) => {
      if (others.length > 0 && marks[slot] !== previous) return
      const itemFacets = this.slots[slot]!.facets
      if (!facets.every((facet) => itemFacets.includes(facet))) return
      sums[slot] = (others.length > 0 ? sums[slot]! : 0) + rarest!.scores[i]!
      slots.push(slot)
    })
    return { slots, scores: sums }
  }

  private nextStamp(): number {
    if (this.stamp === 0xffffffff) {
      this.stamp = 0
      this.marks.fill(0)
    }
    return ++this.stamp
  }

  /** Position in the newest-first order of the first record after the key's time and id. */
  private positionAfter(key: ListKey): number {
    return this.newest.firstAfter({ rank: 0, time: key.time, id: key.id })
  }

  private refreshPositions(): void {
    if (!this.positionsStale) return
    const keys = this.newest.keys
    if (this.positionOf.length < this.slots.length) this.positionOf = new Uint32Array(this.slots.length)
    this.slotAt = new Int32Array(keys.length)
    keys.forEach((key, position) => {
      this.positionOf[key.slot] = position
      this.slotAt[position] = key.slot
    })
    this.positionsStale = false
  }

  /** Word results and newest-first positions no longer hold once records come or go. */
  private recordsChanged(): void {
    this.tagCounts = undefined
    this.searches.clear()
    this.cachedBytes = 0
    this.positionsStale = true
  }

  /** Gives the record a slot and indexes its words and files (not its list keys). */
  private track(record: StoredWumpus): CatalogItem {
    const slot = this.freeSlots.pop() ?? this.slots.length
    const time = record.createdAt.getTime()
    const downloads = record.downloads ?? 0
    const item: CatalogItem = {
      record,
      slot,
      newest: { rank: 0, time, id: record._id, slot },
      popular: { rank: downloads, time, id: record._id, slot },
      facets: recordFacets({ ...record, tags: record.tags ?? [] }),
    }
    this.items.set(record._id, item)
    this.slots[slot] = item
    if (slot >= this.times.length) {
      this.times = grown(this.times, slot)
      this.downloads = grown(this.downloads, slot)
    }
    this.times[slot] = time
    this.downloads[slot] = downloads
    this.words.add(slot, fieldWords(record))
    this.countFileUsers(record, 1)
    this.recordsChanged()
    return item
  }

  private countFileUsers(record: StoredWumpus, delta: 1 | -1): void {
    for (const id of wumpusFileIds(record)) {
      const users = this.fileUsers.get(id) ?? []
      const at = users.indexOf(record._id)
      if (delta > 0) users.push(record._id)
      else if (at >= 0) users.splice(at, 1)
      if (users.length > 0) this.fileUsers.set(id, users)
      else this.fileUsers.delete(id)
    }
  }

  private facetIndexes(facet: string): FacetIndexes {
    let indexes = this.facets.get(facet)
    if (!indexes) {
      indexes = { newest: new OrderedIndex<CatalogKey>(), popular: new OrderedIndex<CatalogKey>() }
      this.facets.set(facet, indexes)
    }
    return indexes
  }
}

function sortKey(score: number, position: number): number {
  return (SCORE_CEILING - score) * ORDER_SPAN + position
}

function bytesOf(matches: Matches): number {
  return matches.slots.byteLength + matches.scores.byteLength + (matches.newestPositions?.byteLength ?? 0)
}

/** Index of the first value not below `value` in an ascending array. */
function lowerBound(values: Uint32Array, value: number): number {
  let low = 0
  let high = values.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (values[middle]! < value) low = middle + 1
    else high = middle
  }
  return low
}

/** A copy with room for index `slot`, doubling. */
function grown(values: Float64Array<ArrayBuffer>, slot: number): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(Math.max(values.length * 2, slot + 1))
  bigger.set(values)
  return bigger
}

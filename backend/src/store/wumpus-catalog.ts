/**
 * The embedded store's animations in memory, with the indexes that answer every list without going
 * through nedb's query engine (which sorts every matching document on each query):
 * - list order indexes: all records newest first and most downloaded first, and one newest-first index
 *   per facet (uploader, tag: see facets.ts);
 * - a word index for search (search-index.ts);
 * - which records refer to each file id.
 * Updated only after nedb has accepted the write.
 */
import { fieldWords, listOrder, queryWords, type ListKey, type ListOrder } from '../../../contract/search'
import type { TagCount } from '../../../contract/wumpus'
import { filterFacets, recordFacets, tagOfFacet } from './facets'
import { decodeCursor, encodeCursor, PageSelector } from './list-order'
import { OrderedIndex } from './ordered-index'
import type { ListWumpusesOptions, WumpusPage, WumpusRecord } from './port'
import { toWumpusRecord, wumpusFileIds } from './records'
import { SearchIndex } from './search-index'

/** A key that knows its record's slot, so walking an index needs no lookup by id. */
interface CatalogKey extends ListKey {
  slot: number
}

interface CatalogItem {
  record: WumpusRecord
  slot: number
  /** Its key newest first (rank 0); the same object sits in the all-records index and every facet's. */
  newest: CatalogKey
  /** Its key most downloaded first (rank = downloads). */
  popular: CatalogKey
  facets: string[]
}

export class WumpusCatalog {
  private readonly items = new Map<string, CatalogItem>()
  private readonly slots: Array<CatalogItem | undefined> = []
  private readonly freeSlots: number[] = []
  private readonly newest = new OrderedIndex<CatalogKey>()
  private readonly popular = new OrderedIndex<CatalogKey>()
  private readonly facets = new Map<string, OrderedIndex<CatalogKey>>()
  private readonly words = new SearchIndex()
  /** File id to the ids of the records referring to it (once per reference). */
  private readonly fileUsers = new Map<string, string[]>()
  private tagCounts: TagCount[] | undefined

  constructor(records: WumpusRecord[]) {
    const byFacet = new Map<string, CatalogKey[]>()
    for (const record of records) {
      const item = this.track(toWumpusRecord(record))
      for (const facet of item.facets) {
        const keys = byFacet.get(facet) ?? []
        keys.push(item.newest)
        byFacet.set(facet, keys)
      }
    }
    const all = [...this.items.values()]
    this.newest.reset(all.map((item) => item.newest))
    this.popular.reset(all.map((item) => item.popular))
    for (const [facet, keys] of byFacet) this.facetIndex(facet).reset(keys)
  }

  get size(): number {
    return this.items.size
  }

  get(id: string): WumpusRecord | undefined {
    const item = this.items.get(id)
    return item && toWumpusRecord(item.record)
  }

  isFileInUse(id: string): boolean {
    return this.fileUsers.has(id)
  }

  findByFile(id: string): string | undefined {
    return this.fileUsers.get(id)?.[0]
  }

  add(record: WumpusRecord): void {
    const item = this.track(toWumpusRecord(record))
    this.newest.add(item.newest)
    this.popular.add(item.popular)
    for (const facet of item.facets) this.facetIndex(facet).add(item.newest)
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
      const index = this.facets.get(facet)
      index?.remove(item.newest)
      if (index?.size === 0) this.facets.delete(facet)
    }
    this.tagCounts = undefined
  }

  /** For updates: any field but _id and createdAt may have changed. */
  replace(record: WumpusRecord): void {
    if (!this.items.has(record._id)) return
    this.remove(record._id)
    this.add(record)
  }

  /** Adds to a record's download count; answers whether the record exists. */
  addDownloads(id: string, count: number): boolean {
    const item = this.items.get(id)
    if (!item) return false
    this.popular.remove(item.popular)
    item.record.downloads += count
    item.popular = { ...item.popular, rank: item.record.downloads }
    this.popular.add(item.popular)
    return true
  }

  list(options: ListWumpusesOptions): WumpusPage {
    const words = queryWords(options.q)
    const order = listOrder(options.sort, words)
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, order)
    const required = filterFacets(options)
    const facetIndexes: Array<OrderedIndex<CatalogKey>> = []
    for (const facet of required) {
      const index = this.facets.get(facet)
      if (!index) return { items: [], total: 0 }
      facetIndexes.push(index)
    }

    // A plain list in an order some index keeps: a binary search and a slice.
    if (words.length === 0 && facetIndexes.length <= 1) {
      const index = facetIndexes[0] ?? (order === 'popular' ? this.popular : this.newest)
      if (order === 'new' || index === this.popular) return this.slicePage(index, options.limit, after, order)
    }

    // Otherwise one pass over the fewest candidates: the search hits, or the smallest facet.
    const selector = new PageSelector<CatalogItem>(options.limit, after)
    const offer = (item: CatalogItem, score: number) => {
      if (required.length > 0 && !required.every((facet) => item.facets.includes(facet))) return
      const key = order === 'popular' ? item.popular : item.newest
      selector.offer(order === 'relevance' ? score : key.rank, key.time, key.id, item)
    }
    if (words.length > 0) {
      const hits = this.words.search(words)
      for (const slot of hits.slots) offer(this.slots[slot]!, hits.scores[slot]!)
    } else {
      const smallest = facetIndexes.reduce((a, b) => (b.size < a.size ? b : a))
      for (const key of smallest.keys) offer(this.slots[key.slot]!, 0)
    }
    const { values, nextKey } = selector.page()
    const items = values.map((item) => toWumpusRecord(item.record))
    return nextKey ? { items, total: selector.total, nextCursor: encodeCursor(nextKey, order) } : { items, total: selector.total }
  }

  /** The tags in use with their counts, most used first (kept until the tags change). */
  tags(): TagCount[] {
    this.tagCounts ??= [...this.facets]
      .flatMap(([facet, index]) => {
        const tag = tagOfFacet(facet)
        return tag === undefined ? [] : [{ tag, count: index.size }]
      })
      .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))
    return this.tagCounts.map((entry) => ({ ...entry }))
  }

  private slicePage(index: OrderedIndex<CatalogKey>, limit: number, after: ListKey | undefined, order: ListOrder): WumpusPage {
    const keys = index.slice(limit + 1, after)
    const shown = keys.slice(0, limit)
    const items = shown.map((key) => toWumpusRecord(this.slots[key.slot]!.record))
    const last = shown[shown.length - 1]
    return keys.length > limit && last ? { items, total: index.size, nextCursor: encodeCursor(last, order) } : { items, total: index.size }
  }

  /** Gives the record a slot and indexes its words and files (not its list keys). */
  private track(record: WumpusRecord): CatalogItem {
    const slot = this.freeSlots.pop() ?? this.slots.length
    const time = record.createdAt.getTime()
    const item: CatalogItem = {
      record,
      slot,
      newest: { rank: 0, time, id: record._id, slot },
      popular: { rank: record.downloads, time, id: record._id, slot },
      facets: recordFacets(record),
    }
    this.items.set(record._id, item)
    this.slots[slot] = item
    this.words.add(slot, fieldWords(record))
    this.countFileUsers(record, 1)
    this.tagCounts = undefined
    return item
  }

  private countFileUsers(record: WumpusRecord, delta: 1 | -1): void {
    for (const id of wumpusFileIds(record.files)) {
      const users = this.fileUsers.get(id) ?? []
      const at = users.indexOf(record._id)
      if (delta > 0) users.push(record._id)
      else if (at >= 0) users.splice(at, 1)
      if (users.length > 0) this.fileUsers.set(id, users)
      else this.fileUsers.delete(id)
    }
  }

  private facetIndex(facet: string): OrderedIndex<CatalogKey> {
    let index = this.facets.get(facet)
    if (!index) {
      index = new OrderedIndex<CatalogKey>()
      this.facets.set(facet, index)
    }
    return index
  }
}

/**
 * Search pages in MongoDB: one aggregation finds the candidates from the prefix index (search.ts), scores
 * them in the database (search.ts scoreExpression, contract/search.ts matchScore's ranking), sorts and
 * limits them there and counts them in the same pipeline (`$facet`), so an instance receives one page of
 * documents, never every match. A search's total is kept beside its pages, so its next pages skip the count.
 * Pages of the best-first and newest-first orders are kept for their next visitors (the most-downloaded
 * order reads current download counts, so is not kept), until this instance writes something searches
 * see, and never longer than `maxAgeMs`: other instances on the same database write too, and their writes
 * show within that age. Visitors asking the same page at once share one aggregation.
 */
import type { ListKey, ListOrder } from '../../../../contract/search'
import type { Collection, Document, Filter } from 'mongodb'
import { filterFacets, mongoFilter } from '../facets'
import type { WumpusFilters } from '../port'
import { prefixFilter, scoreExpression } from './search'
import { afterKey, MOST_DOWNLOADED_FIRST, NEWEST_FIRST, ORIGINALS, RECORD_PROJECTION } from './paging'
import type { WumpusDocument } from './wumpuses'

/** One page of a search: up to limit + 1 documents in the order (each with its score), and every match's count. */
export interface SearchPage {
  docs: Array<WumpusDocument & { score: number }>
  total: number
}

/** Pages and totals kept per instance (each a few KB at most). */
const MAX_KEPT = 2000

/**
 * Values kept by key for at most `maxAgeMs`, least recently used out first beyond MAX_KEPT, all forgotten
 * at once by `clear`; a value computed across a `clear` is not kept (`generation`).
 */
export class KeptValues<T> {
  private readonly kept = new Map<string, { value: T; storedAt: number }>()
  private readonly pending = new Map<string, Promise<T>>()
  private generation = 0

  constructor(private readonly maxAgeMs: number) {}

  clear(): void {
    this.generation++
    this.kept.clear()
    this.pending.clear()
  }

  get(key: string): T | undefined {
    const entry = this.kept.get(key)
    if (!entry) return undefined
    this.kept.delete(key)
    if (Date.now() - entry.storedAt > this.maxAgeMs) return undefined
    // Most recently used last.
    this.kept.set(key, entry)
    return entry.value
  }

  /** The kept value, else one computed (shared with callers asking meanwhile) and kept when `keep` says so. */
  getOrCompute(key: string, compute: () => Promise<T>, keep = true): Promise<T> {
    const kept = this.get(key)
    if (kept !== undefined) return Promise.resolve(kept)
    let running = this.pending.get(key)
    if (!running) {
      const generation = this.generation
      const startedAt = Date.now()
      running = compute().then(
        (value) => {
          if (generation === this.generation) {
            this.pending.delete(key)
            if (keep) this.set(key, value, startedAt)
          }
          return value
        },
        (error: unknown) => {
          if (generation === this.generation) this.pending.delete(key)
          throw error
        },
      )
      this.pending.set(key, running)
    }
    return running
  }

  /** Keeps a value computed from a read that began at `storedAt`, unless a `clear` came since `generation`. */
  set(key: string, value: T, storedAt = Date.now(), generation = this.generation): void {
    if (this.maxAgeMs <= 0 || generation !== this.generation) return
    this.kept.delete(key)
    this.kept.set(key, { value, storedAt })
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= MAX_KEPT) break
      this.kept.delete(oldest)
    }
  }

  /** Moves with every `clear`: a value read before one must not be kept. */
  currentGeneration(): number {
    return this.generation
  }
}

export class WumpusSearch {
  private readonly pages: KeptValues<SearchPage>
  private readonly totals: KeptValues<number>

  constructor(
    private readonly wumpuses: Collection<WumpusDocument>,
    maxAgeMs: number,
  ) {
    this.pages = new KeptValues(maxAgeMs)
    this.totals = new KeptValues(maxAgeMs)
  }

  /** Forgets every kept page and total: call when this instance changes any animation's words, filters or existence. */
  changed(): void {
    this.pages.clear()
    this.totals.clear()
  }

  /** The page after `after` of the animations matching every (normalized) word and every filter, in the order. */
  page(words: readonly string[], filters: WumpusFilters, order: ListOrder, limit: number, after: ListKey | undefined): Promise<SearchPage> {
    const search = `${[...new Set(words)].sort().join(' ')}|${filterFacets(filters).sort().join(' ')}`
    const key = `${search}|${order}|${limit}|${after ? `${after.rank}.${after.time}.${after.id}` : ''}`
    return this.pages.getOrCompute(key, () => this.aggregate(search, words, filters, order, limit, after), order !== 'popular')
  }

  private async aggregate(
    search: string,
    words: readonly string[],
    filters: WumpusFilters,
    order: ListOrder,
    limit: number,
    after: ListKey | undefined,
  ): Promise<SearchPage> {
    const generation = this.totals.currentGeneration()
    const startedAt = Date.now()
    const scored: Document[] = [
      { $match: { ...mongoFilter(filters), ...ORIGINALS, ...prefixFilter(words) } },
      { $addFields: { score: scoreExpression(words) } },
      // Words longer than the stored prefixes, and documents indexed by older rules, can be candidates without matching.
      { $match: { score: { $gt: 0 } } },
    ]
    const sort = order === 'relevance' ? { score: -1, ...NEWEST_FIRST } : order === 'popular' ? MOST_DOWNLOADED_FIRST : NEWEST_FIRST
    const pageStages: Document[] = [
      ...(after ? [{ $match: { $or: afterSearchKey(after, order) } }] : []),
      { $sort: sort },
      { $limit: limit + 1 },
      { $project: RECORD_PROJECTION },
    ]
    const knownTotal = this.totals.get(search)
    if (knownTotal !== undefined) {
      const docs = await this.wumpuses.aggregate<SearchPage['docs'][number]>([...scored, ...pageStages]).toArray()
      return { docs, total: knownTotal }
    }
    const [result] = await this.wumpuses
      .aggregate<{ page: SearchPage['docs']; total: Array<{ n: number }> }>([
        ...scored,
        { $facet: { page: pageStages, total: [{ $count: 'n' }] } },
      ])
      .toArray()
    const total = result?.total[0]?.n ?? 0
    this.totals.set(search, total, startedAt, generation)
    return { docs: result?.page ?? [], total }
  }
}

/** What comes strictly after a cursor's key in a search's order (the score is `score` in the pipeline). */
function afterSearchKey(key: ListKey, order: ListOrder): Filter<WumpusDocument & { score: number }>[] {
  const keyed = afterKey(key, order === 'relevance' ? 'new' : order)
  if (order !== 'relevance') return keyed
  return [{ score: { $lt: key.rank } }, ...keyed.map((condition) => ({ score: key.rank, ...condition }))]
}

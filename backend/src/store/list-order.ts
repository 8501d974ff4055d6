/**
 * List orders as both adapters page them: the key of a record in an order, cursors that carry that key,
 * and the selection of one page from matching candidates. The order itself is contract/search.ts's.
 */
import type { ListKey, ListOrder } from '../../../contract/search'
import { InvalidCursorError, type WumpusRecord } from './port'

const CURSOR_KIND: Record<ListOrder, string> = { new: '', popular: 'p', relevance: 'r' }
// Newest-first cursors keep the form they had before other orders existed, so saved links still work.
const CURSOR_PATTERN = /^(?:([pr])(\d{1,15})\.)?(\d{1,15})\.([0-9a-f]{24})$/

/** The key of a record in an order; `score` is its match score (relevance only). */
export function recordKey(record: Pick<WumpusRecord, '_id' | 'createdAt' | 'downloads'>, order: ListOrder, score = 0): ListKey {
  const rank = order === 'popular' ? record.downloads : order === 'relevance' ? score : 0
  return { rank, time: record.createdAt.getTime(), id: record._id }
}

export function encodeCursor(key: ListKey, order: ListOrder): string {
  const head = order === 'new' ? '' : `${CURSOR_KIND[order]}${key.rank}.`
  return Buffer.from(`${head}${key.time}.${key.id}`).toString('base64url')
}

/** The key a cursor carries; throws InvalidCursorError when malformed or made for another order. */
export function decodeCursor(cursor: string, order: ListOrder): ListKey {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match || (match[1] ?? '') !== CURSOR_KIND[order]) throw new InvalidCursorError()
  return { rank: order === 'new' ? 0 : Number(match[2]), time: Number(match[3]), id: match[4]! }
}

/** The key of a row in a newest-first list: its time, then its id. */
export function newestKey(time: Date, id: string): ListKey {
  return { rank: 0, time: time.getTime(), id }
}

/**
 * One page from rows read in the list's order as `limit + 1` (the extra one says whether more follow): the
 * first `limit` made into items (`items`, which may leave out rows gone meanwhile), and the cursor after the
 * last of them when more follow. Every paged list of both adapters ends here.
 */
export function pageOf<R, T>(
  rows: readonly R[],
  limit: number,
  page: { items: (rows: R[]) => T[]; key: (item: T) => ListKey; order?: ListOrder },
): { items: T[]; nextCursor?: string } {
  const items = page.items(rows.slice(0, limit))
  const last = items.at(-1)
  return rows.length > limit && last !== undefined ? { items, nextCursor: encodeCursor(page.key(last), page.order ?? 'new') } : { items }
}

/**
 * Picks one page from candidates offered in any order: the first `limit` after the cursor's key, and
 * whether more follow. Counts every candidate offered (the list's total). Keeps only limit + 1 at a time,
 * and reads a candidate's id (through `idOf`) only when rank and time tie, so most candidates cost two
 * number comparisons.
 */
export class PageSelector<T> {
  /** Candidates offered, before or after the cursor. */
  total = 0
  private readonly best: Array<{ rank: number; time: number; value: T; id?: string }> = []

  constructor(
    private readonly limit: number,
    private readonly after: ListKey | undefined,
    private readonly idOf: (value: T) => string,
  ) {}

  offer(rank: number, time: number, value: T): void {
    this.total++
    const after = this.after
    if (after && comesFirst(rank, time, value, after.rank, after.time, () => after.id, this.idOf) !== false) return
    const best = this.best
    const size = this.limit + 1
    if (best.length === size && this.before(rank, time, value, best[size - 1]!) !== true) return
    let low = 0
    let high = best.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.before(rank, time, value, best[middle]!) === false) low = middle + 1
      else high = middle
    }
    best.splice(low, 0, { rank, time, value })
    if (best.length > size) best.pop()
  }

  /** The page's values in order, and the key of its last one when more follow. */
  page(): { values: T[]; nextKey?: ListKey } {
    const shown = this.best.slice(0, this.limit)
    const values = shown.map((entry) => entry.value)
    const last = shown[shown.length - 1]
    if (this.best.length <= this.limit || !last) return { values }
    return { values, nextKey: { rank: last.rank, time: last.time, id: this.idOfEntry(last) } }
  }

  private before(rank: number, time: number, value: T, entry: PageSelector<T>['best'][number]): boolean | undefined {
    return comesFirst(rank, time, value, entry.rank, entry.time, () => this.idOfEntry(entry), this.idOf)
  }

  private idOfEntry(entry: PageSelector<T>['best'][number]): string {
    return (entry.id ??= this.idOf(entry.value))
  }
}

/** Whether the candidate comes before the key (true), after it (false), or is the key itself (undefined). */
function comesFirst<T>(
  rank: number,
  time: number,
  value: T,
  keyRank: number,
  keyTime: number,
  keyId: () => string,
  idOf: (value: T) => string,
): boolean | undefined {
  if (rank !== keyRank) return rank > keyRank
  if (time !== keyTime) return time > keyTime
  const id = idOf(value)
  const other = keyId()
  return id === other ? undefined : id > other
}

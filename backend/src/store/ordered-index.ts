/**
 * Keys kept in list order (contract/search.ts compareListKeys: rank desc, then createdAt desc, then _id
 * desc), so a page is a binary search plus a slice instead of a sort of every record. The same key
 * object may sit in several indexes (all records, one uploader's, one tag's): it must not change while
 * it is in one.
 */
import { compareKeyParts, type ListKey } from '../../../contract/search'

export class OrderedIndex<K extends ListKey = ListKey> {
  private entries: K[] = []

  get size(): number {
    return this.entries.length
  }

  /** Every key in order; read only. */
  get keys(): readonly K[] {
    return this.entries
  }

  /** Replaces the content; keys may come in any order. */
  reset(keys: K[]): void {
    this.entries = [...keys].sort((a, b) => compareKeyParts(a.rank, a.time, a.id, b))
  }

  add(key: K): void {
    this.entries.splice(this.firstAfter(key), 0, key)
  }

  /** Answers whether the key was there. */
  remove(key: ListKey): boolean {
    const at = this.firstAfter(key) - 1
    if (this.entries[at]?.id !== key.id) return false
    this.entries.splice(at, 1)
    return true
  }

  /**
   * Swaps many keys for new ones (same records, new ranks) at once: one pass over the index instead of
   * a splice each, for batches such as a flush of download counts. `olds` must be in the index.
   */
  replaceMany(olds: readonly K[], news: readonly K[]): void {
    if (olds.length < 16) {
      for (const old of olds) this.remove(old)
      for (const key of news) this.add(key)
      return
    }
    const gone = new Set<ListKey>(olds)
    const added = [...news].sort((a, b) => compareKeyParts(a.rank, a.time, a.id, b))
    const merged: K[] = []
    let next = 0
    for (const entry of this.entries) {
      if (gone.has(entry)) continue
      while (next < added.length && compareKeyParts(added[next]!.rank, added[next]!.time, added[next]!.id, entry) < 0)
        merged.push(added[next++]!)
      merged.push(entry)
    }
    while (next < added.length) merged.push(added[next++]!)
    this.entries = merged
  }

  /** Up to `count` keys after the given position (from the start when none). */
  slice(count: number, after?: ListKey): K[] {
    const start = after ? this.firstAfter(after) : 0
    return this.entries.slice(start, start + count)
  }

  /** Index of the first entry that comes strictly after the key (the key need not be in the index). */
  firstAfter(key: ListKey): number {
    let low = 0
    let high = this.entries.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (compareKeyParts(this.entries[middle]!.rank, this.entries[middle]!.time, this.entries[middle]!.id, key) > 0) high = middle
      else low = middle + 1
    }
    return low
  }
}

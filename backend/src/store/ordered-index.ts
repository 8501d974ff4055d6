/**
 * Ids kept in newest-first order (createdAt desc, then _id desc), so a page is a binary search
 * plus a slice instead of a sort of every record.
 */
export interface OrderedEntry {
  time: number
  id: string
}

export class OrderedIndex {
  private entries: OrderedEntry[] = []

  get size(): number {
    return this.entries.length
  }

  /** Replaces the content; entries may come in any order. */
  reset(entries: OrderedEntry[]): void {
    this.entries = [...entries].sort((a, b) => (comesAfter(a, b.time, b.id) ? 1 : -1))
  }

  add(time: number, id: string): void {
    this.entries.splice(this.firstAfter(time, id), 0, { time, id })
  }

  /** Answers whether the entry was there. */
  remove(time: number, id: string): boolean {
    const at = this.firstAfter(time, id) - 1
    if (this.entries[at]?.id !== id) return false
    this.entries.splice(at, 1)
    return true
  }

  /** Up to `count` ids after the given position (from the start when none). */
  slice(count: number, after?: { time: number; id: string }): string[] {
    const start = after ? this.firstAfter(after.time, after.id) : 0
    return this.entries.slice(start, start + count).map((entry) => entry.id)
  }

  /** Index of the first entry that comes strictly after (time, id) in newest-first order. */
  private firstAfter(time: number, id: string): number {
    let low = 0
    let high = this.entries.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (comesAfter(this.entries[middle]!, time, id)) high = middle
      else low = middle + 1
    }
    return low
  }
}

function comesAfter(entry: OrderedEntry, time: number, id: string): boolean {
  return entry.time < time || (entry.time === time && entry.id < id)
}

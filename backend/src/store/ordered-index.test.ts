import { describe, expect, it } from 'vitest'
import { OrderedIndex, type OrderedEntry } from './ordered-index'

function sorted(entries: OrderedEntry[]): string[] {
  return [...entries].sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1)).map((entry) => entry.id)
}

describe('OrderedIndex', () => {
  it('matches a full sort through random adds and removes', () => {
    const index = new OrderedIndex()
    const live: OrderedEntry[] = []
    for (let step = 0; step < 3000; step++) {
      if (live.length > 0 && Math.random() < 0.3) {
        const [gone] = live.splice(Math.floor(Math.random() * live.length), 1)
        expect(index.remove(gone!.time, gone!.id)).toBe(true)
      } else {
        const entry = { time: Math.floor(Math.random() * 20), id: Math.random().toString(16).slice(2, 14).padEnd(12, '0') }
        live.push(entry)
        index.add(entry.time, entry.id)
      }
    }
    expect(index.size).toBe(live.length)
    expect(index.slice(live.length)).toEqual(sorted(live))
  })

  it('slices after a position, including one that is not in the index', () => {
    const index = new OrderedIndex()
    index.reset([
      { time: 1, id: 'b' },
      { time: 2, id: 'a' },
      { time: 2, id: 'c' },
      { time: 1, id: 'a' },
    ])
    expect(index.slice(10)).toEqual(['c', 'a', 'b', 'a'])
    expect(index.slice(2, { time: 2, id: 'c' })).toEqual(['a', 'b'])
    expect(index.slice(10, { time: 2, id: 'b' })).toEqual(['a', 'b', 'a'])
    expect(index.slice(10, { time: 0, id: 'z' })).toEqual([])
    expect(index.remove(3, 'a')).toBe(false)
    expect(index.remove(1, 'b')).toBe(true)
    expect(index.slice(10)).toEqual(['c', 'a', 'a'])
  })
})

import { describe, expect, it } from 'vitest'
import { compareListKeys, type ListKey } from '../../../contract/search'
import { OrderedIndex } from './ordered-index'

function sorted(entries: ListKey[]): string[] {
  return [...entries].sort(compareListKeys).map((entry) => entry.id)
}

const key = (time: number, id: string, rank = 0): ListKey => ({ rank, time, id })
const ids = (keys: readonly ListKey[]) => keys.map((entry) => entry.id)

describe('OrderedIndex', () => {
  it('matches a full sort through random adds and removes', () => {
    const index = new OrderedIndex()
    const live: ListKey[] = []
    for (let step = 0; step < 3000; step++) {
      if (live.length > 0 && Math.random() < 0.3) {
        const [gone] = live.splice(Math.floor(Math.random() * live.length), 1)
        expect(index.remove(gone!)).toBe(true)
      } else {
        const entry = key(
          Math.floor(Math.random() * 20),
          Math.random().toString(16).slice(2, 14).padEnd(12, '0'),
          Math.floor(Math.random() * 3),
        )
        live.push(entry)
        index.add(entry)
      }
    }
    expect(index.size).toBe(live.length)
    expect(ids(index.slice(live.length))).toEqual(sorted(live))
    expect(index.keys.map((entry) => entry.id)).toEqual(sorted(live))
  })

  it('swaps many keys at once exactly like one at a time', () => {
    for (const changed of [3, 40]) {
      const keys = Array.from({ length: 200 }, (_, i) => key(i % 7, `id${String(i).padStart(3, '0')}`, i % 5))
      const one = new OrderedIndex()
      const many = new OrderedIndex()
      one.reset(keys)
      many.reset(keys)
      const olds = keys.filter((_, i) => i % Math.floor(200 / changed) === 0).slice(0, changed)
      const news = olds.map((old) => ({ ...old, rank: old.rank + 3 }))
      for (const old of olds) one.remove(old)
      for (const fresh of news) one.add(fresh)
      many.replaceMany(olds, news)
      expect(ids(many.keys)).toEqual(ids(one.keys))
      expect(ids(many.keys)).toEqual(sorted([...keys.filter((entry) => !olds.includes(entry)), ...news]))
    }
  })

  it('orders by rank before time', () => {
    const index = new OrderedIndex()
    index.reset([key(5, 'a', 0), key(1, 'b', 3), key(9, 'c', 1), key(1, 'd', 3)])
    expect(ids(index.slice(10))).toEqual(['d', 'b', 'c', 'a'])
    expect(ids(index.slice(10, key(1, 'b', 3)))).toEqual(['c', 'a'])
  })

  it('slices after a position, including one that is not in the index', () => {
    const index = new OrderedIndex()
    index.reset([key(1, 'b'), key(2, 'a'), key(2, 'c'), key(1, 'a')])
    expect(ids(index.slice(10))).toEqual(['c', 'a', 'b', 'a'])
    expect(ids(index.slice(2, key(2, 'c')))).toEqual(['a', 'b'])
    expect(ids(index.slice(10, key(2, 'b')))).toEqual(['a', 'b', 'a'])
    expect(ids(index.slice(10, key(0, 'z')))).toEqual([])
    expect(index.remove(key(3, 'a'))).toBe(false)
    expect(index.remove(key(1, 'b'))).toBe(true)
    expect(ids(index.slice(10))).toEqual(['c', 'a', 'a'])
  })
})

import { describe, expect, it } from 'vitest'
import type { WumpusRecord } from '../../store/port'
import { sampleWumpus } from '../../../test/store-behaviour/store-behaviour'
import { ApiWumpusJson, toApiWumpus } from './wumpus'

const record = (i: number): WumpusRecord => ({
  ...sampleWumpus({ name: `Wumpus ${i}`, tags: ['happy'] }),
  _id: i.toString(16).padStart(24, '0'),
  tags: ['happy'],
  emoji: [],
  keywords: [],
  licence: 'gallery-only',
  credit: '',
  sensitive: false,
  downloads: i,
  createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
  updatedAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
})

describe('ApiWumpusJson', () => {
  it('answers exactly the JSON of the API items, and follows edits, new counts and made previews', () => {
    const json = new ApiWumpusJson(2)
    const records = [record(1), record(2), record(3)]
    expect(json.list(records)).toBe(JSON.stringify(records.map((record) => toApiWumpus(record))))
    expect(json.list([])).toBe('[]')

    const renamed = { ...records[0]!, name: 'Renamed', updatedAt: new Date(Date.UTC(2026, 0, 1)) }
    const downloaded = { ...records[1]!, downloads: 99 }
    expect(JSON.parse(json.list([renamed, downloaded]))).toEqual([toApiWumpus(renamed), toApiWumpus(downloaded)])
    // Previews made in the background do not move updatedAt, yet the list shows them at once.
    const file = (name: string) => ({
      id: 'f'.repeat(24),
      filename: name,
      contentType: 'image/webp',
      bytes: 1,
      width: 300,
      height: 300,
      frames: 1,
      durationMs: 0,
    })
    const previewed: WumpusRecord = {
      ...records[2]!,
      derived: {
        source: records[2]!.files.lottie.id,
        version: 1,
        madeAt: new Date(),
        exports: [],
        previews: { small: file('a.webp'), large: file('b.webp'), still: file('c.webp') },
      },
    }
    expect(JSON.parse(json.list([previewed]))[0].preview).toBeDefined()
    // Beyond its size it forgets the oldest, and still answers right.
    expect(json.list(records)).toBe(JSON.stringify(records.map((record) => toApiWumpus(record))))
  })
})

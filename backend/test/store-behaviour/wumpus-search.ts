import { describe, expect, it } from 'vitest'
import { PLATFORMS } from '../../../contract/stickers'
import { InvalidCursorError, type WumpusRecord } from '../../src/store/port'
import {
  collectPages,
  exportsFor,
  MALFORMED_IDS,
  newestFirst,
  randomQueries,
  randomTags,
  randomWumpus,
  referenceList,
  sampleFiles,
  sampleWumpus,
  seededRandom,
  type StoreInUse,
  UNKNOWN_ID,
} from './samples'

/** The animations repository's searches, tags and download counts. */
export function describeWumpusSearchBehaviour(t: StoreInUse): void {
  describe('search, tags and downloads', () => {
    const at = (second: number) => new Date(Date.UTC(2025, 3, 1, 0, 0, second))
    const ids = (page: { items: WumpusRecord[] }) => page.items.map((item) => item._id)

    it('keeps tags, replaces them on update, and lists them with counts, most used first', async () => {
      const a = await t.store.wumpuses.insert(sampleWumpus({ tags: ['happy', 'wave'] }))
      const b = await t.store.wumpuses.insert(sampleWumpus({ tags: ['happy'] }))
      await t.store.wumpuses.insert(sampleWumpus())
      expect((await t.store.wumpuses.get(a._id))?.tags).toEqual(['happy', 'wave'])
      expect(await t.store.wumpuses.listTags()).toEqual([
        { tag: 'happy', count: 2 },
        { tag: 'wave', count: 1 },
      ])
      const updated = await t.store.wumpuses.update(a._id, { tags: ['sleepy', 'wave', 'blue'] })
      expect(updated?.tags).toEqual(['sleepy', 'wave', 'blue'])
      expect(await t.store.wumpuses.listTags()).toEqual([
        { tag: 'blue', count: 1 },
        { tag: 'happy', count: 1 },
        { tag: 'sleepy', count: 1 },
        { tag: 'wave', count: 1 },
      ])
      await t.store.wumpuses.update(a._id, { name: 'Renamed Wumpus' })
      expect((await t.store.wumpuses.get(a._id))?.tags).toEqual(['sleepy', 'wave', 'blue'])
      expect(await t.store.wumpuses.delete(b._id)).toBe(1)
      await t.store.wumpuses.update(a._id, { tags: [] })
      expect(await t.store.wumpuses.listTags()).toEqual([])
    })

    it('keeps emoji and keywords, replaces them on update, finds animations by them, and lists emoji with counts', async () => {
      const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
      const heart = { char: '❤️', name: 'red heart', shortcode: 'heart' }
      const party = { char: '🎉', name: 'party popper', shortcode: 'tada' }
      const a = await t.store.wumpuses.insert(sampleWumpus({ emoji: [wave, heart], keywords: ['good morning'] }))
      const b = await t.store.wumpuses.insert(sampleWumpus({ emoji: [heart] }))
      const plain = await t.store.wumpuses.insert(sampleWumpus())
      expect(await t.store.wumpuses.get(a._id)).toMatchObject({ emoji: [wave, heart], keywords: ['good morning'] })
      expect(await t.store.wumpuses.get(plain._id)).toMatchObject({ emoji: [], keywords: [] })
      expect(await t.store.wumpuses.listEmoji()).toEqual([
        { char: '❤️', count: 2 },
        { char: '👋', count: 1 },
      ])
      for (const q of ['👋', '👋🏽', 'wave', 'waving hand', 'morning', 'goo'])
        expect(ids(await t.store.wumpuses.list({ limit: 10, q })), q).toEqual([a._id])
      expect(new Set(ids(await t.store.wumpuses.list({ limit: 10, q: '❤' })))).toEqual(new Set([a._id, b._id]))
      expect(new Set(ids(await t.store.wumpuses.list({ limit: 10, q: 'heart' })))).toEqual(new Set([a._id, b._id]))
      expect(await t.store.wumpuses.list({ limit: 10, q: '🎉' })).toEqual({ items: [], total: 0 })

      const updated = await t.store.wumpuses.update(a._id, { emoji: [party], keywords: [] })
      expect(updated).toMatchObject({ emoji: [party], keywords: [] })
      expect(ids(await t.store.wumpuses.list({ limit: 10, q: '🎉' }))).toEqual([a._id])
      expect(await t.store.wumpuses.list({ limit: 10, q: '👋' })).toEqual({ items: [], total: 0 })
      expect(await t.store.wumpuses.list({ limit: 10, q: 'morning' })).toEqual({ items: [], total: 0 })
      expect(await t.store.wumpuses.listEmoji()).toEqual([
        { char: '❤️', count: 1 },
        { char: '🎉', count: 1 },
      ])
      await t.store.wumpuses.update(a._id, { name: 'Renamed Wumpus' })
      expect((await t.store.wumpuses.get(a._id))?.emoji).toEqual([party])
      expect(await t.store.wumpuses.delete(b._id)).toBe(1)
      expect(await t.store.wumpuses.listEmoji()).toEqual([{ char: '🎉', count: 1 }])
    })

    it('filters by tag with its own total and paging, newest first, also with an uploader', async () => {
      const tagged: WumpusRecord[] = []
      for (let i = 0; i < 9; i++) {
        const u_email = i % 2 ? 'odd@example.com' : 'even@example.com'
        tagged.push(await t.store.wumpuses.insert(sampleWumpus({ tags: ['party', `t${i % 3}`], u_email, createdAt: at(i % 4) })))
        await t.store.wumpuses.insert(sampleWumpus({ tags: ['other'], u_email, createdAt: at(i % 4) }))
      }
      const { ids: all, totals } = await collectPages(t.store, 4, { tag: 'party' })
      expect(all).toEqual(newestFirst(tagged))
      expect(totals).toEqual([9, 9, 9])
      const odd = await collectPages(t.store, 2, { tag: 'party', u_email: 'odd@example.com' })
      expect(odd.ids).toEqual(newestFirst(tagged.filter((record) => record.u_email === 'odd@example.com')))
      expect(odd.totals.every((total) => total === 4)).toBe(true)
      expect(await t.store.wumpuses.list({ limit: 5, tag: 'none' })).toEqual({ items: [], total: 0 })
      expect(await t.store.wumpuses.list({ limit: 5, tag: 't1', u_email: 'nobody@example.com' })).toEqual({ items: [], total: 0 })
    })

    it('finds words whatever their case and accents, and as prefixes while typing', async () => {
      const cafe = await t.store.wumpuses.insert(sampleWumpus({ name: 'Café Wumpus', description: 'Sipping a crème brûlée latte' }))
      const wave = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Waving Wumpus', description: 'Says hello to everyone', tags: ['greeting'] }),
      )
      for (const q of ['cafe', 'CAFÉ', 'Cafe\u0301', 'caf', 'ca', 'creme brulee', 'BRÛ']) {
        expect(ids(await t.store.wumpuses.list({ limit: 10, q })), q).toEqual([cafe._id])
      }
      // One letter is too short to be a prefix: it finds only itself, as a whole word.
      expect(ids(await t.store.wumpuses.list({ limit: 10, q: 'c' }))).toEqual([])
      const letter = await t.store.wumpuses.insert(sampleWumpus({ name: 'Plan C Wumpus', description: 'Calm' }))
      expect(ids(await t.store.wumpuses.list({ limit: 10, q: 'c' }))).toEqual([letter._id])
      expect(await t.store.wumpuses.delete(letter._id)).toBe(1)
      for (const q of ['wav', 'waving', 'greet', 'HELLO', 'wumpus hello', 'hel wav']) {
        expect(ids(await t.store.wumpuses.list({ limit: 10, q })), q).toEqual([wave._id])
      }
      for (const q of ['wavy', 'waving latte', 'zebra', 'ingw']) {
        expect(await t.store.wumpuses.list({ limit: 10, q }), q).toEqual({ items: [], total: 0 })
      }
      // Any script, and letters outside the Basic Multilingual Plane.
      const greeting = await t.store.wumpuses.insert(sampleWumpus({ name: 'Привет Wumpus', description: 'Says 𝒽𝒾 in 日本語' }))
      for (const q of ['пр', 'ПРИВЕТ', '𝒽𝒾', '日本']) expect(ids(await t.store.wumpuses.list({ limit: 10, q })), q).toEqual([greeting._id])
      // One character, even one written with two UTF-16 units, is whole words only.
      expect(await t.store.wumpuses.list({ limit: 10, q: '𝒽' })).toEqual({ items: [], total: 0 })
      expect(await t.store.wumpuses.delete(greeting._id)).toBe(1)
      // Only punctuation is no words at all: the plain list.
      expect((await t.store.wumpuses.list({ limit: 10, q: ' !? ' })).total).toBe(2)
    })

    it('ranks name over tags over description, whole words over prefixes, then newest first', async () => {
      const description = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Quiet One', description: 'Looks at the moon all night', createdAt: at(5) }),
      )
      const tag = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Sky Wumpus', description: 'Looks up at the sky', tags: ['moon'], createdAt: at(4) }),
      )
      const prefix = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Moonlight Wumpus', description: 'Glows softly at night', createdAt: at(3) }),
      )
      const older = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Moon Wumpus', description: 'Round and pale as it is', createdAt: at(1) }),
      )
      const newer = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Moon Wumpus', description: 'Round and pale as it is', createdAt: at(2) }),
      )
      const everywhere = await t.store.wumpuses.insert(sampleWumpus({ name: 'Moon', description: 'The moon itself', createdAt: at(0) }))
      const page = await t.store.wumpuses.list({ limit: 10, q: 'moon' })
      expect(ids(page)).toEqual([everywhere, newer, older, tag, prefix, description].map((record) => record._id))
      expect(page.total).toBe(6)
      // Another order keeps the same matches.
      expect(ids(await t.store.wumpuses.list({ limit: 10, q: 'moon', sort: 'new' }))).toEqual(
        [description, tag, prefix, newer, older, everywhere].map((record) => record._id),
      )
    })

    it('pages ranked results without gaps or repeats, also when records come and go between pages', async () => {
      const records: WumpusRecord[] = []
      for (let i = 0; i < 24; i++) {
        const name = i % 3 === 0 ? 'Star Wumpus' : i % 3 === 1 ? 'Starry Wumpus' : 'Plain Wumpus'
        records.push(await t.store.wumpuses.insert(sampleWumpus({ name, description: 'Bright star in the sky', createdAt: at(i % 4) })))
      }
      const whole = await t.store.wumpuses.list({ limit: 100, q: 'star' })
      expect(whole.total).toBe(24)
      const { ids: paged, totals } = await collectPages(t.store, 5, { q: 'star' })
      expect(paged).toEqual(ids(whole))
      expect(totals.every((total) => total === 24)).toBe(true)

      const first = await t.store.wumpuses.list({ limit: 5, q: 'star' })
      await t.store.wumpuses.insert(sampleWumpus({ name: 'Star Wumpus', description: 'Bright star in the sky', createdAt: at(9) }))
      expect(await t.store.wumpuses.delete(ids(first)[4]!)).toBe(1)
      const second = await t.store.wumpuses.list({ limit: 5, q: 'star', cursor: first.nextCursor })
      expect(ids(second)).toEqual(ids(whole).slice(5, 10))
    })

    it('counts downloads without touching updatedAt, and lists the most downloaded first', async () => {
      const a = await t.store.wumpuses.insert(sampleWumpus({ name: 'Alpha Wumpus', createdAt: at(1) }))
      const b = await t.store.wumpuses.insert(sampleWumpus({ name: 'Beta Wumpus', createdAt: at(2) }))
      const c = await t.store.wumpuses.insert(sampleWumpus({ name: 'Gamma Wumpus', createdAt: at(3) }))
      const revision = t.store.wumpuses.revision()
      const downloads = t.store.wumpuses.downloadsRevision()
      await t.store.wumpuses.addDownloads(
        new Map([
          [a._id, 3],
          [b._id, 1],
          [UNKNOWN_ID, 5],
          ['nope', 1],
        ]),
      )
      // Counts move their own revision: pages in other orders stay cached.
      expect(t.store.wumpuses.downloadsRevision()).not.toBe(downloads)
      expect(t.store.wumpuses.revision()).toBe(revision)
      await t.store.wumpuses.addDownloads(new Map([[b._id, 2]]))
      expect(await t.store.wumpuses.get(a._id)).toEqual({ ...a, downloads: 3 })
      expect((await t.store.wumpuses.get(b._id))?.downloads).toBe(3)
      // Equal counts: newest first.
      expect(ids(await t.store.wumpuses.list({ limit: 10, sort: 'popular' }))).toEqual([b._id, a._id, c._id])
      const { ids: paged } = await collectPages(t.store, 1, { sort: 'popular' })
      expect(paged).toEqual([b._id, a._id, c._id])
      expect(ids(await t.store.wumpuses.list({ limit: 10, q: 'wumpus', sort: 'popular' }))).toEqual([b._id, a._id, c._id])
      const unchanged = t.store.wumpuses.downloadsRevision()
      await t.store.wumpuses.addDownloads(new Map([[UNKNOWN_ID, 1]]))
      await t.store.wumpuses.addDownloads(new Map())
      expect(t.store.wumpuses.downloadsRevision()).toBe(unchanged)
    })

    it('refuses a cursor made for another order', async () => {
      for (let i = 0; i < 3; i++) await t.store.wumpuses.insert(sampleWumpus({ createdAt: at(i) }))
      const newest = await t.store.wumpuses.list({ limit: 1 })
      const popular = await t.store.wumpuses.list({ limit: 1, sort: 'popular' })
      const ranked = await t.store.wumpuses.list({ limit: 1, q: 'wumpus' })
      await expect(t.store.wumpuses.list({ limit: 1, sort: 'popular', cursor: newest.nextCursor })).rejects.toBeInstanceOf(
        InvalidCursorError,
      )
      await expect(t.store.wumpuses.list({ limit: 1, cursor: popular.nextCursor })).rejects.toBeInstanceOf(InvalidCursorError)
      await expect(t.store.wumpuses.list({ limit: 1, q: 'wumpus', sort: 'new', cursor: ranked.nextCursor })).rejects.toBeInstanceOf(
        InvalidCursorError,
      )
      expect((await t.store.wumpuses.list({ limit: 1, q: 'wumpus', cursor: ranked.nextCursor })).items).toHaveLength(1)
    })

    it('finds the animation a file belongs to', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      expect(await t.store.wumpuses.findByFile(record.files.apng.id)).toBe(record._id)
      for (const id of [UNKNOWN_ID, record._id, ...MALFORMED_IDS]) expect(await t.store.wumpuses.findByFile(id)).toBeUndefined()
      await t.store.wumpuses.delete(record._id)
      expect(await t.store.wumpuses.findByFile(record.files.apng.id)).toBeUndefined()
    })

    it('answers every query like the reference ranking over random records, before and after edits', async () => {
      const random = seededRandom(12)
      const records = new Map<string, WumpusRecord>()
      for (let i = 0; i < 120; i++) {
        const record = await t.store.wumpuses.insert(randomWumpus(random, at(Math.floor(random() * 6))))
        records.set(record._id, record)
      }
      // Some have exports for a few platforms, some for none yet.
      for (const record of [...records.values()]) {
        if (random() < 0.3) continue
        const ready = PLATFORMS.filter(() => random() < 0.5)
        const lottie = record.files.lottie.id
        records.set(record._id, (await t.store.wumpuses.setDerived(record._id, lottie, exportsFor(lottie, ready)))!)
      }
      const downloads = new Map([...records.keys()].filter(() => random() < 0.4).map((id) => [id, 1 + Math.floor(random() * 3)]))
      await t.store.wumpuses.addDownloads(downloads)
      for (const [id, count] of downloads) records.get(id)!.downloads += count
      const check = async () => {
        for (const query of randomQueries(random, 60)) {
          const { ids: paged, totals } = await collectPages(t.store, 7, query)
          const expected = referenceList([...records.values()], query)
          expect(paged, JSON.stringify(query)).toEqual(expected)
          expect(totals[0], JSON.stringify(query)).toBe(expected.length)
        }
      }
      await check()
      // Edits move records between results: the index must follow (a new Lottie leaves no ready export).
      for (const id of [...records.keys()].slice(0, 30)) {
        if (random() < 0.15) {
          const { lottie } = sampleFiles()
          records.set(id, (await t.store.wumpuses.update(id, { files: { ...records.get(id)!.files, lottie } }))!)
        } else if (random() < 0.5) {
          const updated = await t.store.wumpuses.update(id, { name: randomWumpus(random, new Date()).name, tags: randomTags(random) })
          records.set(id, updated!)
        } else {
          await t.store.wumpuses.delete(id)
          records.delete(id)
        }
      }
      await check()
    })

    it('keeps tags, emoji, download counts and the search index across close and reopen', async () => {
      const sleepy = { char: '😴', name: 'sleeping face', shortcode: 'sleeping' }
      const moon = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Moon Wumpus', tags: ['night'], emoji: [sleepy], keywords: ['bedtime'] }),
      )
      await t.store.wumpuses.insert(sampleWumpus({ name: 'Sun Wumpus', tags: ['day', 'night'] }))
      await t.store.wumpuses.addDownloads(new Map([[moon._id, 4]]))
      const reopened = await t.subject.reopen()
      expect((await reopened.wumpuses.get(moon._id))?.downloads).toBe(4)
      expect(ids(await reopened.wumpuses.list({ limit: 5, q: 'moo' }))).toEqual([moon._id])
      expect(ids(await reopened.wumpuses.list({ limit: 5, sort: 'popular' }))[0]).toBe(moon._id)
      expect(await reopened.wumpuses.listTags()).toEqual([
        { tag: 'night', count: 2 },
        { tag: 'day', count: 1 },
      ])
      expect(await reopened.wumpuses.get(moon._id)).toMatchObject({ emoji: [sleepy], keywords: ['bedtime'] })
      expect(await reopened.wumpuses.listEmoji()).toEqual([{ char: '😴', count: 1 }])
      for (const q of ['😴', 'bedtime', 'sleeping']) expect(ids(await reopened.wumpuses.list({ limit: 5, q })), q).toEqual([moon._id])
      await reopened.wumpuses.update(moon._id, { name: 'Star Wumpus' })
      expect(await reopened.wumpuses.list({ limit: 5, q: 'moon' })).toEqual({ items: [], total: 0 })
    })
  })
}

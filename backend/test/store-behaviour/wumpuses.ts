import { describe, expect, it } from 'vitest'
import { encodeCursor } from '../../src/store/list-order'
import { InvalidCursorError, type NewWumpus, type WumpusRecord } from '../../src/store/port'
import { collectPages, MALFORMED_IDS, newestFirst, sampleWumpus, type StoreInUse, UNKNOWN_ID } from './samples'

/** The animations repository: records, files they claim, lists in each order. */
export function describeWumpusBehaviour(t: StoreInUse): void {
  describe('wumpuses', () => {
    it('inserts and reads back a record with a 24-hex id and dates', async () => {
      const input = sampleWumpus()
      const before = Date.now()
      const inserted = await t.store.wumpuses.insert(input)
      expect(inserted._id).toMatch(/^[0-9a-f]{24}$/)
      expect(inserted).toMatchObject(input)
      expect(inserted.createdAt).toBeInstanceOf(Date)
      expect(inserted.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1)
      expect(inserted.updatedAt.getTime()).toBe(inserted.createdAt.getTime())
      expect(await t.store.wumpuses.get(inserted._id)).toEqual(inserted)
    })

    it('keeps a given createdAt and gives each record its own id', async () => {
      const createdAt = new Date('2024-02-03T04:05:06.789Z')
      const a = await t.store.wumpuses.insert(sampleWumpus({ createdAt }))
      const b = await t.store.wumpuses.insert(sampleWumpus({ createdAt }))
      expect(a.createdAt).toEqual(createdAt)
      expect((await t.store.wumpuses.get(a._id))?.createdAt).toEqual(createdAt)
      expect(a._id).not.toBe(b._id)
    })

    it('does not t.store keys outside the record shape', async () => {
      const sample = sampleWumpus()
      const input = { ...sample, role: 'admin', files: { ...sample.files, gif: { ...sample.files.gif, size: 3 } } } as NewWumpus
      const inserted = await t.store.wumpuses.insert(input)
      const read = await t.store.wumpuses.get(inserted._id)
      expect(Object.keys(read ?? {}).sort()).toEqual([
        '_id',
        'createdAt',
        'credit',
        'description',
        'downloads',
        'emoji',
        'files',
        'keywords',
        'licence',
        'name',
        'sensitive',
        'tags',
        'u_email',
        'u_name',
        'updatedAt',
      ])
      expect(read).toMatchObject({ tags: [], emoji: [], keywords: [], downloads: 0, licence: 'gallery-only', credit: '', sensitive: false })
      expect(read?.files).toEqual(sample.files)
      await t.store.wumpuses.update(inserted._id, { u_email: 'thief@example.com' } as never)
      expect((await t.store.wumpuses.get(inserted._id))?.u_email).toBe(sample.u_email)
    })

    it('keeps a licence and credit, changes them by update alone, and reads them back after a reopen', async () => {
      const inserted = await t.store.wumpuses.insert(sampleWumpus({ licence: 'CC-BY-4.0', credit: 'Ana Lima' }))
      expect(inserted).toMatchObject({ licence: 'CC-BY-4.0', credit: 'Ana Lima' })
      expect(await t.store.wumpuses.get(inserted._id)).toMatchObject({ licence: 'CC-BY-4.0', credit: 'Ana Lima' })
      await t.store.wumpuses.update(inserted._id, { licence: 'CC0-1.0' })
      expect(await t.store.wumpuses.get(inserted._id)).toMatchObject({ licence: 'CC0-1.0', credit: 'Ana Lima' })
      await t.store.wumpuses.update(inserted._id, { credit: '', name: 'Renamed Wumpus' })
      t.store = await t.subject.reopen()
      expect(await t.store.wumpuses.get(inserted._id)).toMatchObject({ licence: 'CC0-1.0', credit: '', name: 'Renamed Wumpus' })
    })

    it('leaves sensitive animations out of lists, totals and searches unless asked for, and follows the flag when it changes', async () => {
      const at = (minute: number) => new Date(Date.UTC(2025, 6, 1, 0, minute))
      const calm = await t.store.wumpuses.insert(sampleWumpus({ name: 'Calm Otter', tags: ['otter'], createdAt: at(1) }))
      const spicy = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Spicy Otter', tags: ['otter'], sensitive: true, createdAt: at(2), u_email: 'spicy@example.com' }),
      )
      const other = await t.store.wumpuses.insert(sampleWumpus({ name: 'Calm Heron', tags: ['heron'], createdAt: at(3) }))
      expect(spicy.sensitive).toBe(true)
      expect(calm.sensitive).toBe(false)
      const ids = (page: { items: WumpusRecord[] }) => page.items.map((item) => item._id)
      const both = async (options: Omit<Parameters<typeof t.store.wumpuses.list>[0], 'limit'>) => ({
        without: await t.store.wumpuses.list({ limit: 10, ...options }),
        with: await t.store.wumpuses.list({ limit: 10, ...options, withSensitive: true }),
      })

      let lists = await both({})
      expect(ids(lists.without)).toEqual([other._id, calm._id])
      expect(lists.without.total).toBe(2)
      expect(ids(lists.with)).toEqual([other._id, spicy._id, calm._id])
      expect(lists.with.total).toBe(3)
      lists = await both({ sort: 'popular' })
      expect(ids(lists.without).sort()).toEqual([other._id, calm._id].sort())
      expect(ids(lists.with)).toHaveLength(3)
      lists = await both({ tag: 'otter' })
      expect([ids(lists.without), lists.without.total]).toEqual([[calm._id], 1])
      expect([ids(lists.with), lists.with.total]).toEqual([[spicy._id, calm._id], 2])
      lists = await both({ u_email: 'spicy@example.com' })
      expect([ids(lists.without), lists.without.total]).toEqual([[], 0])
      expect(ids(lists.with)).toEqual([spicy._id])
      lists = await both({ q: 'otter' })
      expect([ids(lists.without), lists.without.total]).toEqual([[calm._id], 1])
      expect(ids(lists.with).sort()).toEqual([calm._id, spicy._id].sort())
      // A page of one, then the next: the cursor walks past the sensitive one without showing it.
      const first = await t.store.wumpuses.list({ limit: 1 })
      const second = await t.store.wumpuses.list({ limit: 1, cursor: first.nextCursor })
      expect([...ids(first), ...ids(second)]).toEqual([other._id, calm._id])
      expect(second.nextCursor).toBeUndefined()

      // Marked sensitive by an edit, and back: lists, totals and searches follow at once (nothing kept goes stale).
      await t.store.wumpuses.update(calm._id, { sensitive: true })
      await t.store.wumpuses.update(spicy._id, { sensitive: false })
      lists = await both({ q: 'otter' })
      expect([ids(lists.without), lists.without.total]).toEqual([[spicy._id], 1])
      lists = await both({ tag: 'otter' })
      expect([ids(lists.without), lists.without.total]).toEqual([[spicy._id], 1])
      lists = await both({})
      expect([ids(lists.without), lists.without.total]).toEqual([[other._id, spicy._id], 2])
      expect(lists.with.total).toBe(3)
      expect(await t.store.wumpuses.get(calm._id)).toMatchObject({ sensitive: true })

      t.store = await t.subject.reopen()
      expect(await t.store.wumpuses.get(calm._id)).toMatchObject({ sensitive: true })
      expect(ids(await t.store.wumpuses.list({ limit: 10 }))).toEqual([other._id, spicy._id])
      // Deleting a sensitive one moves the totals with it.
      await t.store.wumpuses.delete(calm._id)
      expect((await t.store.wumpuses.list({ limit: 10, withSensitive: true })).total).toBe(2)
    })

    it('counts tags and emoji without the sensitive animations unless asked for, following the flag, hide and delete', async () => {
      const emoji = (...chars: string[]) => chars.map((char) => ({ char, name: char }))
      const calm = await t.store.wumpuses.insert(sampleWumpus({ tags: ['otter'], emoji: emoji('🦦') }))
      const spicy = await t.store.wumpuses.insert(sampleWumpus({ tags: ['otter', 'gore'], emoji: emoji('🦦', '🩸'), sensitive: true }))
      const counts = async () => ({
        tags: await t.store.wumpuses.listTags(),
        emoji: await t.store.wumpuses.listEmoji(),
        allTags: await t.store.wumpuses.listTags({ withSensitive: true }),
        allEmoji: await t.store.wumpuses.listEmoji({ withSensitive: true }),
      })
      const withoutSpicy = {
        tags: [{ tag: 'otter', count: 1 }],
        emoji: [{ char: '🦦', count: 1 }],
        allTags: [
          { tag: 'otter', count: 2 },
          { tag: 'gore', count: 1 },
        ],
        allEmoji: [
          { char: '🦦', count: 2 },
          { char: '🩸', count: 1 },
        ],
      }
      expect(await counts()).toEqual(withoutSpicy)
      // Not sensitive any more: counted for everyone; sensitive again: back out (nothing kept goes stale).
      await t.store.wumpuses.update(spicy._id, { sensitive: false })
      expect(await counts()).toMatchObject({ tags: withoutSpicy.allTags, emoji: withoutSpicy.allEmoji })
      await t.store.wumpuses.update(spicy._id, { sensitive: true })
      expect(await counts()).toEqual(withoutSpicy)
      // A new tag on the sensitive one is counted only with them.
      await t.store.wumpuses.update(spicy._id, { tags: ['otter', 'gore', 'night'] })
      expect((await counts()).tags).toEqual([{ tag: 'otter', count: 1 }])
      expect((await counts()).allTags.map((entry) => entry.tag)).toEqual(['otter', 'gore', 'night'])
      t.store = await t.subject.reopen()
      expect((await counts()).tags).toEqual([{ tag: 'otter', count: 1 }])
      // Hidden, it counts for nobody; restored, as before; deleted, gone.
      await t.store.wumpuses.setHidden(spicy._id, { at: new Date(), by: 'admin@example.com' })
      expect((await counts()).allTags).toEqual([{ tag: 'otter', count: 1 }])
      await t.store.wumpuses.setHidden(spicy._id, null)
      expect((await counts()).allTags).toHaveLength(3)
      expect((await counts()).tags).toEqual([{ tag: 'otter', count: 1 }])
      await t.store.wumpuses.delete(spicy._id)
      expect(await counts()).toEqual({
        tags: withoutSpicy.tags,
        emoji: withoutSpicy.emoji,
        allTags: withoutSpicy.tags,
        allEmoji: withoutSpicy.emoji,
      })
      expect(calm.sensitive).toBe(false)
      if (t.store.wumpuses.correctCounts) expect(await t.store.wumpuses.correctCounts()).toBe(0)
    })

    it('answers undefined or 0 for unknown and malformed ids', async () => {
      await t.store.wumpuses.insert(sampleWumpus())
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
        expect(await t.store.wumpuses.get(id)).toBeUndefined()
        expect(await t.store.wumpuses.update(id, { name: 'x' })).toBeUndefined()
        expect(await t.store.wumpuses.delete(id)).toBe(0)
      }
      expect(await t.store.wumpuses.count()).toBe(1)
    })

    it('updates only the patched fields and bumps updatedAt', async () => {
      const inserted = await t.store.wumpuses.insert(sampleWumpus({ createdAt: new Date(Date.now() - 60_000) }))
      const files = {
        gif: { id: 'f00000000000000000000001', filename: 'new.gif' },
        apng: { id: 'f00000000000000000000002', filename: 'new.png' },
        lottie: { id: 'f00000000000000000000003', filename: 'new.json' },
      }
      const updated = await t.store.wumpuses.update(inserted._id, { name: 'Renamed', files, description: undefined })
      expect(updated).toEqual({
        ...inserted,
        name: 'Renamed',
        files,
        updatedAt: updated?.updatedAt,
      })
      expect(updated!.updatedAt.getTime()).toBeGreaterThan(inserted.createdAt.getTime())
      expect(await t.store.wumpuses.get(inserted._id)).toEqual(updated)
    })

    it('updates while the files are still the ones given, else changes nothing and answers undefined', async () => {
      const inserted = await t.store.wumpuses.insert(sampleWumpus())
      const gif = { id: 'f00000000000000000000011', filename: 'first.gif' }
      const files = { ...inserted.files, gif }
      const updated = await t.store.wumpuses.update(inserted._id, { files }, { whileFiles: inserted.files })
      expect(updated?.files).toEqual(files)
      // An edit made from the first read: the files changed since, so neither text nor files are written.
      for (const patch of [
        { files: { ...inserted.files, apng: { id: 'f00000000000000000000012', filename: 'late.png' } } },
        { name: 'Late' },
      ]) {
        expect(await t.store.wumpuses.update(inserted._id, patch, { whileFiles: inserted.files })).toBeUndefined()
      }
      expect(await t.store.wumpuses.get(inserted._id)).toEqual(updated)
      expect(await t.store.wumpuses.findByFile('f00000000000000000000012')).toBeUndefined()
      expect(await t.store.wumpuses.update(inserted._id, { name: 'Named' }, { whileFiles: files })).toMatchObject({ name: 'Named', files })
      expect(await t.store.wumpuses.update(UNKNOWN_ID, { name: 'x' }, { whileFiles: files })).toBeUndefined()
    })

    it('deletes once and counts what is left', async () => {
      const a = await t.store.wumpuses.insert(sampleWumpus())
      const b = await t.store.wumpuses.insert(sampleWumpus())
      expect(await t.store.wumpuses.count()).toBe(2)
      expect(await t.store.wumpuses.delete(a._id)).toBe(1)
      expect(await t.store.wumpuses.delete(a._id)).toBe(0)
      expect(await t.store.wumpuses.get(a._id)).toBeUndefined()
      expect(await t.store.wumpuses.get(b._id)).toEqual(b)
      expect(await t.store.wumpuses.count()).toBe(1)
      const page = await t.store.wumpuses.list({ limit: 10 })
      expect(page.items.map((item) => item._id)).toEqual([b._id])
      expect(page.total).toBe(1)
    })

    it('moves the revision on every animation write, and only then', async () => {
      const seen = [t.store.wumpuses.revision()]
      const record = await t.store.wumpuses.insert(sampleWumpus())
      seen.push(t.store.wumpuses.revision())
      await t.store.wumpuses.update(record._id, { name: 'Renamed' })
      seen.push(t.store.wumpuses.revision())
      await t.store.wumpuses.delete(record._id)
      seen.push(t.store.wumpuses.revision())
      expect(new Set(seen).size).toBe(4)
      // Reads and writes that change nothing leave it alone.
      await t.store.wumpuses.list({ limit: 5 })
      await t.store.wumpuses.update(record._id, { name: 'Gone' })
      await t.store.wumpuses.delete(record._id)
      await t.store.users.upsert('reader@example.com', {})
      expect(t.store.wumpuses.revision()).toBe(seen[3])
    })

    it('lists newest first across pages with no duplicates or gaps, stable on createdAt ties', async () => {
      const base = Date.UTC(2025, 0, 1)
      const records: WumpusRecord[] = []
      // 5 distinct times, 5 records each, inserted in a scrambled order.
      const times = Array.from({ length: 25 }, (_, i) => base + ((i * 7) % 5) * 1000)
      for (const time of times) records.push(await t.store.wumpuses.insert(sampleWumpus({ createdAt: new Date(time) })))
      const expected = newestFirst(records)

      const first = await t.store.wumpuses.list({ limit: 7 })
      expect(first.items.map((item) => item._id)).toEqual(expected.slice(0, 7))
      expect(first.total).toBe(25)
      expect(first.items[0]).toEqual(records.find((record) => record._id === expected[0]))

      const { ids, pages, totals } = await collectPages(t.store, 7)
      expect(ids).toEqual(expected)
      expect(new Set(ids).size).toBe(25)
      expect(pages).toBe(4)
      expect(totals.every((total) => total === 25)).toBe(true)
    })

    it('ends without an empty page when the count divides evenly, and handles an empty t.store', async () => {
      expect(await t.store.wumpuses.list({ limit: 5 })).toEqual({ items: [], total: 0 })
      for (let i = 0; i < 10; i++) await t.store.wumpuses.insert(sampleWumpus({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)) }))
      const first = await t.store.wumpuses.list({ limit: 5 })
      expect(first.nextCursor).toBeDefined()
      const second = await t.store.wumpuses.list({ limit: 5, cursor: first.nextCursor })
      expect(second.items).toHaveLength(5)
      expect(second.nextCursor).toBeUndefined()
      const whole = await t.store.wumpuses.list({ limit: 10 })
      expect(whole.items).toHaveLength(10)
      expect(whole.nextCursor).toBeUndefined()
    })

    it('keeps paging stable when records are added or deleted between pages', async () => {
      const records: WumpusRecord[] = []
      for (let i = 0; i < 12; i++) {
        records.push(await t.store.wumpuses.insert(sampleWumpus({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) })))
      }
      const expected = newestFirst(records)
      const first = await t.store.wumpuses.list({ limit: 4 })
      expect(first.items.map((item) => item._id)).toEqual(expected.slice(0, 4))
      // A newer record and the deletion of the cursor's own record must not shift the next page.
      await t.store.wumpuses.insert(sampleWumpus())
      expect(await t.store.wumpuses.delete(expected[3]!)).toBe(1)
      const second = await t.store.wumpuses.list({ limit: 4, cursor: first.nextCursor })
      expect(second.items.map((item) => item._id)).toEqual(expected.slice(4, 8))
      expect(second.total).toBe(12)
    })

    it('filters by uploader with its own total and paging', async () => {
      const mine: WumpusRecord[] = []
      for (let i = 0; i < 9; i++) {
        const createdAt = new Date(Date.UTC(2025, 5, 1, 0, 0, i % 3))
        mine.push(await t.store.wumpuses.insert(sampleWumpus({ u_email: 'me@example.com', createdAt })))
        await t.store.wumpuses.insert(sampleWumpus({ u_email: 'other@example.com', createdAt }))
      }
      const page = await t.store.wumpuses.list({ limit: 4, u_email: 'me@example.com' })
      expect(page.total).toBe(9)
      expect(page.items.every((item) => item.u_email === 'me@example.com')).toBe(true)
      const { ids, totals } = await collectPages(t.store, 4, 'me@example.com')
      expect(ids).toEqual(newestFirst(mine))
      expect(totals).toEqual([9, 9, 9])
      expect(await t.store.wumpuses.list({ limit: 4, u_email: 'nobody@example.com' })).toEqual({ items: [], total: 0 })
      expect(await t.store.wumpuses.count()).toBe(18)
    })

    it('rejects malformed cursors with InvalidCursorError', async () => {
      await t.store.wumpuses.insert(sampleWumpus())
      const bad = [
        'garbage',
        '',
        Buffer.from('123.nothex').toString('base64url'),
        Buffer.from(`abc.${UNKNOWN_ID}`).toString('base64url'),
        Buffer.from(`1.${UNKNOWN_ID}.1`).toString('base64url'),
      ]
      for (const cursor of bad) {
        await expect(t.store.wumpuses.list({ limit: 5, cursor })).rejects.toBeInstanceOf(InvalidCursorError)
      }
      // A well-formed cursor past every record is a valid, empty page.
      const past = encodeCursor({ rank: 0, time: 0, id: UNKNOWN_ID }, 'new')
      expect(await t.store.wumpuses.list({ limit: 5, cursor: past })).toEqual({ items: [], total: 1 })
    })
  })
}

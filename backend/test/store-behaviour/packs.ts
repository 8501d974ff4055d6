import { describe, expect, it } from 'vitest'
import { InvalidCursorError, type NewPack, type PackRecord } from '../../src/store/port'
import { MALFORMED_IDS, sampleWumpus, type StoreInUse, UNKNOWN_ID } from './samples'

/** The packs repository. */
export function describePackBehaviour(t: StoreInUse): void {
  describe('packs', () => {
    const newPack = (wumpusIds: string[], overrides: Partial<NewPack> = {}): NewPack => ({
      name: 'Cheerful Wumpuses',
      description: 'Happy ones',
      wumpusIds,
      createdBy: 'boss@example.com',
      ...overrides,
    })
    const personalPack = (wumpusIds: string[], owner: string, visibility: 'link' | 'private', overrides: Partial<NewPack> = {}) => ({
      ...newPack(wumpusIds, { ...overrides, createdBy: owner }),
      visibility,
    })

    it('stores packs with their order and lists them newest first across pages', async () => {
      const w = await Promise.all([0, 1, 2].map(() => t.store.wumpuses.insert(sampleWumpus())))
      const ids = w.map((record) => record._id)
      const before = Date.now()
      const first = await t.store.packs.insert(newPack([ids[2]!, ids[0]!, ids[1]!]))
      expect(first).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'Cheerful Wumpuses',
        description: 'Happy ones',
        coverWumpusId: ids[2],
        wumpusIds: [ids[2], ids[0], ids[1]],
        visibility: 'public',
        createdBy: 'boss@example.com',
        editedAt: {
          name: first.createdAt,
          description: first.createdAt,
          wumpusIds: first.createdAt,
          coverWumpusId: first.createdAt,
          visibility: first.createdAt,
        },
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      })
      expect(first.createdAt.getTime()).toBeGreaterThanOrEqual(before)
      expect(await t.store.packs.get(first.id)).toEqual(first)
      const made = [first]
      for (let i = 0; i < 4; i++) {
        while (Date.now() <= made.at(-1)!.createdAt.getTime()) await new Promise((resolve) => setImmediate(resolve))
        made.push(await t.store.packs.insert(newPack([ids[i % 3]!], { name: `Pack ${i}`, coverWumpusId: ids[i % 3] })))
      }
      // A given creation time (seeding) places the pack in the order by it.
      const older = await t.store.packs.insert(newPack([ids[0]!], { createdAt: new Date(first.createdAt.getTime() - 60_000) }))
      expect(older.createdAt).toEqual(new Date(first.createdAt.getTime() - 60_000))
      made.unshift(older)
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await t.store.packs.list({ limit: 2, cursor })
        expect(page.total).toBe(6)
        seen.push(...page.items.map((pack) => pack.id))
        cursor = page.nextCursor
      } while (cursor)
      expect(seen).toEqual(made.map((pack) => pack.id).reverse())
      await expect(t.store.packs.list({ limit: 2, cursor: 'bad cursor' })).rejects.toBeInstanceOf(InvalidCursorError)
      for (const id of MALFORMED_IDS) expect(await t.store.packs.get(id)).toBeUndefined()
      expect(await t.store.packs.get(UNKNOWN_ID)).toBeUndefined()

      const reopened = await t.subject.reopen()
      expect(await reopened.packs.get(first.id)).toEqual(first)
      expect((await reopened.packs.list({ limit: 10 })).items.map((pack) => pack.id)).toEqual(seen)
      expect(await reopened.packs.delete(made[1]!.id)).toBe(1)
      expect(await reopened.packs.delete(made[1]!.id)).toBe(0)
      expect(await reopened.packs.delete('nope')).toBe(0)
      expect((await reopened.packs.list({ limit: 10 })).total).toBe(5)
    })

    it('keeps the cover among the stickers: the chosen one, else the first', async () => {
      const ids = (await Promise.all([0, 1, 2].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      const pack = await t.store.packs.insert(newPack([ids[0]!, ids[1]!], { coverWumpusId: ids[2] }))
      expect(pack.coverWumpusId).toBe(ids[0])
      const covered = (await t.store.packs.update(pack.id, { coverWumpusId: ids[1] }))!.pack
      expect(covered).toMatchObject({ coverWumpusId: ids[1], wumpusIds: [ids[0], ids[1]], name: 'Cheerful Wumpuses' })
      expect(covered.updatedAt.getTime()).toBeGreaterThanOrEqual(pack.updatedAt.getTime())
      // The cover leaves the pack: the new first takes its place.
      const reordered = await t.store.packs.update(pack.id, { wumpusIds: [ids[2]!, ids[0]!], name: 'Renamed', description: '' })
      expect(reordered).toEqual({
        pack: expect.objectContaining({ coverWumpusId: ids[2], wumpusIds: [ids[2], ids[0]], name: 'Renamed', description: '' }),
        superseded: [],
      })
      expect(await t.store.packs.get(pack.id)).toEqual(reordered!.pack)
      // A chosen cover outside the stickers keeps the stored one.
      expect((await t.store.packs.update(pack.id, { coverWumpusId: ids[1] }))!.pack.coverWumpusId).toBe(ids[2])
      expect(await t.store.packs.update(UNKNOWN_ID, { name: 'Nobody' })).toBeUndefined()
      expect(await t.store.packs.update('nope', { name: 'Nobody' })).toBeUndefined()
    })

    it('lists only public packs; each owner their personal ones, most recently updated first, across pages', async () => {
      const [id] = (await Promise.all([0].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      const shown = await t.store.packs.insert(newPack([id!]))
      const mine: PackRecord[] = []
      for (const [i, visibility] of (['private', 'link', 'private'] as const).entries()) {
        while (Date.now() <= (mine.at(-1)?.updatedAt.getTime() ?? 0)) await new Promise((resolve) => setImmediate(resolve))
        const made = await t.store.packs.insertPersonal(personalPack([id!], 'me@example.com', visibility, { name: `Mine ${i}` }), {
          max: 10,
        })
        expect(made).toMatchObject({ visibility, createdBy: 'me@example.com' })
        if (made !== 'full') mine.push(made)
      }
      const theirs = await t.store.packs.insertPersonal(personalPack([id!], 'them@example.com', 'link'), { max: 10 })
      // The admin's public pack is not among their personal ones.
      await t.store.packs.insert(newPack([id!], { createdBy: 'me@example.com' }))
      const publicPage = await t.store.packs.list({ limit: 10 })
      expect(publicPage.total).toBe(2)
      expect(publicPage.items.every((pack) => pack.visibility === 'public')).toBe(true)
      expect(publicPage.items.map((pack) => pack.id)).toContain(shown.id)

      // An edit moves the pack to the front.
      while (Date.now() <= mine[2]!.updatedAt.getTime()) await new Promise((resolve) => setImmediate(resolve))
      await t.store.packs.update(mine[0]!.id, { name: 'Mine edited' })
      const personalPages = async (owner: string, limit: number) => {
        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await t.store.packs.listPersonal(owner, { limit, cursor })
          expect(page.total).toBe(owner === 'me@example.com' ? 3 : 1)
          seen.push(...page.items.map((pack) => pack.id))
          cursor = page.nextCursor
        } while (cursor)
        return seen
      }
      expect(await personalPages('me@example.com', 2)).toEqual([mine[0]!.id, mine[2]!.id, mine[1]!.id])
      expect(await personalPages('them@example.com', 2)).toEqual([(theirs as PackRecord).id])
      expect(await t.store.packs.listPersonal('nobody@example.com', { limit: 2 })).toEqual({ items: [], total: 0 })
      await expect(t.store.packs.listPersonal('me@example.com', { limit: 2, cursor: 'bad cursor' })).rejects.toBeInstanceOf(
        InvalidCursorError,
      )
      const reopened = await t.subject.reopen()
      expect((await reopened.packs.listPersonal('me@example.com', { limit: 10 })).items.map((pack) => pack.id)).toEqual([
        mine[0]!.id,
        mine[2]!.id,
        mine[1]!.id,
      ])
      expect(await reopened.packs.get(mine[1]!.id)).toEqual(mine[1])
    })

    it('refuses a personal pack past its owner’s cap, counting their personal packs only', async () => {
      const [id] = (await Promise.all([0].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      const personal = (owner: string) => personalPack([id!], owner, 'private')
      await t.store.packs.insert(newPack([id!], { createdBy: 'me@example.com' }))
      expect(await t.store.packs.insertPersonal(personal('me@example.com'), { max: 2 })).toMatchObject({ createdBy: 'me@example.com' })
      expect(await t.store.packs.insertPersonal(personal('me@example.com'), { max: 2 })).toMatchObject({ createdBy: 'me@example.com' })
      expect(await t.store.packs.insertPersonal(personal('me@example.com'), { max: 2 })).toBe('full')
      expect(await t.store.packs.insertPersonal(personal('them@example.com'), { max: 2 })).not.toBe('full')
      expect((await t.store.packs.listPersonal('me@example.com', { limit: 10 })).total).toBe(2)
      const [first] = (await t.store.packs.listPersonal('me@example.com', { limit: 1 })).items
      expect(await t.store.packs.delete(first!.id)).toBe(1)
      expect(await t.store.packs.insertPersonal(personal('me@example.com'), { max: 2 })).not.toBe('full')
    })

    it('keeps the latest edit of each field: an older edit of a field edited since is superseded, its other fields apply', async () => {
      const ids = (await Promise.all([0, 1, 2].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      const made = (await t.store.packs.insertPersonal(personalPack([ids[0]!, ids[1]!], 'me@example.com', 'private'), {
        max: 10,
      })) as PackRecord
      const at = (s: number) => new Date(made.createdAt.getTime() + s * 1000)
      // Edited on a laptop at +10 s...
      const laptop = await t.store.packs.update(made.id, { name: 'Laptop Name', visibility: 'link' }, { editedAt: at(10) })
      expect(laptop!.superseded).toEqual([])
      expect(laptop!.pack).toMatchObject({ name: 'Laptop Name', visibility: 'link' })
      expect(laptop!.pack.editedAt).toMatchObject({ name: at(10), visibility: at(10), description: made.createdAt })
      // ...then a phone's edit made offline at +5 s arrives: its name loses, its stickers and description win.
      const phone = await t.store.packs.update(
        made.id,
        { name: 'Phone Name', description: 'From the phone', wumpusIds: [ids[2]!, ids[0]!], coverWumpusId: ids[2] },
        { editedAt: at(5) },
      )
      expect(phone!.superseded).toEqual(['name'])
      expect(phone!.pack).toMatchObject({
        name: 'Laptop Name',
        description: 'From the phone',
        wumpusIds: [ids[2], ids[0]],
        coverWumpusId: ids[2],
        visibility: 'link',
      })
      expect(phone!.pack.editedAt).toEqual({
        name: at(10),
        description: at(5),
        wumpusIds: at(5),
        coverWumpusId: at(5),
        visibility: at(10),
      })
      expect(await t.store.packs.get(made.id)).toEqual(phone!.pack)
      // An edit at the same time as the stored one applies; one whose every field lost changes nothing.
      const same = await t.store.packs.update(made.id, { name: 'Same Time' }, { editedAt: at(10) })
      expect(same!.pack.name).toBe('Same Time')
      const stale = await t.store.packs.update(made.id, { name: 'Stale', visibility: 'private' }, { editedAt: at(1) })
      expect(stale).toEqual({ pack: await t.store.packs.get(made.id), superseded: ['name', 'visibility'] })
      expect(stale!.pack.updatedAt).toEqual(same!.pack.updatedAt)
      const reopened = await t.subject.reopen()
      expect((await reopened.packs.get(made.id))!.editedAt).toEqual({ ...phone!.pack.editedAt, name: at(10) })
      expect(await reopened.packs.update(UNKNOWN_ID, { name: 'Nobody' }, { editedAt: at(1) })).toBeUndefined()
    })

    it('loses no edit when edits of different fields of one pack race', async () => {
      const ids = (await Promise.all([0, 1].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      const pack = await t.store.packs.insert(newPack([ids[0]!, ids[1]!]))
      const patches = [
        { name: 'Raced Name' },
        { description: 'Raced description' },
        { wumpusIds: [ids[1]!, ids[0]!] },
        { coverWumpusId: ids[1]! },
      ]
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(patches.map((patch) => t.store.packs.update(pack.id, patch)))
        expect(results.every((result) => result!.superseded.length === 0)).toBe(true)
        expect(await t.store.packs.get(pack.id)).toMatchObject({
          name: 'Raced Name',
          description: 'Raced description',
          wumpusIds: [ids[1], ids[0]],
          coverWumpusId: ids[1],
        })
        await t.store.packs.update(pack.id, { name: 'Reset', description: '', wumpusIds: [ids[0]!, ids[1]!], coverWumpusId: ids[0]! })
      }
      // The same field edited at two times (after the resets), sent in any order: the later edit stays.
      const base = Date.now()
      await Promise.all([
        t.store.packs.update(pack.id, { name: 'Later' }, { editedAt: new Date(base + 2000) }),
        t.store.packs.update(pack.id, { name: 'Earlier' }, { editedAt: new Date(base + 1000) }),
      ])
      expect((await t.store.packs.get(pack.id))!.name).toBe('Later')
    })

    it('takes a deleted animation out of every pack; a pack left with none stays, empty', async () => {
      const ids = (await Promise.all([0, 1, 2].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      const both = await t.store.packs.insert(newPack([ids[0]!, ids[1]!, ids[2]!], { coverWumpusId: ids[1] }))
      const only = await t.store.packs.insert(newPack([ids[1]!]))
      const other = await t.store.packs.insert(newPack([ids[2]!]))
      expect(await t.store.wumpuses.delete(ids[1]!)).toBe(1)
      expect(await t.store.packs.get(both.id)).toMatchObject({ wumpusIds: [ids[0], ids[2]], coverWumpusId: ids[0] })
      expect(await t.store.packs.get(only.id)).toMatchObject({ wumpusIds: [], coverWumpusId: null, name: 'Cheerful Wumpuses' })
      expect(await t.store.packs.get(other.id)).toEqual(other)
      const reopened = await t.subject.reopen()
      expect(await reopened.packs.get(both.id)).toMatchObject({ wumpusIds: [ids[0], ids[2]], coverWumpusId: ids[0] })
      expect(await reopened.packs.get(only.id)).toMatchObject({ wumpusIds: [], coverWumpusId: null })
    })
  })
}

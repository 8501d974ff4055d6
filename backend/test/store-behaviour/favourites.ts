import { describe, expect, it } from 'vitest'
import { InvalidCursorError } from '../../src/store/port'
import { sampleWumpus, type StoreInUse, UNKNOWN_ID } from './samples'

/** The favourites repository. */
export function describeFavouriteBehaviour(t: StoreInUse): void {
  describe('favourites', () => {
    const ME = 'fan@example.com'
    const OTHER = 'other-fan@example.com'

    it('adds each favourite once, keeps its first time, and lists them newest favourited first across pages', async () => {
      const ids = (await Promise.all([0, 1, 2, 3].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      const base = Date.now() - 60_000
      // ids[1] and ids[2] share a time: the larger id comes first.
      const times = [base, base + 1000, base + 1000, base + 2000]
      for (const [i, id] of ids.entries()) expect(await t.store.favourites.add(ME, id, { max: 10, at: new Date(times[i]!) })).toBe('added')
      expect(await t.store.favourites.add(ME, ids[0]!, { max: 10, at: new Date(base + 5000) })).toBe('kept')
      expect(await t.store.favourites.add(OTHER, ids[0]!, { max: 10 })).toBe('added')

      const expected = [ids[3]!, ...[ids[1]!, ids[2]!].sort().reverse(), ids[0]!]
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await t.store.favourites.list(ME, { limit: 3, cursor })
        expect(page.total).toBe(4)
        seen.push(...page.items.map((item) => item.wumpusId))
        cursor = page.nextCursor
      } while (cursor)
      expect(seen).toEqual(expected)
      const all = await t.store.favourites.list(ME, { limit: 10 })
      expect(all.items.at(-1)).toEqual({ wumpusId: ids[0], favouritedAt: new Date(base) })
      expect(all.nextCursor).toBeUndefined()
      expect(await t.store.favourites.ids(ME)).toEqual(expected)
      expect(await t.store.favourites.ids(OTHER)).toEqual([ids[0]])
      expect(await t.store.favourites.ids('nobody@example.com')).toEqual([])
      await expect(t.store.favourites.list(ME, { limit: 2, cursor: 'bad cursor' })).rejects.toBeInstanceOf(InvalidCursorError)

      const reopened = await t.subject.reopen()
      expect(await reopened.favourites.ids(ME)).toEqual(expected)
      expect(await reopened.favourites.remove(ME, ids[3]!)).toBe(true)
      expect(await reopened.favourites.remove(ME, ids[3]!)).toBe(false)
      expect(await reopened.favourites.remove(ME, UNKNOWN_ID)).toBe(false)
      expect(await reopened.favourites.ids(ME)).toEqual(expected.slice(1))
      expect(await reopened.favourites.ids(OTHER)).toEqual([ids[0]])
    })

    it('refuses a new favourite at the cap, but still answers one already there', async () => {
      const ids = (await Promise.all([0, 1, 2].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      expect(await t.store.favourites.add(ME, ids[0]!, { max: 2 })).toBe('added')
      expect(await t.store.favourites.add(ME, ids[1]!, { max: 2 })).toBe('added')
      expect(await t.store.favourites.add(ME, ids[2]!, { max: 2 })).toBe('full')
      expect(await t.store.favourites.add(ME, ids[1]!, { max: 2 })).toBe('kept')
      expect(await t.store.favourites.add(OTHER, ids[2]!, { max: 2 })).toBe('added')
      expect((await t.store.favourites.list(ME, { limit: 10 })).total).toBe(2)
    })

    it('forgets a deleted animation in everyone’s favourites', async () => {
      const ids = (await Promise.all([0, 1].map(() => t.store.wumpuses.insert(sampleWumpus())))).map((record) => record._id)
      for (const email of [ME, OTHER]) for (const id of ids) await t.store.favourites.add(email, id, { max: 10 })
      expect(await t.store.wumpuses.delete(ids[0]!)).toBe(1)
      expect(await t.store.favourites.ids(ME)).toEqual([ids[1]])
      expect(await t.store.favourites.ids(OTHER)).toEqual([ids[1]])
      expect((await t.store.favourites.list(ME, { limit: 10 })).total).toBe(1)
      const reopened = await t.subject.reopen()
      expect(await reopened.favourites.ids(OTHER)).toEqual([ids[1]])
    })
  })
}

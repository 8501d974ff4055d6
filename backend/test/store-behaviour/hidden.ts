import { describe, expect, it } from 'vitest'
import { PLATFORMS } from '../../../contract/stickers'
import type { HiddenInfo, WumpusRecord } from '../../src/store/port'
import { collectPages, exportsFor, type ListQuery, sampleWumpus, type StoreInUse, UNKNOWN_ID } from './samples'

/** Hidden animations (a report's `hide` decision) in the animations repository: out of every list, count and search, like a remix. */
export function describeHiddenBehaviour(t: StoreInUse): void {
  describe('hidden animations', () => {
    const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
    const by = 'admin@example.com'
    const hiding = (): HiddenInfo => ({ at: new Date(Date.UTC(2026, 11, 3, 12, 0, 0)), by })

    /** An animation with tags, emoji, words, an uploader and ready exports, so it shows in every list. */
    const listed = async (name: string, tags: string[]) => {
      const record = await t.store.wumpuses.insert(
        sampleWumpus({ name, tags, emoji: [wave], keywords: ['stripes'], u_email: 'hider@example.com' }),
      )
      await t.store.wumpuses.addDownloads(new Map([[record._id, 3]]))
      return (await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, exportsFor(record.files.lottie.id, PLATFORMS)))!
    }
    const queries: ListQuery[] = [
      {},
      { sort: 'popular' },
      { u_email: 'hider@example.com' },
      { u_email: 'hider@example.com', sort: 'popular' },
      { tag: 'party' },
      { tag: 'party', sort: 'popular' },
      { fits: 'discord' },
      { q: 'zebra' },
      { q: 'zeb', sort: 'new' },
      { q: 'zebra', sort: 'popular' },
      { q: 'stripes', tag: 'party' },
      { q: '👋' },
    ]
    /** Every query's ids and first total, after reading them all once (so kept pages, totals and counts are warm). */
    const everything = async () => {
      const lists = []
      for (const query of queries) {
        const { ids, totals } = await collectPages(t.store, 1, query)
        lists.push({ query: JSON.stringify(query), ids: [...ids].sort(), total: totals[0] })
      }
      return {
        lists,
        count: await t.store.wumpuses.count(),
        tags: await t.store.wumpuses.listTags(),
        emoji: await t.store.wumpuses.listEmoji(),
      }
    }
    const only = (records: WumpusRecord[]) =>
      queries.map((query) => {
        const ids = records.map((r) => r._id).sort()
        return { query: JSON.stringify(query), ids, total: ids.length }
      })

    it('takes a hidden original out of every list, count, search, tag and emoji count at once, and shows it again on restore', async () => {
      const kept = await listed('Zebra Moon', ['party'])
      const hidden = await listed('Zebra Sun', ['party', 'solo'])
      expect((await everything()).lists).toEqual(only([kept, hidden]))
      const revision = t.store.wumpuses.revision()

      const set = await t.store.wumpuses.setHidden(hidden._id, hiding())
      expect(set).toEqual({ ...hidden, hidden: hiding() })
      expect(t.store.wumpuses.revision()).toBeGreaterThan(revision)
      expect(await t.store.wumpuses.get(hidden._id)).toEqual(set)
      const whileHidden = {
        lists: only([kept]),
        count: 1,
        tags: [{ tag: 'party', count: 1 }],
        emoji: [{ char: wave.char, count: 1 }],
      }
      expect(await everything()).toEqual(whileHidden)
      // An edit while hidden keeps it out (and the counts right), after a reopen too.
      await t.store.wumpuses.update(hidden._id, { name: 'Zebra Star', tags: ['party', 'night'] })
      t.store = await t.subject.reopen()
      expect(await everything()).toEqual(whileHidden)
      expect((await t.store.wumpuses.get(hidden._id))?.hidden).toEqual(hiding())

      const shown = await t.store.wumpuses.setHidden(hidden._id, null)
      expect(shown?.hidden).toBeUndefined()
      expect((await t.store.wumpuses.get(hidden._id))?.hidden).toBeUndefined()
      const back = await everything()
      expect(back.lists).toEqual(only([kept, hidden]))
      expect(back.count).toBe(2)
      expect(back.tags).toEqual([
        { tag: 'party', count: 2 },
        { tag: 'night', count: 1 },
      ])
      expect(back.emoji).toEqual([{ char: wave.char, count: 2 }])
    })

    it('deletes a hidden original leaving the counts of the others as they were', async () => {
      const kept = await listed('Zebra Moon', ['party'])
      const hidden = await listed('Zebra Sun', ['party', 'solo'])
      await t.store.wumpuses.setHidden(hidden._id, hiding())
      expect(await t.store.wumpuses.delete(hidden._id)).toBe(1)
      expect(await everything()).toEqual({
        lists: only([kept]),
        count: 1,
        tags: [{ tag: 'party', count: 1 }],
        emoji: [{ char: wave.char, count: 1 }],
      })
    })

    it('hides and shows a remix without putting it in any list', async () => {
      const original = await listed('Zebra Moon', ['party'])
      const remix = await t.store.wumpuses.insertRemix(
        {
          ...sampleWumpus({ name: 'Zebra Moon', tags: ['party'], u_email: 'hider@example.com' }),
          remix: { of: original._id, recipe: { speed: 2 }, source: original.files.lottie.id, visibility: 'link' },
        },
        { max: 5 },
      )
      if (remix === 'full') throw new Error('Full')
      expect(await t.store.wumpuses.setHidden(remix._id, hiding())).toEqual({ ...remix, hidden: hiding() })
      expect((await t.store.wumpuses.listRemixes({ of: original._id, limit: 5 })).items.map((r) => r._id)).toEqual([remix._id])
      // Its owner's list leaves it out when asked to (total too); shown again, it is back.
      const owned = async () => {
        const page = await t.store.wumpuses.listRemixes({ owner: 'hider@example.com', withoutHidden: true, limit: 5 })
        return { ids: page.items.map((r) => r._id), total: page.total }
      }
      expect(await owned()).toEqual({ ids: [], total: 0 })
      expect((await t.store.wumpuses.listRemixes({ owner: 'hider@example.com', limit: 5 })).total).toBe(1)
      expect((await t.store.wumpuses.setHidden(remix._id, null))?.hidden).toBeUndefined()
      expect(await owned()).toEqual({ ids: [remix._id], total: 1 })
      expect(await everything()).toMatchObject({ lists: only([original]), count: 1 })
    })

    it('answers undefined for an unknown or malformed id', async () => {
      expect(await t.store.wumpuses.setHidden(UNKNOWN_ID, hiding())).toBeUndefined()
      expect(await t.store.wumpuses.setHidden('nope', null)).toBeUndefined()
    })
  })
}

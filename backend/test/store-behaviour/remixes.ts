import { describe, expect, it } from 'vitest'
import { PLATFORMS } from '../../../contract/stickers'
import { encodeCursor } from '../../src/store/list-order'
import {
  FileInUseError,
  InvalidCursorError,
  type ListRemixesOptions,
  type NewWumpus,
  type PackRecord,
  type RemixInfo,
  type WumpusRecord,
} from '../../src/store/port'
import {
  collectPages,
  exportsFor,
  fileIds,
  inUse,
  type ListQuery,
  MALFORMED_IDS,
  newestFirst,
  sampleFiles,
  sampleWumpus,
  type StoreInUse,
  UNKNOWN_ID,
} from './samples'

/** Remixes in the animations repository. */
export function describeRemixBehaviour(t: StoreInUse): void {
  describe('remixes', () => {
    const recipe = { colours: { '8c9eff': '#e0457b' }, caption: { text: 'Hi', position: 'top' as const }, speed: 1.5 }
    const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
    /** An original with tags, emoji, words, an uploader and ready exports, so that a remix like it would show wherever it does. */
    const listedOriginal = async () => {
      const original = await t.store.wumpuses.insert(
        sampleWumpus({ name: 'Zebra Moon', tags: ['party'], emoji: [wave], keywords: ['stripes'], u_email: 'remixer@example.com' }),
      )
      return (await t.store.wumpuses.setDerived(original._id, original.files.lottie.id, exportsFor(original.files.lottie.id, PLATFORMS)))!
    }
    /** A remix of `of` carrying the same tags, emoji, words and uploader. */
    const remixOf = (of: WumpusRecord, overrides: Partial<NewWumpus> = {}): NewWumpus & { remix: RemixInfo } => ({
      ...sampleWumpus({
        name: of.name,
        description: of.description,
        tags: of.tags,
        emoji: of.emoji,
        keywords: of.keywords,
        u_email: of.u_email,
        ...overrides,
      }),
      remix: { of: of._id, recipe: structuredClone(recipe), source: of.files.lottie.id, visibility: 'private' },
    })
    const insertRemix = async (remix: NewWumpus & { remix: RemixInfo }, max = 50) => {
      const made = await t.store.wumpuses.insertRemix(remix, { max })
      if (made === 'full') throw new Error('Full')
      return made
    }
    const allRemixes = async (options: Omit<ListRemixesOptions, 'limit' | 'cursor'>, limit: number) => {
      const ids: string[] = []
      const totals: number[] = []
      let cursor: string | undefined
      do {
        const page = await t.store.wumpuses.listRemixes({ ...options, limit, cursor })
        expect(page.items.length).toBeLessThanOrEqual(limit)
        ids.push(...page.items.map((item) => item._id))
        totals.push(page.total)
        cursor = page.nextCursor
      } while (cursor)
      return { ids, totals }
    }

    it('stores a remix with its own copy of the recipe, and reads it back like any record, after a reopen too', async () => {
      const original = await t.store.wumpuses.insert(sampleWumpus())
      const input = remixOf(original, { u_email: 'me@example.com' })
      const remix = await insertRemix(input)
      expect(remix).toMatchObject({ ...input, downloads: 0 })
      input.remix.recipe.colours!['8c9eff'] = '#000000'
      input.remix.recipe.caption!.text = 'Changed'
      const read = await t.store.wumpuses.get(remix._id)
      expect(read).toEqual(remix)
      // insertRemix is the one way in (it keeps the cap), and takes remixes only.
      await expect(t.store.wumpuses.insert(remixOf(original))).rejects.toThrow(Error)
      await expect(t.store.wumpuses.insertRemix(sampleWumpus() as NewWumpus & { remix: RemixInfo }, { max: 50 })).rejects.toThrow(Error)
      expect((await t.store.wumpuses.listRemixes({ of: original._id, limit: 5 })).total).toBe(1)
      expect(read!.remix).toEqual({ of: original._id, recipe, source: original.files.lottie.id, visibility: 'private' })
      expect((await t.store.wumpuses.get(original._id))!.remix).toBeUndefined()
      t.store = await t.subject.reopen()
      expect(await t.store.wumpuses.get(remix._id)).toEqual(remix)
    })

    it('never shows a remix in a list, count, search, tag or emoji count, whatever it carries', async () => {
      const original = await listedOriginal()
      const remix = await insertRemix(remixOf(original))
      await t.store.wumpuses.setDerived(remix._id, remix.files.lottie.id, exportsFor(remix.files.lottie.id, PLATFORMS))
      await t.store.wumpuses.addDownloads(new Map([[remix._id, 5]]))
      await t.store.wumpuses.update(remix._id, { name: 'Zebra Star', tags: ['party', 'night'] })
      const queries: ListQuery[] = [
        {},
        { sort: 'popular' },
        { u_email: original.u_email },
        { u_email: original.u_email, sort: 'popular' },
        { tag: 'party' },
        { tag: 'party', sort: 'popular' },
        { tag: 'night' },
        { fits: 'discord' },
        { fits: 'slack', sort: 'popular' },
        { q: 'zebra' },
        { q: 'zeb', sort: 'new' },
        { q: 'zebra', sort: 'popular' },
        { q: 'stripes', tag: 'party' },
        { q: 'star' },
        { q: '👋' },
        { q: 'zebra', u_email: original.u_email, fits: 'telegram' },
      ]
      for (const query of queries) {
        const { ids, totals } = await collectPages(t.store, 1, query)
        const expected = query.tag === 'night' || query.q === 'star' ? [] : [original._id]
        expect(ids, JSON.stringify(query)).toEqual(expected)
        expect(totals[0], JSON.stringify(query)).toBe(expected.length)
      }
      expect(await t.store.wumpuses.count()).toBe(1)
      expect(await t.store.wumpuses.listTags()).toEqual([{ tag: 'party', count: 1 }])
      expect(await t.store.wumpuses.listEmoji()).toEqual([{ char: wave.char, count: 1 }])
      t.store = await t.subject.reopen()
      expect((await collectPages(t.store, 5, {})).ids).toEqual([original._id])
      expect((await collectPages(t.store, 5, { q: 'zebra' })).ids).toEqual([original._id])
      expect(await t.store.wumpuses.count()).toBe(1)
      // Removing the remix leaves the original's counts as they were.
      await t.store.wumpuses.delete(remix._id)
      expect(await t.store.wumpuses.listTags()).toEqual([{ tag: 'party', count: 1 }])
      expect(await t.store.wumpuses.listEmoji()).toEqual([{ char: wave.char, count: 1 }])
    })

    it('leaves the revision (what public caches key on) alone on every remix write: made, edited, shared, rendered, deleted', async () => {
      const original = await listedOriginal()
      const revision = t.store.wumpuses.revision()
      const remix = await insertRemix(remixOf(original))
      await t.store.wumpuses.update(remix._id, { name: 'Zebra Star', tags: ['night'] })
      await t.store.wumpuses.update(remix._id, { description: 'Mine now' })
      await t.store.wumpuses.update(remix._id, { remix: { ...remix.remix!, visibility: 'link' } })
      await t.store.wumpuses.setDerived(remix._id, remix.files.lottie.id, exportsFor(remix.files.lottie.id, PLATFORMS))
      await t.store.wumpuses.update(remix._id, { files: sampleFiles() })
      expect(await t.store.wumpuses.delete(remix._id)).toBe(1)
      expect(t.store.wumpuses.revision()).toBe(revision)
      // An original's write still moves it.
      await t.store.wumpuses.update(original._id, { description: 'Edited' })
      expect(t.store.wumpuses.revision()).toBeGreaterThan(revision)
    })

    it('lists remixes by owner and by original, newest first and paged, and counts those of an original', async () => {
      const [a, b] = await Promise.all([t.store.wumpuses.insert(sampleWumpus()), t.store.wumpuses.insert(sampleWumpus())])
      const remixes: WumpusRecord[] = []
      for (let i = 0; i < 7; i++) {
        // Pairs share a creation time: the id decides.
        const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 2)))
        const owner = i % 3 === 0 ? 'me@example.com' : 'them@example.com'
        remixes.push(await insertRemix(remixOf(i < 4 ? a : b, { u_email: owner, createdAt })))
      }
      const expectRemixes = async (options: Omit<ListRemixesOptions, 'limit' | 'cursor'>, chosen: WumpusRecord[]) => {
        for (const limit of [1, 2, 10]) {
          const { ids, totals } = await allRemixes(options, limit)
          expect(ids).toEqual(newestFirst(chosen))
          expect(new Set(totals)).toEqual(new Set([chosen.length]))
        }
      }
      await expectRemixes(
        { owner: 'me@example.com' },
        remixes.filter((r) => r.u_email === 'me@example.com'),
      )
      await expectRemixes(
        { owner: 'them@example.com' },
        remixes.filter((r) => r.u_email === 'them@example.com'),
      )
      await expectRemixes({ of: a._id }, remixes.slice(0, 4))
      await expectRemixes(
        { of: b._id, owner: 'them@example.com' },
        remixes.slice(4).filter((r) => r.u_email === 'them@example.com'),
      )
      await expectRemixes({ owner: 'nobody@example.com' }, [])
      await expectRemixes({ of: UNKNOWN_ID }, [])
      // An uploader's originals are not their remixes.
      await expectRemixes({ owner: 'maker@example.com' }, [])
      expect(await t.store.wumpuses.countRemixes(a._id)).toBe(4)
      expect(await t.store.wumpuses.countRemixes(b._id)).toBe(3)
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await t.store.wumpuses.countRemixes(id)).toBe(0)
      for (const cursor of ['nope', encodeCursor({ rank: 3, time: 1, id: UNKNOWN_ID }, 'popular')]) {
        await expect(t.store.wumpuses.listRemixes({ owner: 'me@example.com', limit: 2, cursor })).rejects.toBeInstanceOf(InvalidCursorError)
      }
    })

    it('refuses a remix when its owner has max already, and takes one again after a removal', async () => {
      const original = await t.store.wumpuses.insert(sampleWumpus())
      const mine = () => remixOf(original, { u_email: 'me@example.com' })
      const first = await insertRemix(mine(), 2)
      await insertRemix(mine(), 2)
      const refused = mine()
      expect(await t.store.wumpuses.insertRemix(refused, { max: 2 })).toBe('full')
      // Nothing of the refused one was kept: its files are free.
      expect(await inUse(t.store, fileIds(refused.files))).toEqual([false, false, false])
      expect(await t.store.wumpuses.insertRemix(remixOf(original, { u_email: 'them@example.com' }), { max: 2 })).not.toBe('full')
      // Originals do not count.
      await t.store.wumpuses.insert(sampleWumpus({ u_email: 'me@example.com' }))
      expect(await t.store.wumpuses.delete(first._id)).toBe(1)
      expect(await t.store.wumpuses.insertRemix(refused, { max: 2 })).not.toBe('full')
      expect(await t.store.wumpuses.insertRemix(mine(), { max: 2 })).toBe('full')
      expect((await t.store.wumpuses.listRemixes({ owner: 'me@example.com', limit: 10 })).total).toBe(2)
    })

    it('never passes max, however many inserts race', async () => {
      const original = await t.store.wumpuses.insert(sampleWumpus())
      const max = 4
      const made = await Promise.all(
        Array.from({ length: max + 3 }, () => t.store.wumpuses.insertRemix(remixOf(original, { u_email: 'me@example.com' }), { max })),
      )
      expect(made.filter((result) => result === 'full')).toHaveLength(3)
      const page = await t.store.wumpuses.listRemixes({ owner: 'me@example.com', limit: 10 })
      expect(page.total).toBe(max)
      expect(page.items.map((r) => r._id).sort()).toEqual(made.flatMap((r) => (r === 'full' ? [] : [r._id])).sort())
    })

    it("changes a remix's source and sharing, and never turns an original into a remix or a remix into another's", async () => {
      const original = await listedOriginal()
      const other = await t.store.wumpuses.insert(sampleWumpus())
      const remix = await insertRemix(remixOf(original))
      const files = sampleFiles()
      const shared = { ...remix.remix!, source: UNKNOWN_ID, visibility: 'link' as const }
      const updated = await t.store.wumpuses.update(remix._id, { remix: shared, files, tags: ['party', 'night'] })
      expect(updated).toMatchObject({ remix: shared, files, tags: ['party', 'night'] })
      expect(await t.store.wumpuses.get(remix._id)).toEqual(updated)
      expect((await t.store.wumpuses.update(remix._id, { name: 'Renamed' }))!.remix).toEqual(shared)
      expect((await collectPages(t.store, 5, {})).ids).not.toContain(remix._id)
      expect((await collectPages(t.store, 5, { tag: 'night' })).ids).toEqual([])
      await expect(t.store.wumpuses.update(original._id, { remix: shared })).rejects.toThrow(Error)
      await expect(t.store.wumpuses.update(remix._id, { remix: { ...shared, of: other._id } })).rejects.toThrow(Error)
      expect((await t.store.wumpuses.get(original._id))!.remix).toBeUndefined()
      expect((await t.store.wumpuses.get(remix._id))!.remix).toEqual(shared)
      expect(await t.store.wumpuses.countRemixes(other._id)).toBe(0)
      expect((await collectPages(t.store, 5, {})).ids).toEqual(newestFirst([original, other]))
    })

    it("keeps a remix's key generation through its writes and a reopen (absent on a remix never renewed)", async () => {
      const original = await listedOriginal()
      const remix = await insertRemix(remixOf(original))
      expect(remix.remix!.keyGeneration).toBeUndefined()
      const renewed = { ...remix.remix!, keyGeneration: 2 }
      expect((await t.store.wumpuses.update(remix._id, { remix: renewed }, { whileFiles: remix.files }))!.remix).toEqual(renewed)
      expect((await t.store.wumpuses.update(remix._id, { name: 'Renamed' }))!.remix).toEqual(renewed)
      t.store = await t.subject.reopen()
      expect((await t.store.wumpuses.get(remix._id))!.remix).toEqual(renewed)
      expect((await t.store.wumpuses.listRemixes({ owner: remix.u_email, limit: 5 })).items[0]!.remix).toEqual(renewed)
    })

    it('keeps remixes in packs and favourites, claims their files, and removes them from all of it', async () => {
      const original = await t.store.wumpuses.insert(sampleWumpus())
      const remix = await insertRemix(remixOf(original, { u_email: 'me@example.com' }))
      expect(await t.store.wumpuses.findByFile(remix.files.apng.id)).toBe(remix._id)
      await expect(t.store.wumpuses.insert(sampleWumpus({ files: remix.files }))).rejects.toBeInstanceOf(FileInUseError)
      const pack = await t.store.packs.insertPersonal(
        { name: 'Mine', description: '', wumpusIds: [remix._id, original._id], createdBy: 'me@example.com', visibility: 'private' },
        { max: 10 },
      )
      expect(pack).toMatchObject({ wumpusIds: [remix._id, original._id], coverWumpusId: remix._id })
      expect(await t.store.favourites.add('me@example.com', remix._id, { max: 10 })).toBe('added')
      expect(await t.store.favourites.ids('me@example.com')).toEqual([remix._id])

      expect(await t.store.wumpuses.delete(remix._id)).toBe(1)
      expect(await t.store.wumpuses.get(remix._id)).toBeUndefined()
      expect((await t.store.wumpuses.listRemixes({ owner: 'me@example.com', limit: 5 })).items).toEqual([])
      expect(await t.store.wumpuses.countRemixes(original._id)).toBe(0)
      expect(await t.store.packs.get((pack as PackRecord).id)).toMatchObject({ wumpusIds: [original._id], coverWumpusId: original._id })
      expect(await t.store.favourites.ids('me@example.com')).toEqual([])
      expect(await inUse(t.store, fileIds(remix.files))).toEqual([false, false, false])
    })

    it('makes a remix without derived media a render job, and sets its media like any record', async () => {
      const original = await t.store.wumpuses.insert(sampleWumpus())
      await t.store.wumpuses.setDerived(original._id, original.files.lottie.id, exportsFor(original.files.lottie.id, []))
      const remix = await insertRemix(remixOf(original))
      const now = new Date()
      const job = await t.store.renderJobs.claim({ owner: 'a', version: 1, leaseMs: 60_000, now })
      expect(job?.record).toEqual(remix)
      const derived = exportsFor(remix.files.lottie.id, ['discord'])
      const done = await t.store.wumpuses.setDerived(remix._id, remix.files.lottie.id, derived, { leaseOwner: 'a' })
      expect(done).toMatchObject({ derived, remix: remix.remix })
      expect(await t.store.renderJobs.release(job!)).toBe(true)
      expect(await t.store.renderJobs.claim({ owner: 'b', version: 1, leaseMs: 60_000, now })).toBeUndefined()
      expect(await t.store.wumpuses.findByFile(derived.exports.find((e) => e.file)!.file!.id)).toBe(remix._id)
      expect((await collectPages(t.store, 5, { fits: 'discord' })).ids).toEqual([])
    })
  })
}

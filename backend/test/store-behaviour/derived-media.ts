import { describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import type { Platform } from '../../../contract/stickers'
import type { DerivedMedia, WumpusRecord } from '../../src/store/port'
import {
  collectPages,
  exportsFor,
  inUse,
  type ListQuery,
  MALFORMED_IDS,
  newestFirst,
  sampleFiles,
  sampleWumpus,
  type StoreInUse,
  UNKNOWN_ID,
} from './samples'

/** Derived media on the animations' records. */
export function describeDerivedMediaBehaviour(t: StoreInUse): void {
  describe('derived media', () => {
    const derivedFor = (lottieId: string): DerivedMedia => {
      const file = (n: number) => ({
        id: `${randomBytes(10).toString('hex')}${String(n).padStart(4, '0')}`,
        filename: `w.${n}.webp`,
        contentType: 'image/webp',
        bytes: 1000 + n,
        width: 300,
        height: 300,
        frames: 40,
        durationMs: 2000,
      })
      return {
        source: lottieId,
        version: 1,
        madeAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
        previews: { small: file(1), large: file(2), still: { ...file(3), frames: 1, durationMs: 0 } },
        exports: [
          { platform: 'discord', file: { ...file(4), contentType: 'image/apng' }, notes: [] },
          { platform: 'telegram', notes: ['The animation runs 4 s; Telegram allows 3 s'] },
        ],
      }
    }
    const idsOf = (d: DerivedMedia) => [d.previews!.small.id, d.previews!.large.id, d.previews!.still.id, d.exports[0]!.file!.id]

    it('sets it only while the Lottie is the given one, reads it back everywhere, and keeps updatedAt', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const derived = derivedFor(record.files.lottie.id)
      const revision = t.store.wumpuses.revision()
      expect(await t.store.wumpuses.setDerived(record._id, UNKNOWN_ID, derived)).toBeUndefined()
      expect(t.store.wumpuses.revision()).toBe(revision)
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
        expect(await t.store.wumpuses.setDerived(id, record.files.lottie.id, derived)).toBeUndefined()
      }

      const updated = await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, {
        ...derived,
        extra: 'dropped',
      } as DerivedMedia)
      expect(updated).toEqual({ ...record, derived })
      expect(t.store.wumpuses.revision()).toBeGreaterThan(revision)
      expect(await t.store.wumpuses.get(record._id)).toEqual({ ...record, derived })
      expect((await t.store.wumpuses.list({ limit: 10 })).items).toEqual([{ ...record, derived }])
      // Other writes keep it.
      expect((await t.store.wumpuses.update(record._id, { name: 'Renamed' }))?.derived).toEqual(derived)
    })

    it('removes it with null, and its files count as in use only while it is there', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const derived = derivedFor(record.files.lottie.id)
      expect(await inUse(t.store, idsOf(derived))).toEqual([false, false, false, false])
      await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, derived)
      expect(await inUse(t.store, idsOf(derived))).toEqual([true, true, true, true])
      const next = derivedFor(record.files.lottie.id)
      await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, next)
      expect(await inUse(t.store, [...idsOf(derived), ...idsOf(next)])).toEqual([false, false, false, false, true, true, true, true])
      const cleared = await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, null)
      expect(cleared).toBeDefined()
      expect(cleared!.derived).toBeUndefined()
      expect(await inUse(t.store, idsOf(next))).toEqual([false, false, false, false])

      await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, next)
      await t.store.wumpuses.delete(record._id)
      expect(await inUse(t.store, idsOf(next))).toEqual([false, false, false, false])
    })

    it('is refused once the Lottie was replaced', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const { lottie } = sampleFiles()
      await t.store.wumpuses.update(record._id, { files: { ...record.files, lottie } })
      expect(await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, derivedFor(record.files.lottie.id))).toBeUndefined()
      expect(await t.store.wumpuses.setDerived(record._id, lottie.id, derivedFor(lottie.id))).toMatchObject({
        derived: { source: lottie.id },
      })
    })

    it('filters by a platform with a ready export, following new exports and a replaced Lottie, with tag, words and paging', async () => {
      const lists = async (query: ListQuery) => (await collectPages(t.store, 2, query)).ids
      const records: WumpusRecord[] = []
      for (let i = 0; i < 7; i++) {
        const createdAt = new Date(Date.UTC(2025, 3, 1, 0, 0, i))
        const name = `Moon ${['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'][i]}`
        records.push(await t.store.wumpuses.insert(sampleWumpus({ name, tags: i % 2 ? ['night'] : [], createdAt })))
      }
      expect(await t.store.wumpuses.list({ limit: 5, fits: 'discord' })).toEqual({ items: [], total: 0 })
      for (const [i, record] of records.entries()) {
        const ready: Platform[] = i < 5 ? ['discord', 'signal'] : ['telegram']
        const revision = t.store.wumpuses.revision()
        await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, exportsFor(record.files.lottie.id, ready))
        // Lists (and the pages cached by revision) follow new exports.
        expect(t.store.wumpuses.revision()).toBeGreaterThan(revision)
      }
      const newest = newestFirst(records)
      const discord = newest.filter((id) => records.findIndex((r) => r._id === id) < 5)
      expect(await lists({ fits: 'discord' })).toEqual(discord)
      expect((await t.store.wumpuses.list({ limit: 2, fits: 'discord' })).total).toBe(5)
      expect(await lists({ fits: 'telegram' })).toEqual(newest.filter((id) => !discord.includes(id)))
      expect(await t.store.wumpuses.list({ limit: 5, fits: 'slack' })).toEqual({ items: [], total: 0 })
      const night = discord.filter((id) => records.find((r) => r._id === id)!.tags.length > 0)
      expect(await lists({ fits: 'discord', tag: 'night' })).toEqual(night)
      expect(await lists({ fits: 'signal', q: 'moon delta' })).toEqual([records[3]!._id])
      await t.store.wumpuses.addDownloads(new Map([[records[0]!._id, 2]]))
      expect((await lists({ fits: 'discord', sort: 'popular' }))[0]).toBe(records[0]!._id)

      // A new Lottie: its old exports fit nothing until new ones are made; cleared ones neither.
      const { lottie } = sampleFiles()
      await t.store.wumpuses.update(records[1]!._id, { files: { ...records[1]!.files, lottie } })
      await t.store.wumpuses.setDerived(records[2]!._id, records[2]!.files.lottie.id, null)
      expect(await lists({ fits: 'discord' })).toEqual(discord.filter((id) => id !== records[1]!._id && id !== records[2]!._id))
      await t.store.wumpuses.setDerived(records[1]!._id, lottie.id, exportsFor(lottie.id, ['discord']))
      expect(await lists({ fits: 'discord' })).toContain(records[1]!._id)
      expect(await lists({ fits: 'signal' })).not.toContain(records[1]!._id)
      const reopened = await t.subject.reopen()
      expect((await reopened.wumpuses.list({ limit: 10, fits: 'discord' })).total).toBe(4)
    })

    it('sets a credit with its new Lottie and derived media in one write, only while files and derived media are the ones read', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const withDerived = (await t.store.wumpuses.setDerived(
        record._id,
        record.files.lottie.id,
        exportsFor(record.files.lottie.id, ['telegram']),
      ))!
      const { lottie } = sampleFiles()
      const derived = exportsFor(lottie.id, ['telegram', 'discord'])
      const whileFiles = withDerived.files
      const whileMadeAt = withDerived.derived!.madeAt
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
        expect(await t.store.wumpuses.setCredit(id, { credit: 'Ana', lottie, derived }, { whileFiles, whileMadeAt })).toBeUndefined()
      }
      // Derived media other than those read (or none read while some are there): nothing changes.
      expect(
        await t.store.wumpuses.setCredit(record._id, { credit: 'Ana', lottie, derived }, { whileFiles, whileMadeAt: undefined }),
      ).toBeUndefined()
      const otherTime = new Date(whileMadeAt.getTime() + 1)
      expect(
        await t.store.wumpuses.setCredit(record._id, { credit: 'Ana', lottie, derived }, { whileFiles, whileMadeAt: otherTime }),
      ).toBeUndefined()
      // Other files than those read: nothing changes either.
      const otherFiles = { ...whileFiles, gif: sampleFiles().gif }
      expect(
        await t.store.wumpuses.setCredit(record._id, { credit: 'Ana', lottie, derived }, { whileFiles: otherFiles, whileMadeAt }),
      ).toBeUndefined()
      expect(await t.store.wumpuses.get(record._id)).toEqual(withDerived)

      const revision = t.store.wumpuses.revision()
      const written = await t.store.wumpuses.setCredit(record._id, { credit: 'Ana', lottie, derived }, { whileFiles, whileMadeAt })
      expect(written).toMatchObject({ credit: 'Ana', files: { ...whileFiles, lottie }, derived })
      expect(written!.updatedAt.getTime()).toBeGreaterThanOrEqual(withDerived.updatedAt.getTime())
      expect(t.store.wumpuses.revision()).toBeGreaterThan(revision)
      expect(await t.store.wumpuses.get(record._id)).toEqual(written)
      // The new files are the record's, the replaced ones no longer; its exports fit as the new derived media say.
      expect(await inUse(t.store, [lottie.id, whileFiles.lottie.id, derived.exports[0]!.file!.id])).toEqual([true, false, true])
      expect(
        await inUse(
          t.store,
          withDerived.derived!.exports.flatMap((e) => (e.file ? [e.file.id] : [])),
        ),
      ).toEqual([false])
      expect((await t.store.wumpuses.list({ limit: 5, fits: 'discord' })).items.map((r) => r._id)).toEqual([record._id])
      const reopened = await t.subject.reopen()
      expect(await reopened.wumpuses.get(record._id)).toEqual(written)
    })

    it('sets a credit and a new Lottie on a record without derived media, leaving none', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const { lottie } = sampleFiles()
      const written = await t.store.wumpuses.setCredit(
        record._id,
        { credit: 'Bo', lottie },
        { whileFiles: record.files, whileMadeAt: undefined },
      )
      expect(written).toMatchObject({ credit: 'Bo', files: { ...record.files, lottie } })
      expect(written!.derived).toBeUndefined()
      expect(await t.store.wumpuses.get(record._id)).toEqual(written)
    })

    it('sets a credit only while the credit is still the one read, when asked to', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const options = { whileFiles: record.files, whileMadeAt: undefined }
      // Another edit gave a credit since the record was read: nothing changes.
      const edited = (await t.store.wumpuses.update(record._id, { credit: 'Cy' }))!
      expect(
        await t.store.wumpuses.setCredit(record._id, { credit: '', lottie: sampleFiles().lottie }, { ...options, whileCredit: '' }),
      ).toBe(undefined)
      expect(await t.store.wumpuses.get(record._id)).toEqual(edited)
      const { lottie } = sampleFiles()
      const written = await t.store.wumpuses.setCredit(record._id, { credit: 'Cy', lottie }, { ...options, whileCredit: 'Cy' })
      expect(written).toMatchObject({ credit: 'Cy', files: { ...record.files, lottie } })
      // From no credit to one.
      const other = await t.store.wumpuses.insert(sampleWumpus())
      const next = sampleFiles().lottie
      expect(
        await t.store.wumpuses.setCredit(
          other._id,
          { credit: 'Di', lottie: next },
          { whileFiles: other.files, whileMadeAt: undefined, whileCredit: '' },
        ),
      ).toMatchObject({ credit: 'Di', files: { lottie: next } })
    })

    it('sets a credit with the edit’s other fields in the same write: lists, search and tag counts follow', async () => {
      const record = await t.store.wumpuses.insert({ ...sampleWumpus(), name: 'Plain Name', tags: ['oldtag'] })
      const { lottie } = sampleFiles()
      const fields = { name: 'Brand Moonwalk', tags: ['newtag'], licence: 'CC0-1.0' as const, sensitive: false }
      const written = await t.store.wumpuses.setCredit(
        record._id,
        { credit: 'Ana', lottie, fields },
        { whileFiles: record.files, whileMadeAt: undefined, whileCredit: record.credit },
      )
      expect(written).toMatchObject({ ...fields, credit: 'Ana', files: { ...record.files, lottie } })
      expect(await t.store.wumpuses.get(record._id)).toEqual(written)
      expect((await t.store.wumpuses.list({ limit: 5, q: 'moonwalk' })).items.map((r) => r._id)).toEqual([record._id])
      expect((await t.store.wumpuses.list({ limit: 5, q: 'plain' })).items).toEqual([])
      const tags = await t.store.wumpuses.listTags()
      expect(tags.find((tag) => tag.tag === 'newtag')?.count).toBe(1)
      expect(tags.find((tag) => tag.tag === 'oldtag')).toBeUndefined()
    })

    it('survives close and reopen', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const derived = derivedFor(record.files.lottie.id)
      await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, derived)
      const reopened = await t.subject.reopen()
      expect((await reopened.wumpuses.get(record._id))?.derived).toEqual(derived)
      expect(await inUse(reopened, idsOf(derived))).toEqual([true, true, true, true])
    })
  })
}

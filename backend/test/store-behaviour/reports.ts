import { describe, expect, it } from 'vitest'
import { InvalidCursorError, type NewReport } from '../../src/store/port'
import { sampleWumpus, type StoreInUse } from './samples'

const W1 = { kind: 'wumpus', id: 'aaa000000000000000000001' } as const
const W2 = { kind: 'wumpus', id: 'aaa000000000000000000002' } as const
const P1 = { kind: 'pack', id: 'bbb000000000000000000001' } as const

export function sampleReport(overrides: Partial<NewReport> = {}): NewReport {
  return {
    target: W1,
    reason: 'broken',
    note: 'It stops',
    reporter: 'fan@example.com',
    reporterKey: 'account:fan@example.com',
    ...overrides,
  }
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second))

/** The reports repository: one open report per reporter and target, groups by count then age, deciding a target's open reports. */
export function describeReportBehaviour(t: StoreInUse): void {
  describe('reports', () => {
    it("inserts an open report, and gives back the same reporter's open one against the same target instead of a second", async () => {
      const first = await t.store.reports.insertOpen(sampleReport({ createdAt: at(1) }))
      expect(first.created).toBe(true)
      expect(first.record).toMatchObject({ ...sampleReport(), state: 'open', createdAt: at(1) })
      expect(first.record.id).toMatch(/^[0-9a-f]{24}$/)
      const again = await t.store.reports.insertOpen(sampleReport({ reason: 'spam', note: '' }))
      expect(again).toEqual({ record: first.record, created: false })
      // Another reporter, or another target, makes a new one.
      expect((await t.store.reports.insertOpen(sampleReport({ reporterKey: 'address:x' }))).created).toBe(true)
      expect((await t.store.reports.insertOpen(sampleReport({ target: W2 }))).created).toBe(true)
      t.store = await t.subject.reopen()
      expect(await t.store.reports.insertOpen(sampleReport())).toEqual({ record: first.record, created: false })
    })

    it("keeps one open report when the same reporter's reports against one target arrive at once", async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => t.store.reports.insertOpen(sampleReport())))
      expect(results.filter((r) => r.created)).toHaveLength(1)
      expect(new Set(results.map((r) => r.record.id)).size).toBe(1)
      expect((await t.store.reports.listGroups('open', { limit: 10 })).items[0]!.count).toBe(1)
    })

    it('lists groups with the most reports first, then the oldest, each with its reports oldest first, paged by cursor', async () => {
      await t.store.reports.insertOpen(sampleReport({ target: P1, reporterKey: 'a', createdAt: at(1) }))
      await t.store.reports.insertOpen(sampleReport({ target: W2, reporterKey: 'b', createdAt: at(5) }))
      await t.store.reports.insertOpen(sampleReport({ target: W1, reporterKey: 'c', createdAt: at(4) }))
      await t.store.reports.insertOpen(sampleReport({ target: W2, reporterKey: 'd', createdAt: at(3) }))
      await t.store.reports.insertOpen(sampleReport({ target: W1, reporterKey: 'e', createdAt: at(2), reporter: undefined }))
      const first = await t.store.reports.listGroups('open', { limit: 2 })
      // W1 and W2 have two each; W1's oldest (2 s) is older than W2's (3 s); P1 has one.
      expect(first.items.map((g) => [g.target, g.count, g.oldest])).toEqual([
        [W1, 2, at(2)],
        [W2, 2, at(3)],
      ])
      expect(first.items[0]!.reports.map((r) => r.reporterKey)).toEqual(['e', 'c'])
      expect(first.items[0]!.reports[0]!.reporter).toBeUndefined()
      expect(first.nextCursor).toBeDefined()
      const second = await t.store.reports.listGroups('open', { limit: 2, cursor: first.nextCursor })
      expect(second.items.map((g) => [g.target, g.count])).toEqual([[P1, 1]])
      expect(second.nextCursor).toBeUndefined()
      expect((await t.store.reports.listGroups('decided', { limit: 2 })).items).toEqual([])
      await expect(t.store.reports.listGroups('open', { limit: 2, cursor: 'bm9wZQ' })).rejects.toBeInstanceOf(InvalidCursorError)
    })

    it("decides every open report against one target and nothing else; the reporter's next report is a new open one", async () => {
      await t.store.reports.insertOpen(sampleReport({ reporterKey: 'a', createdAt: at(1) }))
      await t.store.reports.insertOpen(sampleReport({ reporterKey: 'b', createdAt: at(2) }))
      await t.store.reports.insertOpen(sampleReport({ target: W2, reporterKey: 'a', createdAt: at(3) }))
      const decision = { kind: 'dismiss' as const, by: 'admin@example.com', at: at(9), note: 'Plays fine' }
      expect([await t.store.reports.countOpen(W1), await t.store.reports.countOpen(W2), await t.store.reports.countOpen(P1)]).toEqual([
        2, 1, 0,
      ])
      expect(await t.store.reports.decideOpen(W1, decision)).toBe(2)
      expect(await t.store.reports.countOpen(W1)).toBe(0)
      expect(await t.store.reports.decideOpen(W1, decision)).toBe(0)
      t.store = await t.subject.reopen()
      const open = await t.store.reports.listGroups('open', { limit: 10 })
      expect(open.items.map((g) => g.target)).toEqual([W2])
      const decided = await t.store.reports.listGroups('decided', { limit: 10 })
      expect(decided.items).toHaveLength(1)
      expect(decided.items[0]!.reports.map((r) => [r.state, r.decision])).toEqual([
        ['decided', decision],
        ['decided', decision],
      ])
      expect((await t.store.reports.insertOpen(sampleReport({ reporterKey: 'a' }))).created).toBe(true)
    })

    it("lists one state's reports against one target, oldest first", async () => {
      await t.store.reports.insertOpen(sampleReport({ reporterKey: 'b', createdAt: at(2) }))
      await t.store.reports.insertOpen(sampleReport({ reporterKey: 'a', createdAt: at(1), reporter: undefined }))
      await t.store.reports.insertOpen(sampleReport({ target: W2, reporterKey: 'c', createdAt: at(3) }))
      expect((await t.store.reports.listByTarget(W1, 'open')).map((r) => [r.reporterKey, r.reporter])).toEqual([
        ['a', undefined],
        ['b', 'fan@example.com'],
      ])
      expect(await t.store.reports.listByTarget(W1, 'decided')).toEqual([])
      await t.store.reports.decideOpen(W1, { kind: 'dismiss', by: 'admin@example.com', at: at(9), note: '' })
      expect((await t.store.reports.listByTarget(W1, 'decided')).map((r) => r.decision?.at)).toEqual([at(9), at(9)])
      expect(await t.store.reports.listByTarget(P1, 'open')).toEqual([])
    })

    it("counts the open reports against one owner's animations (remixes too), and how many animations they are against", async () => {
      const ann = await t.store.wumpuses.insert(sampleWumpus({ u_email: 'ann@example.com' }))
      const annToo = await t.store.wumpuses.insert(sampleWumpus({ u_email: 'ann@example.com' }))
      const bo = await t.store.wumpuses.insert(sampleWumpus({ u_email: 'bo@example.com' }))
      const annsRemix = await t.store.wumpuses.insertRemix(
        {
          ...sampleWumpus({ u_email: 'ann@example.com' }),
          remix: { of: bo._id, recipe: { colours: {} }, source: bo.files.lottie.id, visibility: 'link' },
        },
        { max: 10 },
      )
      if (annsRemix === 'full') throw new Error('no room for the remix')
      const target = (record: { _id: string }) => ({ kind: 'wumpus', id: record._id }) as const
      expect(await t.store.reports.countOpenAgainstOwner('ann@example.com')).toEqual({ open: 0, stickers: 0 })
      await t.store.reports.insertOpen(sampleReport({ target: target(ann), reporterKey: 'a' }))
      await t.store.reports.insertOpen(sampleReport({ target: target(ann), reporterKey: 'b' }))
      await t.store.reports.insertOpen(sampleReport({ target: target(annToo), reporterKey: 'a' }))
      await t.store.reports.insertOpen(sampleReport({ target: target(bo), reporterKey: 'a' }))
      await t.store.reports.insertOpen(sampleReport({ target: target(annsRemix), reporterKey: 'a' }))
      // A pack with an animation's id is not that animation.
      await t.store.reports.insertOpen(sampleReport({ target: { kind: 'pack', id: annToo._id }, reporterKey: 'c' }))
      expect(await t.store.reports.countOpenAgainstOwner('ann@example.com')).toEqual({ open: 4, stickers: 3 })
      expect(await t.store.reports.countOpenAgainstOwner('bo@example.com')).toEqual({ open: 1, stickers: 1 })
      expect(await t.store.reports.countOpenAgainstOwner('nobody@example.com')).toEqual({ open: 0, stickers: 0 })
      // A hidden animation's reports stay open, and count.
      await t.store.wumpuses.setHidden(annToo._id, { at: at(8), by: 'admin@example.com' })
      expect(await t.store.reports.countOpenAgainstOwner('ann@example.com')).toEqual({ open: 4, stickers: 3 })
      // Decided reports no longer count.
      await t.store.reports.decideOpen(target(ann), { kind: 'dismiss', by: 'admin@example.com', at: at(9), note: '' })
      expect(await t.store.reports.countOpenAgainstOwner('ann@example.com')).toEqual({ open: 2, stickers: 2 })
    })
  })
}

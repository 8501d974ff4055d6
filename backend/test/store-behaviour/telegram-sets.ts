import { describe, expect, it } from 'vitest'
import type { TelegramSetProgress } from '../../src/store/port'
import { type StoreInUse, UNKNOWN_ID } from './samples'

/** The Telegram sets repository. */
export function describeTelegramSetBehaviour(t: StoreInUse): void {
  describe('telegram sets', () => {
    const LEASE_MS = 60_000
    const t0 = new Date(Date.UTC(2026, 11, 3, 12))
    const at = (ms: number) => new Date(t0.getTime() + ms)
    const PACK = 'aaaaaaaaaaaaaaaaaaaaaaaa'
    const claim = (owner: string, now = t0) => t.store.telegramSets.claim({ owner, leaseMs: LEASE_MS, now })
    const progress: TelegramSetProgress = {
      created: true,
      title: 'Pack',
      stickers: [{ wumpusId: UNKNOWN_ID, source: 'f1', fileId: 'F', fileUniqueId: 'U', emoji: ['🙂'], keywords: ['k'] }],
      pending: [{ wumpusId: PACK, source: 'f2', emoji: ['🎉'], keywords: [] }],
    }

    it('makes a record on the first request with a name only, and moves its generation on each', async () => {
      expect(await t.store.telegramSets.request(PACK, 'stickers', { now: t0 })).toBeUndefined()
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toBeUndefined()
      const first = await t.store.telegramSets.request(PACK, 'stickers', { name: 'a_by_bot', now: t0 })
      expect(first).toEqual({
        packId: PACK,
        kind: 'stickers',
        name: 'a_by_bot',
        state: 'making',
        removing: false,
        generation: 1,
        created: false,
        stickers: [],
        pending: [],
        updatedAt: t0,
      })
      const again = await t.store.telegramSets.request(PACK, 'stickers', { name: 'other_by_bot', now: at(1) })
      expect(again).toMatchObject({ name: 'a_by_bot', generation: 2, removing: false })
      expect(await t.store.telegramSets.request(PACK, 'stickers', { remove: true, now: at(2) })).toMatchObject({
        generation: 3,
        removing: true,
      })
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({
        state: 'making',
        generation: 3,
        removing: true,
        updatedAt: at(2),
      })
    })

    it('claims each due set once, whatever the number of claimants, and again once the lease ends', async () => {
      for (const id of [PACK, UNKNOWN_ID]) await t.store.telegramSets.request(id, 'stickers', { name: `${id}_by_bot`, now: t0 })
      const jobs = (await Promise.all(['a', 'b', 'c', 'd'].map((owner) => claim(owner)))).filter((job) => job !== undefined)
      expect(jobs.map((job) => job.record.packId).sort()).toEqual([PACK, UNKNOWN_ID].sort())
      expect(jobs[0]).toMatchObject({ leaseUntil: at(LEASE_MS) })
      expect(await claim('e')).toBeUndefined()
      expect(await claim('e', at(LEASE_MS))).toBeDefined()
    })

    it('saves progress and ends runs only while the owner holds them, ready only while no newer request came', async () => {
      await t.store.telegramSets.request(PACK, 'stickers', { name: 'a_by_bot', now: t0 })
      const job = (await claim('a'))!
      expect(await t.store.telegramSets.save(job, progress)).toBe(true)
      expect(await t.store.telegramSets.save({ ...job, owner: 'b' }, progress)).toBe(false)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject(progress)
      expect(await t.store.telegramSets.renew(job, at(2 * LEASE_MS))).toBe(true)
      expect(await claim('b', at(LEASE_MS))).toBeUndefined()

      // Asked again during the run: the run ends, the set stays to be made, due at once.
      await t.store.telegramSets.request(PACK, 'stickers', { now: at(1) })
      expect(await t.store.telegramSets.finish(job, { state: 'ready' })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ state: 'making', generation: 2 })
      const next = (await claim('b', at(2)))!
      expect(next.record).toMatchObject({ generation: 2, created: true, stickers: progress.stickers })
      expect(await t.store.telegramSets.finish(next, { state: 'failed', reason: 'No' })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ state: 'failed', reason: 'No' })
      expect(await t.store.telegramSets.finish(next, { state: 'ready' })).toBe(false)
      expect(await claim('c', at(3))).toBeUndefined()

      // A new request clears the reason.
      await t.store.telegramSets.request(PACK, 'stickers', { now: at(4) })
      const third = (await claim('c', at(5)))!
      expect(third.record.reason).toBeUndefined()
      expect(await t.store.telegramSets.finish(third, { state: 'ready' })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ state: 'ready', generation: 3 })
      expect((await t.store.telegramSets.get(PACK, 'stickers'))!.reason).toBeUndefined()
    })

    it('saves a personal set’s owner with the run’s progress, and keeps it when a save leaves it out', async () => {
      await t.store.telegramSets.request(PACK, 'stickers', { name: 'a_by_bot', ownerUserId: 11, now: t0 })
      const job = (await claim('a'))!
      expect(await t.store.telegramSets.save(job, { ...progress, ownerUserId: 22 })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ ownerUserId: 22 })
      expect(await t.store.telegramSets.save(job, progress)).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ ownerUserId: 22 })
      expect(await t.store.telegramSets.save({ ...job, owner: 'b' }, { ...progress, ownerUserId: 33 })).toBe(false)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ ownerUserId: 22 })
    })

    it('is not due again before a retry time, which it answers as the next one', async () => {
      await t.store.telegramSets.request(PACK, 'stickers', { name: 'a_by_bot', now: t0 })
      expect(await t.store.telegramSets.nextRetry()).toBeUndefined()
      const job = (await claim('a'))!
      expect(await t.store.telegramSets.finish(job, { retryAt: at(5000), reason: 'Telegram asked the bot to wait 5 s' })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({
        state: 'making',
        reason: 'Telegram asked the bot to wait 5 s',
      })
      expect(await t.store.telegramSets.nextRetry()).toEqual(at(5000))
      expect(await claim('b', at(4999))).toBeUndefined()
      expect(await claim('b', at(5000))).toBeDefined()
    })

    it('asks again for the sets that hold a sticker of an animation', async () => {
      const other = 'bbbbbbbbbbbbbbbbbbbbbbbb'
      for (const id of [PACK, other]) await t.store.telegramSets.request(id, 'stickers', { name: `${id}_by_bot`, now: t0 })
      const job = (await claim('a'))!
      await t.store.telegramSets.save(job, progress)
      await t.store.telegramSets.finish(job, { state: 'ready' })
      expect(await t.store.telegramSets.requestHolding('cccccccccccccccccccccccc', at(1))).toBe(0)
      expect(await t.store.telegramSets.requestHolding(UNKNOWN_ID, at(1))).toBe(1)
      expect(await t.store.telegramSets.get(job.record.packId, 'stickers')).toMatchObject({
        state: 'making',
        generation: 2,
        updatedAt: at(1),
      })
      const untouched = job.record.packId === PACK ? other : PACK
      expect(await t.store.telegramSets.get(untouched, 'stickers')).toMatchObject({ generation: 1 })
    })

    it('keeps a pack’s sticker set and custom emoji set apart: asked, claimed, saved and ended each on its own', async () => {
      expect(await t.store.telegramSets.request(PACK, 'emoji', { now: t0 })).toBeUndefined()
      await t.store.telegramSets.request(PACK, 'stickers', { name: 'a_by_bot', now: t0 })
      expect(await t.store.telegramSets.get(PACK, 'emoji')).toBeUndefined()
      expect(await t.store.telegramSets.request(PACK, 'emoji', { name: 'a_e_by_bot', now: at(1) })).toMatchObject({
        packId: PACK,
        kind: 'emoji',
        name: 'a_e_by_bot',
        generation: 1,
      })
      const jobs = (await Promise.all(['a', 'b', 'c'].map((owner) => claim(owner, at(2))))).filter((job) => job !== undefined)
      expect(jobs.map((job) => job.record.kind).sort()).toEqual(['emoji', 'stickers'])
      const emoji = jobs.find((job) => job.record.kind === 'emoji')!
      const stickers = jobs.find((job) => job.record.kind === 'stickers')!
      expect(await t.store.telegramSets.save(emoji, progress)).toBe(true)
      expect(await t.store.telegramSets.finish(emoji, { state: 'failed', reason: 'No' })).toBe(true)
      expect(await t.store.telegramSets.finish(stickers, { state: 'ready' })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'emoji')).toMatchObject({ state: 'failed', reason: 'No', stickers: progress.stickers })
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ state: 'ready', name: 'a_by_bot', stickers: [] })

      // An animation held by the emoji set alone: the pack's sticker set is asked again too; removing one leaves the other.
      expect(await t.store.telegramSets.requestHolding(UNKNOWN_ID, at(3))).toBe(2)
      await t.store.telegramSets.request(PACK, 'emoji', { remove: true, now: at(4) })
      // The least recently asked first.
      const first = (await claim('d', at(5)))!
      const removal = (await claim('e', at(5)))!
      expect([first.record.kind, removal.record.kind]).toEqual(['stickers', 'emoji'])
      expect(await t.store.telegramSets.finish(removal, { removed: true })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'emoji')).toBeUndefined()
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ state: 'making', generation: 2 })
    })

    it('removes the record when a removal run ends, unless asked again meanwhile', async () => {
      await t.store.telegramSets.request(PACK, 'stickers', { name: 'a_by_bot', remove: true, now: t0 })
      const job = (await claim('a'))!
      await t.store.telegramSets.request(PACK, 'stickers', { now: at(1) })
      expect(await t.store.telegramSets.finish(job, { removed: true })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ state: 'making', removing: true })
      const next = (await claim('b', at(2)))!
      expect(await t.store.telegramSets.finish(next, { removed: true })).toBe(true)
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toBeUndefined()
    })
  })
}

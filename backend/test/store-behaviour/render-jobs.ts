import { describe, expect, it } from 'vitest'
import type { DerivedMedia } from '../../src/store/port'
import { MALFORMED_IDS, sampleFiles, sampleWumpus, type StoreInUse, UNKNOWN_ID } from './samples'

/** The render jobs repository. */
export function describeRenderJobBehaviour(t: StoreInUse): void {
  describe('render jobs', () => {
    const VERSION = 2
    const LEASE_MS = 60_000
    const t0 = new Date(Date.UTC(2026, 10, 26, 12))
    const at = (ms: number) => new Date(t0.getTime() + ms)
    const claim = (owner: string, now = t0, options: { id?: string; version?: number } = {}) =>
      t.store.renderJobs.claim({ owner, version: VERSION, leaseMs: LEASE_MS, now, ...options })
    const made = (lottieId: string, version = VERSION, error?: string): DerivedMedia => ({
      source: lottieId,
      version,
      madeAt: t0,
      exports: [],
      ...(error ? { error } : {}),
    })

    it('claims each animation that needs derived media once, whatever the number of claimants', async () => {
      const records = await Promise.all([0, 1, 2].map(() => t.store.wumpuses.insert(sampleWumpus())))
      const done = await t.store.wumpuses.insert(sampleWumpus())
      await t.store.wumpuses.setDerived(done._id, done.files.lottie.id, made(done.files.lottie.id))
      const jobs = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((owner) => claim(owner)))
      const claimed = jobs.filter((job) => job !== undefined)
      expect(claimed.map((job) => job.record._id).sort()).toEqual(records.map((r) => r._id).sort())
      expect(new Set(claimed.map((job) => job.owner)).size).toBe(3)
      for (const job of claimed) {
        expect(job.record).toEqual(records.find((r) => r._id === job.record._id))
        expect(job).toMatchObject({ version: VERSION, failures: 0, leaseUntil: at(LEASE_MS) })
      }
      expect(await claim('f')).toBeUndefined()
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await claim('f', t0, { id })).toBeUndefined()
    })

    it('claims by id only that animation, and only while it needs derived media by these rules', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const other = await t.store.wumpuses.insert(sampleWumpus())
      const lottie = record.files.lottie.id
      await t.store.wumpuses.setDerived(record._id, lottie, made(lottie))
      expect(await claim('a', t0, { id: record._id })).toBeUndefined()
      // Newer rules, a failed render, media of another Lottie: each is work again.
      expect((await claim('a', t0, { id: record._id, version: VERSION + 1 }))?.record._id).toBe(record._id)
      await t.store.wumpuses.setDerived(record._id, lottie, made(lottie, VERSION, 'Too long'))
      expect((await claim('b', at(LEASE_MS), { id: record._id }))?.record._id).toBe(record._id)
      await t.store.wumpuses.setDerived(record._id, lottie, made(lottie))
      const { lottie: next } = sampleFiles()
      await t.store.wumpuses.update(record._id, { files: { ...record.files, lottie: next } })
      expect((await claim('c', at(2 * LEASE_MS), { id: record._id }))?.owner).toBe('c')
      expect((await claim('d', at(2 * LEASE_MS), { id: other._id }))?.record._id).toBe(other._id)
    })

    it('is taken over once its lease ends; renewed, the lease lasts; only the holder sets the media', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const lottie = record.files.lottie.id
      const first = (await claim('a'))!
      expect(await claim('b', at(LEASE_MS - 1))).toBeUndefined()
      expect(await t.store.renderJobs.renew(first, at(2 * LEASE_MS))).toBe(true)
      expect(await claim('b', at(2 * LEASE_MS - 1))).toBeUndefined()
      const second = (await claim('b', at(2 * LEASE_MS)))!
      expect(second.owner).toBe('b')
      // The first holder lost it: no renewal, no media, no release.
      expect(await t.store.renderJobs.renew(first, at(5 * LEASE_MS))).toBe(false)
      expect(await t.store.wumpuses.setDerived(record._id, lottie, made(lottie), { leaseOwner: 'a' })).toBeUndefined()
      expect((await t.store.wumpuses.get(record._id))!.derived).toBeUndefined()
      expect(await t.store.renderJobs.release(first)).toBe(false)
      expect(await claim('c', at(2 * LEASE_MS + 1))).toBeUndefined()
      expect(await t.store.wumpuses.setDerived(record._id, lottie, made(lottie), { leaseOwner: 'b' })).toMatchObject({
        derived: { version: VERSION },
      })
      expect(await t.store.renderJobs.release(second)).toBe(true)
      expect(await claim('c', at(2 * LEASE_MS + 1))).toBeUndefined()
    })

    it('is free again at once when released without a failure', async () => {
      await t.store.wumpuses.insert(sampleWumpus())
      const job = (await claim('a'))!
      expect(await t.store.renderJobs.release(job)).toBe(true)
      expect(await t.store.renderJobs.release(job)).toBe(false)
      expect((await claim('b'))?.failures).toBe(0)
    })

    it('backs off after a failure until its retry time, counting failures; a new Lottie or newer rules make it new work', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const lottie = record.files.lottie.id
      const first = (await claim('a'))!
      await t.store.wumpuses.setDerived(record._id, lottie, made(lottie, VERSION, 'Too long'), { leaseOwner: 'a' })
      expect(await t.store.renderJobs.release(first, { retryAt: at(60_000) })).toBe(true)
      expect(await claim('b', at(59_999))).toBeUndefined()
      const second = (await claim('b', at(60_000)))!
      expect(second.failures).toBe(1)
      await t.store.renderJobs.release(second, { retryAt: at(600_000) })
      expect(await claim('c', at(599_999))).toBeUndefined()
      // Kept across a reopen.
      t.store = await t.subject.reopen()
      expect(await claim('c', at(599_999))).toBeUndefined()
      const newer = (await claim('c', at(599_999), { version: VERSION + 1 }))!
      expect(newer.failures).toBe(0)
      await t.store.renderJobs.release(newer)
      const third = (await claim('c', at(600_000)))!
      expect(third.failures).toBe(2)
      await t.store.renderJobs.release(third, { retryAt: at(3_600_000) })
      const { lottie: next } = sampleFiles()
      await t.store.wumpuses.update(record._id, { files: { ...record.files, lottie: next } })
      const fourth = (await claim('d', at(600_001)))!
      expect(fourth.failures).toBe(0)
      // A failure of a Lottie replaced meanwhile does not hold back the new one.
      const { lottie: newest } = sampleFiles()
      await t.store.wumpuses.update(record._id, { files: { ...record.files, lottie: newest } })
      expect(await t.store.renderJobs.release(fourth, { retryAt: at(3_600_000) })).toBe(true)
      expect((await claim('e', at(600_002)))?.failures).toBe(0)
    })
  })
}

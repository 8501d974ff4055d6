import { describe, expect, it } from 'vitest'
import type { DiscordUploadProgress, NewDiscordUpload } from '../../src/store/discord-uploads-port'
import type { StoreInUse } from './samples'

/** The Discord upload jobs repository. */
export function describeDiscordUploadBehaviour(t: StoreInUse): void {
  describe('discord uploads', () => {
    const LEASE_MS = 60_000
    const t0 = new Date(Date.UTC(2026, 11, 3, 12))
    const at = (ms: number) => new Date(t0.getTime() + ms)
    const job = (n: number, now = at(n)): NewDiscordUpload => ({
      id: `${'d'.repeat(23)}${n}`,
      stateHash: `hash${n}`,
      account: 'ann@example.com',
      packId: 'a'.repeat(24),
      guildId: `9000${n}`,
      now,
    })
    const claim = (owner: string, now = at(10)) => t.store.discordUploads.claim({ owner, leaseMs: LEASE_MS, now })
    const progress: DiscordUploadProgress = {
      tier: 0,
      uploaded: [{ wumpusId: 'b'.repeat(24), kind: 'sticker', name: 'Wave', discordId: '111', bytes: 2048 }],
      notFitted: [{ wumpusId: 'c'.repeat(24), kind: 'sticker', name: 'Dance', reason: 'No sticker slot left' }],
      pending: { wumpusId: 'e'.repeat(24), kind: 'emoji', name: 'wave' },
    }

    it('makes one job per state, waiting', async () => {
      const made = await t.store.discordUploads.create(job(1))
      expect(made).toEqual({
        id: job(1).id,
        stateHash: 'hash1',
        account: 'ann@example.com',
        packId: 'a'.repeat(24),
        guildId: '90001',
        state: 'waiting',
        uploaded: [],
        notFitted: [],
        createdAt: at(1),
        updatedAt: at(1),
      })
      expect(await t.store.discordUploads.get(job(1).id)).toEqual(made)
      expect(await t.store.discordUploads.hasState('hash1')).toBe(true)
      expect(await t.store.discordUploads.hasState('hash2')).toBe(false)
      // The same state again (a callback opened twice): no second job.
      expect(await t.store.discordUploads.create({ ...job(2), stateHash: 'hash1' })).toBeUndefined()
      expect(await t.store.discordUploads.get(job(2).id)).toBeUndefined()
    })

    it('claims only the oldest unfinished job, once, and again once the lease ends', async () => {
      await t.store.discordUploads.create(job(2))
      await t.store.discordUploads.create(job(1))
      const jobs = (await Promise.all(['a', 'b', 'c'].map((owner) => claim(owner)))).filter((j) => j !== undefined)
      expect(jobs.map((j) => j.record.id)).toEqual([job(1).id])
      expect(jobs[0]).toMatchObject({ record: { state: 'uploading' }, leaseUntil: at(10 + LEASE_MS) })
      // Job 2 waits behind it, even while it is held.
      expect(await claim('d')).toBeUndefined()
      const taken = await claim('d', at(10 + LEASE_MS))
      expect(taken?.record.id).toBe(job(1).id)
      // The first holder lost it.
      expect(await t.store.discordUploads.save(jobs[0]!, progress, at(11))).toBe(false)
      expect(await t.store.discordUploads.finish(taken!, { state: 'done' }, at(12 + LEASE_MS))).toBe(true)
      expect((await claim('e', at(13 + LEASE_MS)))?.record.id).toBe(job(2).id)
    })

    it('saves progress and ends a job only while the owner holds it', async () => {
      await t.store.discordUploads.create(job(1))
      const held = (await claim('a'))!
      expect(await t.store.discordUploads.save(held, progress, at(20))).toBe(true)
      expect(await t.store.discordUploads.save({ ...held, owner: 'b' }, progress, at(20))).toBe(false)
      expect(await t.store.discordUploads.get(held.record.id)).toMatchObject({ ...progress, state: 'uploading', updatedAt: at(20) })
      expect(await t.store.discordUploads.renew(held, at(2 * LEASE_MS))).toBe(true)
      expect(await t.store.discordUploads.renew({ ...held, owner: 'b' }, at(2 * LEASE_MS))).toBe(false)
      expect(await claim('b', at(LEASE_MS + 10))).toBeUndefined()
      expect(await t.store.discordUploads.finish({ ...held, owner: 'b' }, { state: 'done' }, at(30))).toBe(false)
      expect(await t.store.discordUploads.finish(held, { state: 'failed', reason: 'Missing Permissions' }, at(30))).toBe(true)
      expect(await t.store.discordUploads.get(held.record.id)).toMatchObject({
        ...progress,
        state: 'failed',
        reason: 'Missing Permissions',
      })
      expect(await claim('c', at(3 * LEASE_MS))).toBeUndefined()
    })

    it('waits out a retry time keeping its turn (a 429), holding the queue, and forgets it once claimed again', async () => {
      await t.store.discordUploads.create(job(1))
      await t.store.discordUploads.create(job(2))
      expect(await t.store.discordUploads.nextRetry()).toBeUndefined()
      const held = (await claim('a'))!
      expect(
        await t.store.discordUploads.finish(held, { retryAt: at(5_000), reason: 'Discord asked to wait 5 s', keepsTurn: true }, at(11)),
      ).toBe(true)
      expect(await t.store.discordUploads.get(held.record.id)).toMatchObject({ state: 'waiting', reason: 'Discord asked to wait 5 s' })
      expect(await t.store.discordUploads.nextRetry()).toEqual(at(5_000))
      expect(await claim('b', at(4_999))).toBeUndefined()
      const again = await claim('b', at(5_000))
      expect(again?.record.id).toBe(job(1).id)
      expect(await t.store.discordUploads.finish(again!, { state: 'done' }, at(5_001))).toBe(true)
      expect(await t.store.discordUploads.get(job(1).id)).not.toHaveProperty('reason')
      expect(await t.store.discordUploads.nextRetry()).toBeUndefined()
    })

    it('lets other jobs run while one backs off, still one at a time, and takes it again when due', async () => {
      for (const n of [1, 2, 3]) await t.store.discordUploads.create(job(n))
      const first = (await claim('a'))!
      expect(first.record.id).toBe(job(1).id)
      const backOff = { retryAt: at(5_000), reason: 'Discord cannot be reached; trying again', keepsTurn: false }
      expect(await t.store.discordUploads.finish(first, backOff, at(20))).toBe(true)
      expect(await t.store.discordUploads.get(job(1).id)).toMatchObject({ state: 'waiting', reason: backOff.reason })
      expect(await t.store.discordUploads.nextRetry()).toEqual(at(5_000))
      // Job 2 runs meanwhile; while it is held, nothing else is claimed (job 3 is ready, job 1 not yet due).
      const second = await Promise.all(['b', 'c'].map((owner) => claim(owner, at(30))))
      expect(second.filter((j) => j !== undefined).map((j) => j.record.id)).toEqual([job(2).id])
      expect(await claim('d', at(5_000))).toBeUndefined()
      expect(
        await t.store.discordUploads.finish(
          second.find((j) => j)!,
          { state: 'done' },
          at(5_001),
        ),
      ).toBe(true)
      // Ready jobs without a retry time go first, then job 1, its retry time forgotten once claimed.
      const third = (await claim('e', at(5_002)))!
      expect(third.record.id).toBe(job(3).id)
      expect(await t.store.discordUploads.finish(third, { state: 'done' }, at(5_003))).toBe(true)
      const again = (await claim('f', at(5_004)))!
      expect(again.record.id).toBe(job(1).id)
      expect(await t.store.discordUploads.nextRetry()).toBeUndefined()
      // A job made while it runs waits behind it.
      await t.store.discordUploads.create(job(4, at(5_005)))
      expect(await claim('g', at(5_006))).toBeUndefined()
    })

    it('takes a job whose retry time has passed before the jobs made after that time: by when each became ready', async () => {
      await t.store.discordUploads.create(job(1))
      const first = (await claim('a'))!
      const backOff = { retryAt: at(5_000), reason: 'Discord cannot be reached; trying again', keepsTurn: false }
      expect(await t.store.discordUploads.finish(first, backOff, at(20))).toBe(true)
      // Job 2 was made before job 1 was due, job 3 after.
      await t.store.discordUploads.create(job(2, at(4_000)))
      await t.store.discordUploads.create(job(3, at(6_000)))
      const second = (await claim('b', at(6_001)))!
      expect(second.record.id).toBe(job(2).id)
      expect(await claim('c', at(6_002))).toBeUndefined()
      expect(await t.store.discordUploads.finish(second, { state: 'done' }, at(6_003))).toBe(true)
      const again = (await claim('d', at(6_004)))!
      expect(again.record.id).toBe(job(1).id)
      // Still one at a time: job 3 waits behind it, also through a 429 that keeps its turn.
      expect(await claim('e', at(6_005))).toBeUndefined()
      const limited = { retryAt: at(7_000), reason: 'Discord asked to wait 1 s', keepsTurn: true }
      expect(await t.store.discordUploads.finish(again, limited, at(6_006))).toBe(true)
      expect(await claim('f', at(6_999))).toBeUndefined()
      const kept = (await claim('g', at(7_000)))!
      expect(kept.record.id).toBe(job(1).id)
      expect(await t.store.discordUploads.finish(kept, { state: 'done' }, at(7_001))).toBe(true)
      expect((await claim('h', at(7_002)))?.record.id).toBe(job(3).id)
    })
  })
}

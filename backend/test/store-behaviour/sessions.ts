import { describe, expect, it } from 'vitest'
import type { StoreInUse } from './samples'

/** The sessions repository. */
export function describeSessionBehaviour(t: StoreInUse): void {
  describe('sessions', () => {
    const inAnHour = () => new Date(Date.now() + 3600_000)

    it('creates, reads and ends a session', async () => {
      const session = await t.store.sessions.create({ email: 'ivy@example.com', uid: 'uid-ivy', expiresAt: inAnHour() })
      expect(session.id).toMatch(/^[0-9a-f]{32}$/)
      expect(session.createdAt).toBeInstanceOf(Date)
      expect(await t.store.sessions.get(session.id)).toEqual(session)
      expect(await t.store.sessions.delete(session.id)).toBe(true)
      expect(await t.store.sessions.delete(session.id)).toBe(false)
      expect(await t.store.sessions.get(session.id)).toBeUndefined()
      expect(await t.store.sessions.get('nope')).toBeUndefined()
    })

    it("ends a user's sessions, optionally keeping one", async () => {
      const mine = await t.store.sessions.create({ email: 'jo@example.com', uid: 'uid-jo', expiresAt: inAnHour() })
      const squatter = await t.store.sessions.create({ email: 'jo@example.com', uid: 'uid-other', expiresAt: inAnHour() })
      const someoneElse = await t.store.sessions.create({ email: 'kim@example.com', uid: 'uid-kim', expiresAt: inAnHour() })
      expect(await t.store.sessions.deleteForUser('jo@example.com', { exceptId: mine.id })).toBe(1)
      expect(await t.store.sessions.get(squatter.id)).toBeUndefined()
      expect(await t.store.sessions.get(mine.id)).toEqual(mine)
      expect(await t.store.sessions.deleteForUser('jo@example.com')).toBe(1)
      expect(await t.store.sessions.get(mine.id)).toBeUndefined()
      expect(await t.store.sessions.get(someoneElse.id)).toEqual(someoneElse)
    })

    it('forgets sessions past their end', async () => {
      const old = await t.store.sessions.create({ email: 'lu@example.com', uid: 'u', expiresAt: new Date(Date.now() - 1000) })
      const live = await t.store.sessions.create({ email: 'lu@example.com', uid: 'u', expiresAt: inAnHour() })
      expect(await t.store.sessions.deleteExpired(new Date())).toBe(1)
      expect(await t.store.sessions.get(old.id)).toBeUndefined()
      expect(await t.store.sessions.get(live.id)).toEqual(live)
    })

    it('keeps when a session was last used, moving it forward only', async () => {
      const start = new Date(Date.UTC(2026, 0, 1))
      const session = await t.store.sessions.create({ email: 'mo@example.com', uid: 'u', expiresAt: inAnHour(), lastUsedAt: start })
      expect(session.lastUsedAt).toEqual(start)
      const later = new Date(start.getTime() + 60_000)
      expect(await t.store.sessions.touch(session.id, later)).toBe(true)
      expect(await t.store.sessions.touch(session.id, start)).toBe(true)
      expect(await t.store.sessions.get(session.id)).toEqual({ ...session, lastUsedAt: later })
      expect(await t.store.sessions.touch('nope', later)).toBe(false)
      // Without a time given, a session is last used when it is created.
      const fresh = await t.store.sessions.create({ email: 'mo@example.com', uid: 'u', expiresAt: inAnHour() })
      expect(fresh.lastUsedAt).toEqual(fresh.createdAt)
    })

    it('forgets sessions idle since before the given time', async () => {
      const now = new Date()
      const idle = await t.store.sessions.create({
        email: 'nia@example.com',
        uid: 'u',
        expiresAt: inAnHour(),
        lastUsedAt: new Date(now.getTime() - 3_600_000),
      })
      const used = await t.store.sessions.create({ email: 'nia@example.com', uid: 'u', expiresAt: inAnHour(), lastUsedAt: now })
      expect(await t.store.sessions.deleteExpired(now)).toBe(0)
      expect(await t.store.sessions.deleteExpired(now, { lastUsedBefore: new Date(now.getTime() - 60_000) })).toBe(1)
      expect(await t.store.sessions.get(idle.id)).toBeUndefined()
      expect(await t.store.sessions.get(used.id)).toEqual(used)
    })
  })
}

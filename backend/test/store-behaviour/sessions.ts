import { beforeEach, describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/port'
import type { StoreUnderTest } from './samples'

/** The sessions repository. */
export function describeSessionBehaviour(current: () => StoreUnderTest): void {
  let store: Store
  beforeEach(() => {
    store = current().store
  })

  describe('sessions', () => {
    const inAnHour = () => new Date(Date.now() + 3600_000)

    it('creates, reads and ends a session', async () => {
      const session = await store.sessions.create({ email: 'ivy@example.com', uid: 'uid-ivy', expiresAt: inAnHour() })
      expect(session.id).toMatch(/^[0-9a-f]{32}$/)
      expect(session.createdAt).toBeInstanceOf(Date)
      expect(await store.sessions.get(session.id)).toEqual(session)
      expect(await store.sessions.delete(session.id)).toBe(true)
      expect(await store.sessions.delete(session.id)).toBe(false)
      expect(await store.sessions.get(session.id)).toBeUndefined()
      expect(await store.sessions.get('nope')).toBeUndefined()
    })

    it("ends a user's sessions, optionally keeping one", async () => {
      const mine = await store.sessions.create({ email: 'jo@example.com', uid: 'uid-jo', expiresAt: inAnHour() })
      const squatter = await store.sessions.create({ email: 'jo@example.com', uid: 'uid-other', expiresAt: inAnHour() })
      const someoneElse = await store.sessions.create({ email: 'kim@example.com', uid: 'uid-kim', expiresAt: inAnHour() })
      expect(await store.sessions.deleteForUser('jo@example.com', { exceptId: mine.id })).toBe(1)
      expect(await store.sessions.get(squatter.id)).toBeUndefined()
      expect(await store.sessions.get(mine.id)).toEqual(mine)
      expect(await store.sessions.deleteForUser('jo@example.com')).toBe(1)
      expect(await store.sessions.get(mine.id)).toBeUndefined()
      expect(await store.sessions.get(someoneElse.id)).toEqual(someoneElse)
    })

    it('forgets sessions past their end', async () => {
      const old = await store.sessions.create({ email: 'lu@example.com', uid: 'u', expiresAt: new Date(Date.now() - 1000) })
      const live = await store.sessions.create({ email: 'lu@example.com', uid: 'u', expiresAt: inAnHour() })
      expect(await store.sessions.deleteExpired(new Date())).toBe(1)
      expect(await store.sessions.get(old.id)).toBeUndefined()
      expect(await store.sessions.get(live.id)).toEqual(live)
    })

    it('keeps when a session was last used, moving it forward only', async () => {
      const start = new Date(Date.UTC(2026, 0, 1))
      const session = await store.sessions.create({ email: 'mo@example.com', uid: 'u', expiresAt: inAnHour(), lastUsedAt: start })
      expect(session.lastUsedAt).toEqual(start)
      const later = new Date(start.getTime() + 60_000)
      expect(await store.sessions.touch(session.id, later)).toBe(true)
      expect(await store.sessions.touch(session.id, start)).toBe(true)
      expect(await store.sessions.get(session.id)).toEqual({ ...session, lastUsedAt: later })
      expect(await store.sessions.touch('nope', later)).toBe(false)
      // Without a time given, a session is last used when it is created.
      const fresh = await store.sessions.create({ email: 'mo@example.com', uid: 'u', expiresAt: inAnHour() })
      expect(fresh.lastUsedAt).toEqual(fresh.createdAt)
    })

    it('forgets sessions idle since before the given time', async () => {
      const now = new Date()
      const idle = await store.sessions.create({
        email: 'nia@example.com',
        uid: 'u',
        expiresAt: inAnHour(),
        lastUsedAt: new Date(now.getTime() - 3_600_000),
      })
      const used = await store.sessions.create({ email: 'nia@example.com', uid: 'u', expiresAt: inAnHour(), lastUsedAt: now })
      expect(await store.sessions.deleteExpired(now)).toBe(0)
      expect(await store.sessions.deleteExpired(now, { lastUsedBefore: new Date(now.getTime() - 60_000) })).toBe(1)
      expect(await store.sessions.get(idle.id)).toBeUndefined()
      expect(await store.sessions.get(used.id)).toEqual(used)
    })
  })
}

import { describe, expect, it } from 'vitest'
import { InvalidCursorError, type NewNotification } from '../../src/store/port'
import type { StoreInUse } from './samples'

const FAY = 'fay@example.com'
const GIL = 'gil@example.com'

export function sampleNotification(overrides: Partial<NewNotification> = {}): NewNotification {
  return {
    recipient: FAY,
    kind: 'submission.refused',
    subject: { kind: 'submission', id: 'ccc000000000000000000001', name: 'Wave' },
    note: 'Not ours to share',
    ...overrides,
  }
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second))

/** The notifications repository: one recipient's newest first, bounded, the unread count and marking read. */
export function describeNotificationBehaviour(t: StoreInUse): void {
  describe('notifications', () => {
    it("lists one recipient's notifications newest first, paged by cursor, unread when new", async () => {
      const made = []
      for (let i = 1; i <= 5; i++) made.push(await t.store.notifications.insert(sampleNotification({ createdAt: at(i) }), { keep: 100 }))
      await t.store.notifications.insert(sampleNotification({ recipient: GIL, createdAt: at(9) }), { keep: 100 })
      const decided = await t.store.notifications.insert(
        sampleNotification({
          kind: 'report.decided',
          subject: { kind: 'wumpus', id: 'aaa000000000000000000001', name: 'Dance' },
          decision: 'dismiss',
          note: '',
          createdAt: at(3),
        }),
        { keep: 100 },
      )
      expect(made[0]).toMatchObject({ ...sampleNotification(), read: false, createdAt: at(1) })
      expect(made[0]!.id).toMatch(/^[0-9a-f]{24}$/)
      t.store = await t.subject.reopen()
      const first = await t.store.notifications.listByRecipient(FAY, { limit: 4 })
      expect(first.items.map((n) => n.createdAt)).toEqual([at(5), at(4), at(3), at(3)])
      expect(first.items).toContainEqual(decided)
      expect(first.nextCursor).toBeDefined()
      const second = await t.store.notifications.listByRecipient(FAY, { limit: 4, cursor: first.nextCursor })
      expect(second.items).toEqual([made[1], made[0]])
      expect(second.nextCursor).toBeUndefined()
      expect(await t.store.notifications.countUnread(FAY)).toBe(6)
      expect(await t.store.notifications.countUnread(GIL)).toBe(1)
      expect(await t.store.notifications.countUnread('nobody@example.com')).toBe(0)
      await expect(t.store.notifications.listByRecipient(FAY, { limit: 2, cursor: 'bm9wZQ' })).rejects.toBeInstanceOf(InvalidCursorError)
    })

    it("keeps a recipient's newest `keep` and removes the older as new ones come, others' untouched", async () => {
      for (let i = 1; i <= 6; i++) await t.store.notifications.insert(sampleNotification({ createdAt: at(i) }), { keep: 3 })
      await t.store.notifications.insert(sampleNotification({ recipient: GIL, createdAt: at(0) }), { keep: 3 })
      const kept = await t.store.notifications.listByRecipient(FAY, { limit: 10 })
      expect(kept.items.map((n) => n.createdAt)).toEqual([at(6), at(5), at(4)])
      expect(await t.store.notifications.countUnread(FAY)).toBe(3)
      expect((await t.store.notifications.listByRecipient(GIL, { limit: 10 })).items).toHaveLength(1)
    })

    it('marks all read, or one and the older ones; only the recipient’s own', async () => {
      const made = []
      for (let i = 1; i <= 4; i++) made.push(await t.store.notifications.insert(sampleNotification({ createdAt: at(i) }), { keep: 100 }))
      const gils = await t.store.notifications.insert(sampleNotification({ recipient: GIL, createdAt: at(2) }), { keep: 100 })
      expect(await t.store.notifications.markRead(FAY, { upTo: made[2]!.id })).toBe(3)
      expect(await t.store.notifications.markRead(FAY, { upTo: made[2]!.id })).toBe(0)
      expect(await t.store.notifications.countUnread(FAY)).toBe(1)
      expect((await t.store.notifications.listByRecipient(FAY, { limit: 10 })).items.map((n) => n.read)).toEqual([false, true, true, true])
      expect(await t.store.notifications.markRead(FAY, { upTo: gils.id })).toBeUndefined()
      expect(await t.store.notifications.markRead(FAY, { upTo: 'not-an-id' })).toBeUndefined()
      expect(await t.store.notifications.countUnread(GIL)).toBe(1)
      expect(await t.store.notifications.markRead(FAY, {})).toBe(1)
      t.store = await t.subject.reopen()
      expect(await t.store.notifications.countUnread(FAY)).toBe(0)
      expect(await t.store.notifications.countUnread(GIL)).toBe(1)
    })
  })
}

import { describe, expect, it } from 'vitest'
import { InvalidCursorError } from '../../src/store/port'
import { type StoreInUse, UNKNOWN_ID } from './samples'

/** The audit log repository. */
export function describeAuditBehaviour(t: StoreInUse): void {
  describe('audit log', () => {
    it('appends entries and lists them newest first across pages', async () => {
      const written = []
      for (let i = 0; i < 5; i++) {
        written.push(
          await t.store.audit.append({
            actor: 'boss@example.com',
            action: i % 2 ? 'wumpus.edit' : 'wumpus.publish',
            target: { type: 'wumpus', id: UNKNOWN_ID, name: `Wumpus ${i}` },
            changes: [
              { field: 'name', from: `Old ${i}`, to: `Wumpus ${i}` },
              { field: 'description', to: 'Fresh' },
            ],
          }),
        )
      }
      expect(written[0]).toMatchObject({
        actor: 'boss@example.com',
        action: 'wumpus.publish',
        changes: [
          { field: 'name', from: 'Old 0', to: 'Wumpus 0' },
          { field: 'description', to: 'Fresh' },
        ],
      })
      expect(written[0]!.at).toBeInstanceOf(Date)
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await t.store.audit.list({ limit: 2, cursor })
        seen.push(...page.items.map((item) => item.id))
        cursor = page.nextCursor
      } while (cursor)
      expect(seen).toEqual(written.map((entry) => entry.id).reverse())
      expect((await t.store.audit.list({ limit: 1 })).items[0]).toEqual(written[4])
      await expect(t.store.audit.list({ limit: 2, cursor: 'bad cursor' })).rejects.toBeInstanceOf(InvalidCursorError)
    })
  })
}

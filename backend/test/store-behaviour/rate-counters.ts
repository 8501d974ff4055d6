import { describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import type { StoreInUse } from './samples'

/** The rate counters. */
export function describeRateCounterBehaviour(t: StoreInUse): void {
  describe('rate counters', () => {
    it('allows the points per key and then answers how long to wait', async () => {
      const counter = t.store.rateCounter({ name: `test-${randomBytes(4).toString('hex')}`, points: 2, durationSeconds: 60 })
      expect(await counter.hit('1.2.3.4')).toBe(0)
      expect(await counter.hit('1.2.3.4')).toBe(0)
      const wait = await counter.hit('1.2.3.4')
      expect(wait).toBeGreaterThan(50_000)
      expect(wait).toBeLessThanOrEqual(60_000)
      expect(await counter.hit('5.6.7.8')).toBe(0)
    })

    it('keeps counting a day-long budget across a restart (remix renders per account)', async () => {
      const options = { name: `budget-${randomBytes(4).toString('hex')}`, points: 2, durationSeconds: 24 * 3600 }
      const counter = t.store.rateCounter(options)
      expect(await counter.hit('maker@example.com')).toBe(0)
      expect(await counter.hit('maker@example.com')).toBe(0)
      const reopened = await t.subject.reopen()
      const wait = await reopened.rateCounter(options).hit('maker@example.com')
      expect(wait).toBeGreaterThan(23 * 3600_000)
      expect(wait).toBeLessThanOrEqual(24 * 3600_000)
    })
  })
}

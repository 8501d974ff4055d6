import { describe, expect, it } from 'vitest'
import type { StoreInUse } from './samples'

/** The Telegram links repository (issue 36), and a personal pack's set keeping its owner. */
export function describeTelegramLinkBehaviour(t: StoreInUse): void {
  describe('telegram links', () => {
    const t0 = new Date(Date.UTC(2026, 11, 3, 12))
    const at = (ms: number) => new Date(t0.getTime() + ms)
    const later = at(15 * 60_000)

    it('takes a code once, only before it expires, and only the newest of an account', async () => {
      const links = t.store.telegramLinks
      await links.putCode('ann@example.com', { hash: 'h1', expiresAt: later, packId: 'aaaaaaaaaaaaaaaaaaaaaaa1' })
      await links.putCode('ann@example.com', { hash: 'h2', expiresAt: later })
      await links.putCode('bob@example.com', { hash: 'h3', expiresAt: later })
      expect(await links.takeCode('h1', t0)).toBeUndefined()
      expect(await links.takeCode('h2', at(1))).toEqual({ email: 'ann@example.com' })
      expect(await links.takeCode('h2', at(2))).toBeUndefined()
      // Expired: gone too.
      expect(await links.takeCode('h3', later)).toBeUndefined()
      await links.putCode('bob@example.com', { hash: 'h4', expiresAt: later, packId: 'aaaaaaaaaaaaaaaaaaaaaaa2' })
      expect(await links.takeCode('h4', at(-1))).toEqual({ email: 'bob@example.com', packId: 'aaaaaaaaaaaaaaaaaaaaaaa2' })
      expect(await links.get('ann@example.com')).toBeUndefined()
    })

    it('links one Telegram user per account, relinking replaces, and unlinks', async () => {
      const links = t.store.telegramLinks
      expect(await links.link('cat@example.com', 501, t0)).toEqual({ email: 'cat@example.com', telegramUserId: 501, linkedAt: t0 })
      await links.link('cat@example.com', 502, at(1))
      expect(await links.get('cat@example.com')).toEqual({ email: 'cat@example.com', telegramUserId: 502, linkedAt: at(1) })
      // The same Telegram user linked to another account leaves the first.
      await links.link('dan@example.com', 502, at(2))
      expect(await links.get('cat@example.com')).toBeUndefined()
      expect(await links.get('dan@example.com')).toMatchObject({ telegramUserId: 502 })
      // A code for a linked account keeps the link.
      await links.putCode('dan@example.com', { hash: 'h5', expiresAt: later })
      expect(await links.takeCode('h5', t0)).toEqual({ email: 'dan@example.com' })
      expect(await links.get('dan@example.com')).toMatchObject({ telegramUserId: 502 })
      expect(await links.unlink('dan@example.com')).toBe(true)
      expect(await links.unlink('dan@example.com')).toBe(false)
      expect(await links.get('dan@example.com')).toBeUndefined()
    })

    it('keeps a personal pack’s set owner from its first request', async () => {
      const PACK = 'bbbbbbbbbbbbbbbbbbbbbbb1'
      expect(await t.store.telegramSets.request(PACK, 'stickers', { name: 'p_by_bot', ownerUserId: 601, now: t0 })).toMatchObject({
        ownerUserId: 601,
      })
      expect(await t.store.telegramSets.request(PACK, 'stickers', { name: 'p_by_bot', ownerUserId: 602, now: at(1) })).toMatchObject({
        ownerUserId: 601,
      })
      expect(await t.store.telegramSets.get(PACK, 'stickers')).toMatchObject({ ownerUserId: 601, generation: 2 })
    })
  })
}

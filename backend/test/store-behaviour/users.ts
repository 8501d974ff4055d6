import { describe, expect, it } from 'vitest'
import type { StoreInUse } from './samples'

/** The users repository: accounts and their Firebase binding. */
export function describeUserBehaviour(t: StoreInUse): void {
  describe('users', () => {
    it('creates a user with defaults for missing fields', async () => {
      const before = Date.now()
      const user = await t.store.users.upsert('ann@example.com', { user_name: 'Ann', photo: 'https://x/ann.png' })
      expect(user).toEqual({
        email: 'ann@example.com',
        user_name: 'Ann',
        role: 'user',
        photo: 'https://x/ann.png',
        cover: '',
        url: '',
        job: '',
        description: '',
        showSensitive: false,
        createdAt: user.createdAt,
        updatedAt: user.updatedAt,
      })
      expect(user.createdAt).toBeInstanceOf(Date)
      expect(user.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1)
      expect(await t.store.users.get('ann@example.com')).toEqual(user)
      expect(await t.store.users.get('nobody@example.com')).toBeUndefined()
    })

    it('patches an existing user without touching other fields', async () => {
      const created = await t.store.users.upsert('bob@example.com', { user_name: 'Bob', job: 'Baker', role: 'admin' })
      const patched = await t.store.users.upsert('bob@example.com', { description: 'Bakes', job: undefined })
      expect(patched).toEqual({ ...created, description: 'Bakes', updatedAt: patched.updatedAt })
      expect(patched.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime())
      expect(await t.store.users.get('bob@example.com')).toEqual(patched)
    })

    it('lists users by email ascending', async () => {
      for (const email of ['c@example.com', 'a@example.com', 'b@example.com']) {
        await t.store.users.upsert(email, { user_name: email[0] })
      }
      const users = await t.store.users.list()
      expect(users.map((user) => user.email)).toEqual(['a@example.com', 'b@example.com', 'c@example.com'])
      expect(Object.keys(users[0]!).sort()).toEqual([
        'cover',
        'createdAt',
        'description',
        'email',
        'job',
        'photo',
        'role',
        'showSensitive',
        'updatedAt',
        'url',
        'user_name',
      ])
      expect(users[0]!.showSensitive).toBe(false)
    })

    it('keeps the choice to see sensitive animations, off until turned on', async () => {
      expect((await t.store.users.upsert('sam@example.com', { user_name: 'Sam' })).showSensitive).toBe(false)
      expect((await t.store.users.upsert('sam@example.com', { showSensitive: true })).showSensitive).toBe(true)
      t.store = await t.subject.reopen()
      expect(await t.store.users.get('sam@example.com')).toMatchObject({ user_name: 'Sam', showSensitive: true })
      expect((await t.store.users.upsert('sam@example.com', { showSensitive: false })).showSensitive).toBe(false)
    })

    it('sets a role once and answers 0 when nothing changes', async () => {
      await t.store.users.upsert('dan@example.com', {})
      expect(await t.store.users.setRole('dan@example.com', 'admin')).toBe(1)
      expect(await t.store.users.setRole('dan@example.com', 'admin')).toBe(0)
      expect(await t.store.users.setRole('nobody@example.com', 'admin')).toBe(0)
      expect((await t.store.users.get('dan@example.com'))?.role).toBe('admin')
      expect(await t.store.users.setRole('dan@example.com', 'user')).toBe(1)
      expect((await t.store.users.get('dan@example.com'))?.role).toBe('user')
    })

    it('keeps one user per email when first sign-ins race', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => t.store.users.upsert('eve@example.com', { user_name: `Eve ${i}` })),
      )
      expect(results.every((user) => user.email === 'eve@example.com')).toBe(true)
      const users = await t.store.users.list()
      expect(users).toHaveLength(1)
      expect(users[0]!.user_name).toMatch(/^Eve \d$/)
    })
  })

  describe('binding users to Firebase accounts', () => {
    it('binds an unbound user once; another uid is refused and the same uid is answered again', async () => {
      await t.store.users.upsert('gus@example.com', { user_name: 'Gus' })
      expect((await t.store.users.get('gus@example.com'))?.firebaseUid).toBeUndefined()
      expect(await t.store.users.bind('gus@example.com', 'uid-1')).toMatchObject({
        email: 'gus@example.com',
        user_name: 'Gus',
        firebaseUid: 'uid-1',
      })
      expect(await t.store.users.bind('gus@example.com', 'uid-2')).toBeUndefined()
      expect(await t.store.users.bind('gus@example.com', 'uid-1')).toMatchObject({ firebaseUid: 'uid-1' })
      expect(await t.store.users.bind('nobody@example.com', 'uid-1')).toBeUndefined()
      // Profile patches keep the binding.
      expect(await t.store.users.upsert('gus@example.com', { job: 'Guard' })).toMatchObject({ job: 'Guard', firebaseUid: 'uid-1' })
      expect((await t.store.users.list())[0]).toMatchObject({ firebaseUid: 'uid-1' })
    })

    it('lets exactly one of two racing binds win', async () => {
      await t.store.users.upsert('hal@example.com', {})
      const results = await Promise.all(['uid-a', 'uid-b', 'uid-a', 'uid-b'].map((uid) => t.store.users.bind('hal@example.com', uid)))
      const winner = (await t.store.users.get('hal@example.com'))!.firebaseUid
      expect(['uid-a', 'uid-b']).toContain(winner)
      for (const [i, result] of results.entries()) {
        expect(result?.firebaseUid).toBe(['uid-a', 'uid-b', 'uid-a', 'uid-b'][i] === winner ? winner : undefined)
      }
    })
  })
}

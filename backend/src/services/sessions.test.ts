import jwt from 'jsonwebtoken'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DomainError } from '../domain/errors'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { Store } from '../store/port'
import { createSessionService, type SessionIdentity } from './sessions'

const HOUR = 3600
const MAX_AGE = 24 * HOUR
const IDLE = 100 * 60
let temp: TempStore
let store: Store
let clock: number
const service = (options: { ttlSeconds?: number; idleSeconds?: number } = {}) =>
  createSessionService({
    store,
    secret: 's'.repeat(40),
    ttlSeconds: options.ttlSeconds ?? HOUR,
    maxAgeSeconds: MAX_AGE,
    idleSeconds: options.idleSeconds ?? IDLE,
    now: () => clock,
  })
const identity = (overrides: Partial<SessionIdentity> = {}): SessionIdentity => ({
  email: 'ana@example.com',
  uid: 'uid-ana',
  name: 'Ana',
  emailVerified: true,
  authTime: Math.floor(clock / 1000),
  ...overrides,
})
const exp = (token: string) => (jwt.decode(token) as { exp: number }).exp

async function reason(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DomainError)
  expect((error as DomainError).kind).toBe('unauthenticated')
  return ((error as DomainError).details as { reason: string }).reason
}

beforeEach(async () => {
  temp = await openTempStore('wumpus-sessions-')
  store = temp.store
  clock = Date.UTC(2026, 0, 1)
})
afterEach(async () => {
  await temp.close()
})

describe('sessions', () => {
  it('renews hour by hour up to the absolute end counted from the Firebase sign-in, and no further', async () => {
    const sessions = service()
    const signedInAt = Math.floor(clock / 1000)
    let token = await sessions.signIn(identity())
    expect(exp(token)).toBe(signedInAt + HOUR)
    // The app renews each hour with a fresh Firebase ID token (whose auth_time stays the sign-in's).
    for (let hour = 1; hour < 24; hour++) {
      clock += HOUR * 1000
      token = await sessions.signIn(identity({ authTime: signedInAt }), token)
      expect(exp(token)).toBe(Math.min(signedInAt + (hour + 1) * HOUR, signedInAt + MAX_AGE))
      await expect(sessions.check(token)).resolves.toMatchObject({ email: 'ana@example.com' })
    }
    clock += HOUR * 1000
    expect(await reason(sessions.check(token))).toBe('expired')
    expect(await reason(sessions.signIn(identity({ authTime: signedInAt }), token))).toBe('session-ended')
    // A fresh session needs a fresh Firebase sign-in (password or Google), not just a refreshed token.
    expect(await reason(sessions.signIn(identity({ authTime: signedInAt })))).toBe('sign-in-too-old')
    await expect(sessions.signIn(identity({ authTime: Math.floor(clock / 1000) }))).resolves.toBeTruthy()
  })

  it('refuses to renew a session with another Firebase account, or a token it did not sign', async () => {
    const sessions = service()
    const token = await sessions.signIn(identity())
    expect(await reason(sessions.signIn(identity({ uid: 'uid-mallory' }), token))).toBe('session-ended')
    const foreign = jwt.sign({ sid: 'x', email: 'ana@example.com' }, 'other'.repeat(10), {
      algorithm: 'HS256',
      issuer: 'wumpus-gallery',
      audience: 'wumpus-gallery',
    })
    expect(await reason(sessions.signIn(identity(), foreign))).toBe('invalid')
  })

  it('starts a new session when the token to renew is from before sessions existed', async () => {
    const sessions = service()
    const legacy = jwt.sign({ email: 'ana@example.com', name: 'Ana', email_verified: true }, 's'.repeat(40), {
      algorithm: 'HS256',
      issuer: 'wumpus-gallery',
      audience: 'wumpus-gallery',
      expiresIn: -10,
    })
    const token = await sessions.signIn(identity(), legacy)
    await expect(sessions.check(token)).resolves.toMatchObject({ email: 'ana@example.com' })
  })

  it('reissues a token with a new name but the same session and expiry', async () => {
    const sessions = service()
    const token = await sessions.signIn(identity())
    const claims = await sessions.check(token)
    clock += 30 * 60 * 1000
    const renamed = sessions.reissue(claims, 'Ana Lovelace')
    expect(await sessions.check(renamed)).toMatchObject({ sid: claims.sid, exp: claims.exp, name: 'Ana Lovelace' })
  })

  it('ends a session left unused for the idle time, while a used one goes on', async () => {
    // Tokens outlive the idle time here, so only the session's idleness can refuse them.
    const sessions = service({ ttlSeconds: 4 * HOUR })
    const used = await sessions.signIn(identity())
    const unused = await sessions.signIn(identity())
    for (let minute = 10; minute <= 3 * 60; minute += 10) {
      clock += 10 * 60 * 1000
      await expect(sessions.check(used)).resolves.toMatchObject({ email: 'ana@example.com' })
    }
    expect(await reason(sessions.check(unused))).toBe('session-idle')
    // Nor can it be renewed with a fresh Firebase token: sign in again.
    expect(await reason(sessions.signIn(identity(), unused))).toBe('session-idle')
    // A renewal is a use too.
    let renewed = used
    for (let hour = 0; hour < 3; hour++) {
      clock += HOUR * 1000
      renewed = await sessions.signIn(identity({ authTime: Math.floor(clock / 1000) - 60 }), renewed)
    }
    await expect(sessions.check(renewed)).resolves.toMatchObject({ email: 'ana@example.com' })
  })

  it('writes the last use to the store only once it is 1/100 of the idle time old', async () => {
    const sessions = service()
    const token = await sessions.signIn(identity())
    const start = clock
    const touch = vi.spyOn(store.sessions, 'touch')
    // A check every 10 s for 10 minutes: 60 checks; the idle time is 100 minutes, so a write a minute.
    for (let second = 10; second <= 600; second += 10) {
      clock += 10_000
      await sessions.check(token)
    }
    expect(touch).toHaveBeenCalledTimes(10)
    const { sid } = await sessions.check(token)
    expect((await store.sessions.get(sid))?.lastUsedAt).toEqual(new Date(start + 600_000))
  })

  it('ends every session of an account at once', async () => {
    const sessions = service()
    const first = await sessions.signIn(identity())
    const second = await sessions.signIn(identity())
    const someoneElse = await sessions.signIn(identity({ email: 'bo@example.com', uid: 'uid-bo' }))
    expect(await sessions.endAll('ana@example.com')).toBe(2)
    expect(await reason(sessions.check(first))).toBe('session-ended')
    expect(await reason(sessions.check(second))).toBe('session-ended')
    await expect(sessions.check(someoneElse)).resolves.toMatchObject({ email: 'bo@example.com' })
  })
})

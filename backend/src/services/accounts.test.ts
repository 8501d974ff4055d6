import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionClaims } from '../../../contract/user'
import { DomainError } from '../domain/errors'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { Store } from '../store/port'
import { addWumpus } from '../../test/support/test-server'
import { createLogger } from '../logger'
import { createAccountService, type AccountService } from './accounts'
import { createAuditLog } from './audit'
import { createSessionService } from './sessions'

const ADMIN = 'admin@example.com'
const USER = 'user@example.com'
let temp: TempStore
let store: Store
let accounts: AccountService

beforeEach(async () => {
  temp = await openTempStore('wumpus-accounts-')
  store = temp.store
  await store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
  await store.users.upsert(USER, { user_name: 'User Person' })
  const sessions = createSessionService({ store, secret: 'x'.repeat(32), ttlSeconds: 600, maxAgeSeconds: 3600, idleSeconds: 3600 })
  const audit = createAuditLog(store, createLogger('silent'))
  accounts = createAccountService({ store, sessions, audit, adminEmails: [], revokeSignIns: async () => undefined })
})
afterEach(async () => {
  await temp.close()
})

const session = (email: string, verified = true): SessionClaims => ({
  sid: 's',
  sub: `uid-${email}`,
  email,
  name: email,
  email_verified: verified,
  exp: 0,
  iat: 0,
})

async function kindOf(run: Promise<unknown>): Promise<string | undefined> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  )
  return error instanceof DomainError ? error.kind : undefined
}

describe('profiles', () => {
  it('reads a stored profile, and answers 404 for an email nobody signed in with', async () => {
    expect(await accounts.profileFor(session(USER), USER)).toMatchObject({ user: { email: USER, user_name: 'User Person' }, whole: true })
    expect(await kindOf(accounts.profileFor(session(ADMIN), 'nobody@example.com'))).toBe('not-found')
  })

  it("shows others only a contributor's public profile, and hides whether anyone else is registered", async () => {
    const other = session('other@example.com')
    expect(await kindOf(accounts.profileFor(other, USER))).toBe('not-found')
    expect(await accounts.profileFor(session(ADMIN), USER)).toMatchObject({ whole: true })
    expect(await kindOf(accounts.profileFor(session(ADMIN, false), USER))).toBe('not-found')
    await addWumpus(store, { u_email: USER })
    expect(await accounts.profileFor(other, USER)).toMatchObject({ user: { email: USER }, whole: false })
  })
})

describe('who may ask about a role', () => {
  it('answers anyone about themselves: admin power needs the role and a verified email', async () => {
    expect(await accounts.adminStatus(session(ADMIN), ADMIN)).toBe(true)
    expect(await accounts.adminStatus(session(ADMIN, false), ADMIN)).toBe(false)
    expect(await accounts.adminStatus(session(USER), USER)).toBe(false)
  })

  it('answers only verified admins about someone else', async () => {
    expect(await accounts.adminStatus(session(ADMIN), USER)).toBe(false)
    await store.users.setRole(USER, 'admin')
    expect(await accounts.adminStatus(session(ADMIN), USER)).toBe(true)
    await store.users.setRole(USER, 'user')
    expect(await kindOf(accounts.adminStatus(session(USER), ADMIN))).toBe('forbidden')
    expect(await kindOf(accounts.adminStatus(session(ADMIN, false), USER))).toBe('forbidden')
  })
})

describe('signing out everywhere', () => {
  const failingRevoker = async () => {
    throw new DomainError('unavailable', 'Sign-ins cannot be revoked right now, try again shortly')
  }
  const withRevoker = (revokeSignIns: (uid: string) => Promise<void>) => {
    const sessions = createSessionService({ store, secret: 'x'.repeat(32), ttlSeconds: 600, maxAgeSeconds: 3600, idleSeconds: 3600 })
    const audit = createAuditLog(store, createLogger('silent'))
    return { sessions, accounts: createAccountService({ store, sessions, audit, adminEmails: [], revokeSignIns }) }
  }
  const signedIn = async (sessions: ReturnType<typeof withRevoker>['sessions'], email: string) => {
    await store.users.bind(email, `uid-${email}`)
    const identity = { email, uid: `uid-${email}`, name: email, emailVerified: true, authTime: Math.floor(Date.now() / 1000) }
    return [await sessions.signIn(identity), await sessions.signIn(identity)]
  }
  const refused = async (sessions: ReturnType<typeof withRevoker>['sessions'], token: string) =>
    sessions.check(token).then(
      () => false,
      () => true,
    )

  it('ends our sessions first, and reports a Firebase revocation that failed as UNAVAILABLE', async () => {
    const { sessions, accounts } = withRevoker(failingRevoker)
    const tokens = await signedIn(sessions, USER)
    const error = await accounts.signOutEverywhere(USER).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(DomainError)
    expect(error).toMatchObject({ kind: 'unavailable', details: { reason: 'revocation-failed', endedCount: 2 } })
    for (const token of tokens) expect(await refused(sessions, token)).toBe(true)
  })

  it("ends a user's sessions for an admin and records it, then reports a failed revocation", async () => {
    const { sessions, accounts } = withRevoker(failingRevoker)
    const tokens = await signedIn(sessions, USER)
    expect(await kindOf(accounts.endSessionsOf(ADMIN, USER))).toBe('unavailable')
    for (const token of tokens) expect(await refused(sessions, token)).toBe(true)
    const { items } = await store.audit.list({ limit: 1 })
    expect(items[0]).toMatchObject({
      action: 'user.end-sessions',
      target: { id: USER },
      changes: [
        { field: 'sessions', from: '2', to: '0' },
        { field: 'signIns', to: 'not revoked' },
      ],
    })
  })

  it('answers how many sessions ended when the revocation works', async () => {
    const revoked: string[] = []
    const { sessions, accounts } = withRevoker(async (uid) => {
      revoked.push(uid)
    })
    await signedIn(sessions, USER)
    expect(await accounts.signOutEverywhere(USER)).toBe(2)
    expect(revoked).toEqual([`uid-${USER}`])
  })

  it("records only the sessions in the audit log when an admin's revocation works", async () => {
    const { sessions, accounts } = withRevoker(async () => undefined)
    await signedIn(sessions, USER)
    expect(await accounts.endSessionsOf(ADMIN, USER)).toBe(2)
    const { items } = await store.audit.list({ limit: 1 })
    expect(items[0]?.changes).toEqual([{ field: 'sessions', from: '2', to: '0' }])
  })
})

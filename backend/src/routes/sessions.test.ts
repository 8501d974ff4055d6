import jwt from 'jsonwebtoken'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { activityListSchema } from '../../../contract/audit'
import { endedSessionsSchema, sessionResponseSchema } from '../../../contract/user'
import { expectError } from '../../test/support/error-body'
import { createAccount, signIn, uniqueEmail, verifyEmail, type EmulatorAccount } from '../../test/support/firebase-emulator'
import { startTestServer, type TestServer } from '../../test/support/test-server'
import { unavailable } from '../domain/errors'
import { createLogger } from '../logger'

/** Every line the server logged, parsed: the security events are read from these. */
const lines: Record<string, unknown>[] = []
const securityEvents = () => lines.filter((line) => line.message === 'security event')

let server: TestServer
const ADMIN = uniqueEmail('boss')
beforeAll(async () => {
  const logger = createLogger('info', (line) => lines.push(JSON.parse(line) as Record<string, unknown>))
  server = await startTestServer({ ADMIN_EMAILS: ADMIN, LOG_LEVEL: 'info' }, { logger })
})
afterAll(() => server.close())
beforeEach(() => {
  lines.length = 0
})

const call = (method: string, path: string, token?: string) =>
  fetch(server.url + path, { method, headers: token ? { authorization: `Bearer ${token}` } : {} })
const profile = (email: string, token: string) => call('GET', `/api/profile/${email}`, token)

/** The app's sign-in exchange: a Firebase ID token for our session token (`session`: a renewal). */
async function exchange(email: string, idToken: string, session?: string): Promise<string> {
  const res = await fetch(`${server.url}/api/user/${encodeURIComponent(email)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ email, user_name: 'Session Tester', photo: '', ...(session ? { session } : {}) }),
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return sessionResponseSchema.parse(await res.json()).token
}

/** A verified account signed in on two devices. */
async function onTwoDevices(email = uniqueEmail('two')): Promise<{ account: EmulatorAccount; phone: string; laptop: string }> {
  const account = await createAccount({ email, displayName: 'Session Tester' })
  const phone = await exchange(email, await verifyEmail(account))
  const laptop = await exchange(email, await signIn(email))
  return { account, phone, laptop }
}

describe('DELETE /api/sessions (sign out everywhere)', () => {
  it("ends every session of the account, this one and the other device's, and no one else's", async () => {
    const { account, phone, laptop } = await onTwoDevices()
    const someoneElse = await onTwoDevices()
    expect((await profile(account.email, laptop)).status).toBe(200)
    const res = await call('DELETE', '/api/sessions', phone)
    expect(res.status).toBe(204)
    expect(res.headers.get('cache-control')).toBe('no-store')
    await expectError(await profile(account.email, phone), 401, 'UNAUTHENTICATED', 'session-ended')
    await expectError(await profile(account.email, laptop), 401, 'UNAUTHENTICATED', 'session-ended')
    // Nor can the other device renew its session with a fresh Firebase token: it signs in again.
    await expectError(
      await fetch(`${server.url}/api/user/${account.email}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await signIn(account.email)}` },
        body: JSON.stringify({ email: account.email, session: laptop }),
      }),
      401,
      'UNAUTHENTICATED',
      'session-ended',
    )
    expect((await profile(someoneElse.account.email, someoneElse.laptop)).status).toBe(200)
  })

  it("also revokes the account's Firebase sign-ins: a device's Firebase token cannot start a new session", async () => {
    const { account, phone } = await onTwoDevices()
    const kept = await signIn(account.email)
    const signedInAt = (jwt.decode(kept) as { auth_time: number }).auth_time
    // Revocation times have one-second resolution: let the clock pass the sign-in second first.
    await vi.waitFor(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(signedInAt), { timeout: 3000, interval: 50 })
    expect((await call('DELETE', '/api/sessions', phone)).status).toBe(204)
    const again = await fetch(`${server.url}/api/user/${account.email}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${kept}` },
      body: JSON.stringify({ email: account.email }),
    })
    await expectError(again, 401, 'UNAUTHENTICATED', 'revoked')
    // Signing in again with the password works.
    await exchange(account.email, await signIn(account.email))
  })

  it('needs a verified email, and a session', async () => {
    const email = uniqueEmail('unverified')
    const account = await createAccount({ email })
    const token = await exchange(email, account.idToken)
    await expectError(await call('DELETE', '/api/sessions', token), 403, 'FORBIDDEN', 'email-not-verified')
    expect((await profile(email, token)).status).toBe(200)
    await expectError(await call('DELETE', '/api/sessions'), 401, 'UNAUTHENTICATED', 'missing')
  })
})

describe('DELETE /api/admin/{email}/sessions', () => {
  let adminToken: string
  beforeAll(async () => {
    const admin = await createAccount({ email: ADMIN, displayName: 'The Boss' })
    adminToken = await exchange(ADMIN, await verifyEmail(admin))
  })

  it("ends every session of that user, answers how many, and is in the Activity log with the user's name", async () => {
    const { account, phone, laptop } = await onTwoDevices(uniqueEmail('kicked'))
    const signedUpAt = (jwt.decode(account.idToken) as { auth_time: number }).auth_time
    await vi.waitFor(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(signedUpAt), { timeout: 3000, interval: 50 })
    const res = await call('DELETE', `/api/admin/${account.email}/sessions`, adminToken)
    expect(res.status).toBe(200)
    expect(endedSessionsSchema.parse(await res.json())).toEqual({ endedCount: 2 })
    await expectError(await profile(account.email, phone), 401, 'UNAUTHENTICATED', 'session-ended')
    await expectError(await profile(account.email, laptop), 401, 'UNAUTHENTICATED', 'session-ended')
    expect((await profile(ADMIN, adminToken)).status).toBe(200)
    await expectError(
      await fetch(`${server.url}/api/user/${account.email}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.idToken}` },
        body: JSON.stringify({ email: account.email }),
      }),
      401,
      'UNAUTHENTICATED',
      'revoked',
    )
    const [latest] = activityListSchema.parse(await (await call('GET', '/api/activity', adminToken)).json())
    expect(latest).toMatchObject({
      actor: ADMIN,
      action: 'user.end-sessions',
      target: { type: 'user', id: account.email, name: 'Session Tester' },
      changes: [{ field: 'sessions', from: '2', to: '0' }],
    })
  })

  it('is refused to others (403) and to no session (401), and answers 404 for an unknown user', async () => {
    const { account, phone } = await onTwoDevices(uniqueEmail('target'))
    const other = await onTwoDevices(uniqueEmail('not-admin'))
    await expectError(await call('DELETE', `/api/admin/${account.email}/sessions`, other.phone), 403, 'FORBIDDEN')
    // Not even one's own sessions through the admin path.
    await expectError(await call('DELETE', `/api/admin/${other.account.email}/sessions`, other.phone), 403, 'FORBIDDEN')
    await expectError(await call('DELETE', `/api/admin/${account.email}/sessions`), 401, 'UNAUTHENTICATED')
    expect((await profile(account.email, phone)).status).toBe(200)
    await expectError(await call('DELETE', `/api/admin/${uniqueEmail('nobody')}/sessions`, adminToken), 404, 'NOT_FOUND')
  })
})

describe('security events', () => {
  it('logs sign-ins, renewals, refusals and ended sessions as JSON lines, without tokens or full emails', async () => {
    const email = uniqueEmail('logged')
    const account = await createAccount({ email })
    const idToken = await verifyEmail(account)
    const token = await exchange(email, idToken)
    const renewed = await exchange(email, await signIn(email), token)
    // Refused: a token for another address (403), no token (401), an admin route (403).
    const victim = uniqueEmail('victim')
    await fetch(`${server.url}/api/user/${victim}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({ email: victim }),
    })
    await call('GET', `/api/profile/${email}`)
    await call('GET', '/api/users', renewed)
    await call('DELETE', '/api/sessions', renewed)

    const masked = `${email[0]}***@example.com`
    expect(securityEvents()).toEqual([
      expect.objectContaining({ level: 'info', event: 'sign-in', outcome: 'success', renewal: false, account: masked }),
      expect.objectContaining({ event: 'sign-in', outcome: 'success', renewal: true, account: masked }),
      expect.objectContaining({ event: 'sign-in', outcome: 'refused', renewal: false, reason: 'email-mismatch', account: masked }),
      expect.objectContaining({ event: 'refused', status: 403, route: 'PUT /api/user/:email', reason: 'email-mismatch', account: masked }),
      expect.objectContaining({ event: 'refused', status: 401, route: 'GET /api/profile/:email', reason: 'missing' }),
      expect.objectContaining({ event: 'refused', status: 403, route: 'GET /api/users', account: masked }),
      expect.objectContaining({ event: 'sessions-ended', endedBy: 'self', count: 1, revoked: true, account: masked }),
    ])
    for (const event of securityEvents()) expect(event.ip).toBeTypeOf('string')
    const logged = lines.map((line) => JSON.stringify(line)).join('\n')
    for (const secret of [idToken, token, renewed, email, victim]) expect(logged).not.toContain(secret)
  })

  it('logs a refused sign-in with its reason, and who an admin signed out', async () => {
    const admin = await createAccount({ email: uniqueEmail('second-admin') })
    await exchange(admin.email, await verifyEmail(admin))
    await server.store.users.setRole(admin.email, 'admin')
    const adminToken = await exchange(admin.email, await signIn(admin.email))
    const { account, phone } = await onTwoDevices(uniqueEmail('ended'))
    lines.length = 0
    await call('DELETE', `/api/admin/${account.email}/sessions`, adminToken)
    const expired = await fetch(`${server.url}/api/user/${account.email}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await signIn(account.email)}` },
      body: JSON.stringify({ email: account.email, session: phone }),
    })
    expect(expired.status).toBe(401)
    expect(securityEvents()).toEqual([
      expect.objectContaining({
        event: 'sessions-ended',
        endedBy: 'admin',
        count: 2,
        revoked: true,
        account: `${account.email[0]}***@example.com`,
        actor: `${admin.email[0]}***@example.com`,
      }),
      expect.objectContaining({ event: 'sign-in', outcome: 'refused', renewal: true, reason: 'session-ended' }),
      expect.objectContaining({ event: 'refused', status: 401, route: 'PUT /api/user/:email', reason: 'session-ended' }),
    ])
    const logged = lines.map((line) => JSON.stringify(line)).join('\n')
    for (const secret of [phone, adminToken, account.email, admin.email]) expect(logged).not.toContain(secret)
  })
})

describe('when Firebase cannot revoke the sign-ins', () => {
  let failing: TestServer
  beforeAll(async () => {
    const logger = createLogger('info', (line) => lines.push(JSON.parse(line) as Record<string, unknown>))
    // As the default revoker answers when firebase-admin fails.
    const revokeSignIns = async () => {
      throw unavailable('Sign-ins cannot be revoked right now, try again shortly')
    }
    failing = await startTestServer({ LOG_LEVEL: 'info' }, { logger, revokeSignIns })
  })
  afterAll(() => failing.close())

  /** An account bound to a Firebase account (so its sign-ins are to be revoked), signed in on two devices. */
  async function onTwoDevicesOfFailing(email: string): Promise<{ phone: string; laptop: string }> {
    await failing.store.users.upsert(email, { user_name: 'Session Tester' })
    await failing.store.users.bind(email, `uid-of-${email}`)
    return { phone: await failing.sessionToken(email), laptop: await failing.sessionToken(email) }
  }
  const masked = (email: string) => `${email[0]}***@example.com`

  it('ends our sessions all the same, answers 503 and logs that the sign-ins were not revoked', async () => {
    const email = uniqueEmail('unrevoked')
    const { phone, laptop } = await onTwoDevicesOfFailing(email)
    lines.length = 0
    const error = await expectError(await failing.call('DELETE', '/api/sessions', phone), 503, 'STORE_UNAVAILABLE', 'revocation-failed')
    expect(error.details).toEqual({ reason: 'revocation-failed', endedCount: 2 })
    await expectError(await failing.call('GET', `/api/profile/${email}`, laptop), 401, 'UNAUTHENTICATED', 'session-ended')
    expect(securityEvents()[0]).toEqual(
      expect.objectContaining({
        event: 'sessions-ended',
        endedBy: 'self',
        count: 2,
        revoked: false,
        reason: 'revocation-failed',
        account: masked(email),
      }),
    )
    expect(lines.map((line) => JSON.stringify(line)).join('\n')).not.toContain(email)
  })

  it("for an admin: logs it, and the activity log says the user's sessions ended but their sign-ins were not revoked", async () => {
    const admin = uniqueEmail('failing-admin')
    await failing.store.users.upsert(admin, { user_name: 'The Boss', role: 'admin' })
    const adminToken = await failing.sessionToken(admin)
    const email = uniqueEmail('unrevoked-by-admin')
    const { phone } = await onTwoDevicesOfFailing(email)
    lines.length = 0
    await expectError(
      await failing.call('DELETE', `/api/admin/${email}/sessions`, adminToken),
      503,
      'STORE_UNAVAILABLE',
      'revocation-failed',
    )
    await expectError(await failing.call('GET', `/api/profile/${email}`, phone), 401, 'UNAUTHENTICATED', 'session-ended')
    expect(securityEvents()[0]).toEqual(
      expect.objectContaining({
        event: 'sessions-ended',
        endedBy: 'admin',
        count: 2,
        revoked: false,
        reason: 'revocation-failed',
        account: masked(email),
        actor: masked(admin),
      }),
    )
    const [latest] = activityListSchema.parse(await (await failing.call('GET', '/api/activity', adminToken)).json())
    expect(latest).toMatchObject({
      actor: admin,
      action: 'user.end-sessions',
      target: { type: 'user', id: email, name: 'Session Tester' },
      changes: [
        { field: 'sessions', from: '2', to: '0' },
        { field: 'signIns', to: 'not revoked' },
      ],
    })
  })
})

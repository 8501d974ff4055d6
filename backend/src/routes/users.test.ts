import jwt from 'jsonwebtoken'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { profileUpdateResponseSchema, sessionClaimsSchema, sessionResponseSchema, userSchema } from '../../../contract/user'
import { createAccount, signIn, uniqueEmail, updateAccount } from '../../test/support/firebase-emulator'
import { errorBody } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'
import { firebaseAdminAuth } from '../auth/firebase-admin'

let server: TestServer
const ADMIN = uniqueEmail('boss')
beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN })
})
afterAll(() => server.close())

const put = (email: string, token: string | undefined, body: unknown) =>
  fetch(`${server.url}/api/user/${encodeURIComponent(email)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
const get = (path: string, token?: string) => fetch(server.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} })

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(errorBody(await res.json()).error.code).toBe(code)
}

/** Signs up in the emulator and exchanges the ID token, as the app does after sign-up. */
async function register(email = uniqueEmail(), user_name = 'Test User') {
  const account = await createAccount({ email, displayName: user_name })
  const res = await put(email, account.idToken, { email, user_name, photo: '' })
  expect(res.status).toBe(200)
  return { account, ...sessionResponseSchema.parse(await res.json()) }
}

describe('PUT /api/user/{email} with a Firebase ID token (sign-in exchange)', () => {
  it('registers the user and answers our own HS256 session token of about an hour', async () => {
    const email = uniqueEmail('ana')
    const { token, user } = await register(email, 'Ana Lovelace')
    expect(user).toEqual({ email, user_name: 'Ana Lovelace', role: 'user', photo: '', cover: '', url: '', job: '', description: '' })
    const decoded = jwt.decode(token, { complete: true })!
    expect(decoded.header.alg).toBe('HS256')
    const claims = sessionClaimsSchema.parse(decoded.payload)
    expect(claims).toMatchObject({ email, name: 'Ana Lovelace', email_verified: false })
    expect(claims.exp - claims.iat).toBe(3600)
    expect(await server.store.getUser(email)).toMatchObject({ user_name: 'Ana Lovelace' })
  })

  it('keeps the name a returning user chose here', async () => {
    const { account, token } = await register(uniqueEmail(), 'First Name')
    await put(account.email, token, { user_name: 'Chosen Name' })
    const again = await put(account.email, await signIn(account.email), { email: account.email, user_name: 'First Name', photo: '' })
    expect(sessionResponseSchema.parse(await again.json()).user.user_name).toBe('Chosen Name')
  })

  it('makes an ADMIN_EMAILS address an admin when it first registers', async () => {
    expect((await register(ADMIN, 'The Boss')).user.role).toBe('admin')
  })

  it('reports a verified email in the session once the provider says so', async () => {
    const { account } = await register()
    await updateAccount(account.uid, { emailVerified: true })
    const res = await put(account.email, await signIn(account.email), { email: account.email, user_name: '', photo: '' })
    const { token } = sessionResponseSchema.parse(await res.json())
    expect(sessionClaimsSchema.parse(jwt.decode(token)).email_verified).toBe(true)
  })

  it('refuses a token for another email with 403', async () => {
    const account = await createAccount()
    const other = uniqueEmail('victim')
    await expectError(await put(other, account.idToken, { email: other, user_name: 'x', photo: '' }), 403, 'FORBIDDEN')
    expect(await server.store.getUser(other)).toBeUndefined()
  })

  it('refuses a missing token, a token signed with a key, and an unsigned token for no account, with 401', async () => {
    const email = uniqueEmail()
    const body = { email, user_name: 'x', photo: '' }
    await expectError(await put(email, undefined, body), 401, 'UNAUTHENTICATED')
    const claims = { iss: 'https://securetoken.google.com/demo-wumpus', aud: 'demo-wumpus', sub: 'no-such-uid', email, auth_time: 1, iat: Math.floor(Date.now() / 1000) }
    await expectError(await put(email, jwt.sign(claims, 'x'.repeat(32), { algorithm: 'HS256' }), body), 401, 'UNAUTHENTICATED')
    await expectError(await put(email, jwt.sign(claims, '', { algorithm: 'none' }), body), 401, 'UNAUTHENTICATED')
    expect(await server.store.getUser(email)).toBeUndefined()
  })

  it('refuses an ID token once the account was revoked', async () => {
    const account = await createAccount()
    const authTime = (jwt.decode(account.idToken) as { auth_time: number }).auth_time
    // Revocation times have one-second resolution: let the clock pass the sign-in second first.
    await vi.waitFor(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(authTime), { timeout: 3000, interval: 50 })
    await firebaseAdminAuth(server.config).revokeRefreshTokens(account.uid)
    const res = await put(account.email, account.idToken, { email: account.email, user_name: 'x', photo: '' })
    expect(res.status).toBe(401)
    expect((await res.json()).error.details.reason).toBe('revoked')
  })

  it('refuses bad bodies with 400 and stores nothing', async () => {
    const account = await createAccount()
    for (const body of [{ email: account.email, user_name: { $gt: '' } }, { email: account.email, role: 'admin' }, { email: uniqueEmail() }, [1, 2]]) {
      await expectError(await put(account.email, account.idToken, body), 400, 'BAD_REQUEST')
    }
    expect(await server.store.getUser(account.email)).toBeUndefined()
  })
})

describe('PUT /api/user/{email} with our session token (profile update)', () => {
  it('updates only the given fields of one own profile and renews the token', async () => {
    const { account, token } = await register(uniqueEmail(), 'Old Name')
    const res = await put(account.email, token, { user_name: 'New Name', job: 'Animator', url: 'https://example.com/me' })
    expect(res.status).toBe(200)
    const body = profileUpdateResponseSchema.parse(await res.json())
    expect(body.modifiedCount).toBe(1)
    expect(body.user).toMatchObject({ user_name: 'New Name', job: 'Animator', url: 'https://example.com/me', description: '' })
    expect(sessionClaimsSchema.parse(jwt.decode(body.token)).name).toBe('New Name')
  })

  it('answers modifiedCount 0 when nothing changes', async () => {
    const { account, token } = await register(uniqueEmail(), 'Same Name')
    const body = profileUpdateResponseSchema.parse(await (await put(account.email, token, { user_name: 'Same Name' })).json())
    expect(body.modifiedCount).toBe(0)
  })

  it("refuses to change someone else's profile with 403", async () => {
    const victim = await register(uniqueEmail('victim'), 'Victim Name')
    const attacker = await register(uniqueEmail('attacker'), 'Attacker')
    await expectError(await put(victim.account.email, attacker.token, { user_name: 'Pwned' }), 403, 'FORBIDDEN')
    expect((await server.store.getUser(victim.account.email))!.user_name).toBe('Victim Name')
  })

  it.each([
    ['an unknown key', { role: 'admin' }],
    ['an operator object', { user_name: { $set: 'x' } }],
    ['a wrong type', { job: 42 }],
    ['a javascript: link', { url: 'javascript:alert(1)' }],
    ['a photo on a foreign http host', { photo: 'http://evil.example.com/x.png' }],
    ['a name with markup', { user_name: '<b>x</b>' }],
  ])('refuses %s with 400', async (_, body) => {
    const { account, token } = await register()
    await expectError(await put(account.email, token, body), 400, 'BAD_REQUEST')
  })

  it('refuses an expired session with 401 saying it expired', async () => {
    const { account } = await register()
    const expired = server.sessionToken(account.email, { ttlSeconds: -10 })
    const res = await put(account.email, expired, { job: 'x' })
    expect(res.status).toBe(401)
    expect((await res.json()).error.details.reason).toBe('expired')
  })

  it('refuses a session token signed with another secret', async () => {
    const { account } = await register()
    const forged = jwt.sign({ email: account.email, name: 'x', email_verified: true }, 'y'.repeat(40), {
      algorithm: 'HS256', issuer: 'wumpus-gallery', audience: 'wumpus-gallery', subject: account.email, expiresIn: 600,
    })
    await expectError(await put(account.email, forged, { job: 'x' }), 401, 'UNAUTHENTICATED')
  })
})

describe('GET /api/profile/{email}', () => {
  it('answers the profile to a signed-in user, 401 to anyone else, 404 for nobody', async () => {
    const { account, token } = await register(uniqueEmail(), 'Profile Owner')
    const reader = server.sessionToken(uniqueEmail('reader'))
    const res = await get(`/api/profile/${account.email}`, reader)
    expect(res.status).toBe(200)
    expect(userSchema.parse(await res.json())).toMatchObject({ email: account.email, user_name: 'Profile Owner' })
    await expectError(await get(`/api/profile/${account.email}`), 401, 'UNAUTHENTICATED')
    await expectError(await get(`/api/profile/${uniqueEmail('ghost')}`, token), 404, 'NOT_FOUND')
  })
})

describe('GET /api/admin/{email}', () => {
  it('answers for oneself, refuses questions about others unless asked by an admin', async () => {
    const user = await register()
    const admin = await register(uniqueEmail('admin'), 'An Admin')
    await server.store.setRole(admin.account.email, 'admin')
    expect(await (await get(`/api/admin/${user.account.email}`, user.token)).json()).toEqual({ admin: false })
    expect(await (await get(`/api/admin/${admin.account.email}`, admin.token)).json()).toEqual({ admin: true })
    await expectError(await get(`/api/admin/${admin.account.email}`, user.token), 403, 'FORBIDDEN')
    expect(await (await get(`/api/admin/${user.account.email}`, admin.token)).json()).toEqual({ admin: false })
    await expectError(await get(`/api/admin/${user.account.email}`), 401, 'UNAUTHENTICATED')
  })
})

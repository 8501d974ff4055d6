import jwt from 'jsonwebtoken'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { activityListSchema } from '../../../contract/audit'
import {
  profileUpdateResponseSchema,
  publicProfileSchema,
  sessionClaimsSchema,
  sessionResponseSchema,
  userSchema,
} from '../../../contract/user'
import {
  createAccount,
  deleteAccount,
  forgedIdToken,
  signIn,
  uniqueEmail,
  updateAccount,
  verifyEmail,
  type EmulatorAccount,
} from '../../test/support/firebase-emulator'
import { errorBody, expectError } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'
import { firebaseAdminAuth } from '../auth/firebase-admin'
import { stillPng } from '../../test/fixtures/png'

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
const signOut = (token: string) => fetch(`${server.url}/api/session`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })
const claimsOf = (token: string) => sessionClaimsSchema.parse(jwt.decode(token))

/** The app's exchange after a Firebase sign-in (with `session`, a renewal of that session). */
async function exchange(
  account: EmulatorAccount,
  idToken = account.idToken,
  extra: { user_name?: string; photo?: string; session?: string } = {},
) {
  const res = await put(account.email, idToken, {
    email: account.email,
    user_name: extra.user_name ?? 'Test User',
    photo: extra.photo ?? '',
    ...(extra.session ? { session: extra.session } : {}),
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return sessionResponseSchema.parse(await res.json())
}

/** Signs up in the emulator and exchanges the ID token, as the app does after sign-up (email not verified yet). */
async function register(email = uniqueEmail(), user_name = 'Test User') {
  const account = await createAccount({ email, displayName: user_name })
  return { account, ...(await exchange(account, account.idToken, { user_name })) }
}

/** A user who signed up and verified their email, signed in again: bound and verified. */
async function verifiedUser(email = uniqueEmail(), user_name = 'Test User', photo = '') {
  const account = await createAccount({ email, displayName: user_name })
  const idToken = await verifyEmail(account)
  return { account, ...(await exchange(account, idToken, { user_name, photo })) }
}

describe('PUT /api/user/{email} with a Firebase ID token (sign-in exchange)', () => {
  it('keeps a name the sign-in brings within the name rules', async () => {
    const { user } = await verifiedUser(uniqueEmail('jose'), 'José <b>Bold</b>')
    expect(user.user_name).toBe('Jose b Bold b')
  })

  it('registers an unverified sign-in as a bare record and answers an HS256 session token of about an hour', async () => {
    const email = uniqueEmail('ana')
    const { token, user } = await register(email, 'Ana Lovelace')
    // Without a verified email nothing from the sign-in is kept, not even the name.
    expect(user).toEqual({
      email,
      user_name: '',
      role: 'user',
      photo: '',
      cover: '',
      url: '',
      job: '',
      description: '',
      showSensitive: false,
    })
    const decoded = jwt.decode(token, { complete: true })!
    expect(decoded.header.alg).toBe('HS256')
    const claims = claimsOf(token)
    expect(claims).toMatchObject({ email, name: 'Ana Lovelace', email_verified: false })
    expect(claims.sid).toMatch(/^[0-9a-f]{32}$/)
    expect(claims.exp - claims.iat).toBe(3600)
    expect(await server.store.users.get(email)).toMatchObject({ user_name: '' })
    expect((await server.store.users.get(email))?.firebaseUid).toBeUndefined()
  })

  it('binds the account to its Firebase uid at the first verified sign-in, and fills in name and photo then', async () => {
    const email = uniqueEmail('bea')
    const { account, token } = await register(email, 'Bea Verified')
    const upload = new FormData()
    upload.append('file', new Blob([new Uint8Array(stillPng(4, 4))]), 'me.png')
    const { url: photo } = (await (
      await fetch(`${server.url}/api/uploads/image`, { method: 'POST', body: upload, headers: { authorization: `Bearer ${token}` } })
    ).json()) as { url: string }
    const signedIn = await exchange(account, await verifyEmail(account), { user_name: 'Bea Verified', photo })
    expect(signedIn.user).toMatchObject({ user_name: 'Bea Verified', photo })
    expect(claimsOf(signedIn.token).email_verified).toBe(true)
    expect((await server.store.users.get(email))?.firebaseUid).toBe(account.uid)
  })

  it('keeps the name a returning user chose here', async () => {
    const { account, token } = await verifiedUser(uniqueEmail(), 'First Name')
    expect((await put(account.email, token, { user_name: 'Chosen Name' })).status).toBe(200)
    const again = await exchange(account, await signIn(account.email), { user_name: 'First Name' })
    expect(again.user.user_name).toBe('Chosen Name')
  })

  it('refuses another Firebase account for an email bound to one, verified or not, and changes nothing', async () => {
    const email = uniqueEmail('bound')
    const owner = await verifiedUser(email, 'Rightful Owner')
    // The email's Firebase account is deleted and made again: a new uid, as an attacker would get.
    await deleteAccount(owner.account.uid)
    const impostor = await createAccount({ email })
    const body = { email, user_name: 'Impostor', photo: '' }
    await expectError(await put(email, impostor.idToken, body), 403, 'FORBIDDEN', 'account-bound')
    await expectError(await put(email, await verifyEmail(impostor), body), 403, 'FORBIDDEN', 'account-bound')
    expect(await server.store.users.get(email)).toMatchObject({ user_name: 'Rightful Owner', firebaseUid: owner.account.uid })
  })

  it('never lets an unverified sign-in change an existing record, nor its session change the profile', async () => {
    const email = uniqueEmail('contributor')
    await server.store.users.upsert(email, { user_name: 'Real Contributor', description: 'Draws wumpuses' })
    const squatter = await createAccount({ email })
    const { token, user } = await exchange(squatter, squatter.idToken, { user_name: 'Pwned', photo: 'https://evil.example.com/x.png' })
    expect(user).toMatchObject({ user_name: 'Real Contributor', photo: '' })
    await expectError(await put(email, token, { user_name: 'Pwned' }), 403, 'FORBIDDEN', 'email-not-verified')
    expect(await server.store.users.get(email)).toMatchObject({ user_name: 'Real Contributor', description: 'Draws wumpuses' })
  })

  it('makes an ADMIN_EMAILS address an admin only on a sign-in with the email verified, and logs it', async () => {
    const { account } = await register(ADMIN, 'The Boss')
    expect((await server.store.users.get(ADMIN))?.role).toBe('user')
    const { user, token } = await exchange(account, await verifyEmail(account), { user_name: 'The Boss' })
    expect(user.role).toBe('admin')
    expect(await (await get(`/api/admin/${ADMIN}`, token)).json()).toEqual({ admin: true })
    const activity = activityListSchema.parse(await (await get('/api/activity', token)).json())
    expect(activity).toContainEqual(
      expect.objectContaining({ actor: 'ADMIN_EMAILS', action: 'user.make-admin', target: { type: 'user', id: ADMIN, name: 'The Boss' } }),
    )
  })

  it("takes the email and its verified flag from the emulator's account, not from the unsigned token", async () => {
    const account = await createAccount({ email: uniqueEmail('forger') })
    // A hand-written emulator token claiming a verified email: the account says otherwise.
    const forged = forgedIdToken({ sub: account.uid, user_id: account.uid, email: account.email, email_verified: true })
    const { token } = await exchange(account, forged)
    expect(claimsOf(token).email_verified).toBe(false)
    // Claiming another account's email does not make it that account's.
    const victim = uniqueEmail('victim')
    const claimingVictim = forgedIdToken({ sub: account.uid, email: victim, email_verified: true })
    await expectError(await put(victim, claimingVictim, { email: victim, user_name: 'x', photo: '' }), 403, 'FORBIDDEN')
    expect(await server.store.users.get(victim)).toBeUndefined()
  })

  it('refuses sign-ins with addresses on reserved domains, such as the demo content owner', async () => {
    const account = await createAccount({ email: `studio-${Date.now()}@wumpus.invalid` })
    const res = await put(account.email, account.idToken, { email: account.email, user_name: 'x', photo: '' })
    await expectError(res, 403, 'FORBIDDEN', 'reserved-email')
  })

  it('refuses a token for another email with 403', async () => {
    const account = await createAccount()
    const other = uniqueEmail('victim')
    await expectError(await put(other, account.idToken, { email: other, user_name: 'x', photo: '' }), 403, 'FORBIDDEN')
    expect(await server.store.users.get(other)).toBeUndefined()
  })

  it('refuses a missing token, a token signed with a key, and an unsigned token for no account, with 401', async () => {
    const email = uniqueEmail()
    const body = { email, user_name: 'x', photo: '' }
    await expectError(await put(email, undefined, body), 401, 'UNAUTHENTICATED')
    const claims = {
      iss: 'https://securetoken.google.com/demo-wumpus',
      aud: 'demo-wumpus',
      sub: 'no-such-uid',
      email,
      auth_time: 1,
      iat: Math.floor(Date.now() / 1000),
    }
    await expectError(await put(email, jwt.sign(claims, 'x'.repeat(32), { algorithm: 'HS256' }), body), 401, 'UNAUTHENTICATED')
    await expectError(await put(email, jwt.sign(claims, '', { algorithm: 'none' }), body), 401, 'UNAUTHENTICATED')
    expect(await server.store.users.get(email)).toBeUndefined()
  })

  it('refuses an ID token once the account was revoked', async () => {
    const account = await createAccount()
    const authTime = (jwt.decode(account.idToken) as { auth_time: number }).auth_time
    // Revocation times have one-second resolution: let the clock pass the sign-in second first.
    await vi.waitFor(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(authTime), { timeout: 3000, interval: 50 })
    await firebaseAdminAuth(server.config).revokeRefreshTokens(account.uid)
    const res = await put(account.email, account.idToken, { email: account.email, user_name: 'x', photo: '' })
    expect(res.status).toBe(401)
    expect((errorBody(await res.json()).error.details as { reason: string }).reason).toBe('revoked')
  })

  it('refuses bad bodies with 400 and stores nothing', async () => {
    const account = await createAccount()
    for (const body of [
      { email: account.email, user_name: { $gt: '' } },
      { email: account.email, role: 'admin' },
      { email: uniqueEmail() },
      [1, 2],
    ]) {
      await expectError(await put(account.email, account.idToken, body), 400, 'BAD_REQUEST')
    }
    expect(await server.store.users.get(account.email)).toBeUndefined()
  })
})

describe('sessions', () => {
  it('DELETE /api/session ends the session: its token and renewals of it are refused, other sessions go on', async () => {
    const { account, token } = await verifiedUser()
    const other = await exchange(account, await signIn(account.email))
    const renamed = profileUpdateResponseSchema.parse(await (await put(account.email, token, { job: 'Before sign-out' })).json()).token
    expect((await signOut(token)).status).toBe(204)
    await expectError(await get(`/api/profile/${account.email}`, token), 401, 'UNAUTHENTICATED', 'session-ended')
    // The token a profile update gave for that session ends with it.
    await expectError(await put(account.email, renamed, { job: 'After' }), 401, 'UNAUTHENTICATED', 'session-ended')
    await expectError(
      await put(account.email, await signIn(account.email), { email: account.email, user_name: '', photo: '', session: token }),
      401,
      'UNAUTHENTICATED',
      'session-ended',
    )
    await expectError(await signOut(token), 401, 'UNAUTHENTICATED')
    expect((await get(`/api/profile/${account.email}`, other.token)).status).toBe(200)
  })

  it('renews a session with a fresh Firebase token: same session, verified flag and account checked again', async () => {
    const { account, token } = await register()
    const renewed = await exchange(account, await verifyEmail(account), { session: token })
    expect(claimsOf(renewed.token)).toMatchObject({ sid: claimsOf(token).sid, email_verified: true })
    // Renewing re-checks the Firebase account: a disabled one is refused.
    await updateAccount(account.uid, { disableUser: true })
    const refused = await put(account.email, forgedIdToken({ sub: account.uid, email: account.email }), {
      email: account.email,
      user_name: '',
      photo: '',
      session: renewed.token,
    })
    await expectError(refused, 401, 'UNAUTHENTICATED', 'disabled')
  })

  it("ends an email's earlier sessions when it is first bound, but the one being renewed", async () => {
    const { account, token: firstDevice } = await register()
    const secondDevice = (await exchange(account)).token
    const idToken = await verifyEmail(account)
    const renewed = await exchange(account, idToken, { session: secondDevice })
    await expectError(await get(`/api/profile/${account.email}`, firstDevice), 401, 'UNAUTHENTICATED', 'session-ended')
    expect((await get(`/api/profile/${account.email}`, renewed.token)).status).toBe(200)
  })

  it('ends a session left unused for SESSION_IDLE_SECONDS; one in use goes on', async () => {
    let clock = Date.now()
    // Tokens live a day here, so only idleness can refuse them.
    const idle = await startTestServer({ SESSION_IDLE_SECONDS: '3600', JWT_TTL_SECONDS: '86400' }, { now: () => clock })
    try {
      const account = await createAccount()
      const idToken = await verifyEmail(account)
      const signInThere = async (token = idToken, session?: string) =>
        fetch(`${idle.url}/api/user/${account.email}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ email: account.email, ...(session ? { session } : {}) }),
        })
      const inUse = sessionResponseSchema.parse(await (await signInThere()).json()).token
      const leftAlone = sessionResponseSchema.parse(await (await signInThere()).json()).token
      const profile = (token: string) =>
        fetch(`${idle.url}/api/profile/${account.email}`, { headers: { authorization: `Bearer ${token}` } })
      clock += 50 * 60_000
      expect((await profile(inUse)).status).toBe(200)
      clock += 20 * 60_000
      expect((await profile(inUse)).status).toBe(200)
      await expectError(await profile(leftAlone), 401, 'UNAUTHENTICATED', 'session-idle')
      // A fresh Firebase token cannot renew it either: the user signs in again.
      await expectError(await signInThere(await signIn(account.email), leftAlone), 401, 'UNAUTHENTICATED', 'session-idle')
    } finally {
      await idle.close()
    }
  })

  it('never outlives its absolute end, counted from the Firebase sign-in', async () => {
    const short = await startTestServer({ SESSION_MAX_AGE_SECONDS: '300' })
    try {
      const account = await createAccount()
      const authTime = (jwt.decode(account.idToken) as { auth_time: number }).auth_time
      const res = await fetch(`${short.url}/api/user/${account.email}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.idToken}` },
        body: JSON.stringify({ email: account.email }),
      })
      const { token } = sessionResponseSchema.parse(await res.json())
      // The token lives an hour at most, but never past the session's end (see sessions.test.ts for renewals).
      expect(claimsOf(token).exp).toBeLessThanOrEqual(authTime + 300)
    } finally {
      await short.close()
    }
  })
})

describe('PUT /api/user/{email} with our session token (profile update)', () => {
  it('updates only the given fields of one own profile; the new token keeps the session and its expiry', async () => {
    const { account, token } = await verifiedUser(uniqueEmail(), 'Old Name')
    const res = await put(account.email, token, { user_name: 'New Name', job: 'Animator', url: 'https://example.com/me' })
    expect(res.status).toBe(200)
    const body = profileUpdateResponseSchema.parse(await res.json())
    expect(body.modifiedCount).toBe(1)
    expect(body.user).toMatchObject({ user_name: 'New Name', job: 'Animator', url: 'https://example.com/me', description: '' })
    const before = claimsOf(token)
    expect(claimsOf(body.token)).toMatchObject({ name: 'New Name', sid: before.sid, exp: before.exp })
  })

  it('answers modifiedCount 0 when nothing changes', async () => {
    const { account, token } = await verifiedUser(uniqueEmail(), 'Same Name')
    const body = profileUpdateResponseSchema.parse(await (await put(account.email, token, { user_name: 'Same Name' })).json())
    expect(body.modifiedCount).toBe(0)
  })

  it('needs a verified email', async () => {
    const { account, token } = await register(uniqueEmail(), 'Not Yet')
    await expectError(await put(account.email, token, { job: 'Animator' }), 403, 'FORBIDDEN', 'email-not-verified')
    expect((await server.store.users.get(account.email))?.job).toBe('')
  })

  it("refuses to change someone else's profile with 403", async () => {
    const victim = await verifiedUser(uniqueEmail('victim'), 'Victim Name')
    const attacker = await verifiedUser(uniqueEmail('attacker'), 'Attacker')
    await expectError(await put(victim.account.email, attacker.token, { user_name: 'Pwned' }), 403, 'FORBIDDEN')
    expect((await server.store.users.get(victim.account.email))!.user_name).toBe('Victim Name')
  })

  it('takes as photo or cover only an image this user uploaded', async () => {
    const mine = await verifiedUser()
    const theirs = await verifiedUser()
    const uploadAs = async (token: string) => {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(stillPng(4, 4))]), 'p.png')
      return (
        (await (
          await fetch(`${server.url}/api/uploads/image`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })
        ).json()) as { url: string }
      ).url
    }
    const own = await uploadAs(mine.token)
    const foreign = await uploadAs(theirs.token)
    await expectError(await put(mine.account.email, mine.token, { photo: foreign }), 400, 'BAD_REQUEST')
    await expectError(await put(mine.account.email, mine.token, { cover: '/api/files/abcdefabcdefabcdefabcdef/x.png' }), 400, 'BAD_REQUEST')
    expect((await put(mine.account.email, mine.token, { photo: own, cover: 'https://example.com/cover.png' })).status).toBe(200)
  })

  it.each([
    ['an unknown key', { role: 'admin' }],
    ['an operator object', { user_name: { $set: 'x' } }],
    ['a wrong type', { job: 42 }],
    ['a javascript: link', { url: 'javascript:alert(1)' }],
    ['a photo on a foreign http host', { photo: 'http://evil.example.com/x.png' }],
    ['a name with markup', { user_name: '<b>x</b>' }],
  ])('refuses %s with 400', async (_, body) => {
    const { account, token } = await verifiedUser()
    await expectError(await put(account.email, token, body), 400, 'BAD_REQUEST')
  })

  it('refuses an expired session with 401 saying it expired', async () => {
    const { account } = await verifiedUser()
    const expired = await server.sessionToken(account.email, { ttlSeconds: -10 })
    const res = await put(account.email, expired, { job: 'x' })
    expect(res.status).toBe(401)
    expect((errorBody(await res.json()).error.details as { reason: string }).reason).toBe('expired')
  })

  it('refuses a session token signed with another secret', async () => {
    const { account, token } = await verifiedUser()
    const forged = jwt.sign({ sid: claimsOf(token).sid, email: account.email, name: 'x', email_verified: true }, 'y'.repeat(40), {
      algorithm: 'HS256',
      issuer: 'wumpus-gallery',
      audience: 'wumpus-gallery',
      subject: account.email,
      expiresIn: 600,
    })
    await expectError(await put(account.email, forged, { job: 'x' }), 401, 'UNAUTHENTICATED')
  })
})

describe('GET /api/profile/{email}', () => {
  it('answers the profile to a signed-in user, 401 to anyone else, 404 for nobody', async () => {
    const { account, token } = await verifiedUser(uniqueEmail(), 'Profile Owner')
    await addWumpus(server.store, { u_email: account.email, u_name: 'Profile Owner' })
    const reader = await server.sessionToken(uniqueEmail('reader'))
    const res = await get(`/api/profile/${account.email}`, reader)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(publicProfileSchema.parse(await res.json())).toMatchObject({ email: account.email, user_name: 'Profile Owner' })
    await expectError(await get(`/api/profile/${account.email}`), 401, 'UNAUTHENTICATED')
    await expectError(await get(`/api/profile/${uniqueEmail('ghost')}`, token), 404, 'NOT_FOUND')
  })

  it("shows a contributor's public profile without the role, and hides whether anyone else is registered", async () => {
    const contributor = await verifiedUser(uniqueEmail('maker'), 'Public Maker')
    await server.store.users.setRole(contributor.account.email, 'admin')
    await addWumpus(server.store, { u_email: contributor.account.email, u_name: 'Public Maker' })
    const quiet = await verifiedUser(uniqueEmail('quiet'), 'Quiet One')
    const stranger = await server.sessionToken(uniqueEmail('stranger'), { emailVerified: false })

    const shown = (await (await get(`/api/profile/${contributor.account.email}`, stranger)).json()) as Record<string, unknown>
    expect(shown).toMatchObject({ email: contributor.account.email, user_name: 'Public Maker' })
    expect(shown).not.toHaveProperty('role')

    // A registered user with no animation is answered exactly like an unknown email.
    const unknown = await get(`/api/profile/${uniqueEmail('ghost')}`, stranger)
    const registered = await get(`/api/profile/${quiet.account.email}`, stranger)
    expect([registered.status, await registered.json()]).toEqual([unknown.status, await unknown.json()])
    expect(registered.status).toBe(404)

    // Oneself, and verified admins (as for GET /api/admin/{email}), see the whole profile with the role.
    expect(userSchema.parse(await (await get(`/api/profile/${quiet.account.email}`, quiet.token)).json()).role).toBe('user')
    const admin = await verifiedUser(uniqueEmail('admin'), 'An Admin')
    await server.store.users.setRole(admin.account.email, 'admin')
    expect(userSchema.parse(await (await get(`/api/profile/${quiet.account.email}`, admin.token)).json()).role).toBe('user')
    expect(userSchema.parse(await (await get(`/api/profile/${contributor.account.email}`, admin.token)).json()).role).toBe('admin')
    const unverifiedAdmin = await server.sessionToken(admin.account.email, { emailVerified: false })
    await expectError(await get(`/api/profile/${quiet.account.email}`, unverifiedAdmin), 404, 'NOT_FOUND')
  })
})

describe('GET /api/admin/{email}', () => {
  it('answers for oneself, and about others only to an admin with a verified email', async () => {
    const user = await verifiedUser()
    const admin = await verifiedUser(uniqueEmail('admin'), 'An Admin')
    await server.store.users.setRole(admin.account.email, 'admin')
    expect(await (await get(`/api/admin/${user.account.email}`, user.token)).json()).toEqual({ admin: false })
    expect(await (await get(`/api/admin/${admin.account.email}`, admin.token)).json()).toEqual({ admin: true })
    await expectError(await get(`/api/admin/${admin.account.email}`, user.token), 403, 'FORBIDDEN')
    expect(await (await get(`/api/admin/${user.account.email}`, admin.token)).json()).toEqual({ admin: false })
    await expectError(await get(`/api/admin/${user.account.email}`), 401, 'UNAUTHENTICATED')
    // An admin whose session is not verified holds no admin power, and may not ask about others.
    const unverifiedAdmin = await server.sessionToken(admin.account.email, { emailVerified: false })
    expect(await (await get(`/api/admin/${admin.account.email}`, unverifiedAdmin)).json()).toEqual({ admin: false })
    await expectError(await get(`/api/admin/${user.account.email}`, unverifiedAdmin), 403, 'FORBIDDEN')
    await expectError(await get('/api/users', unverifiedAdmin), 403, 'FORBIDDEN')
  })
})

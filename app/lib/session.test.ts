import { QueryClient } from '@tanstack/react-query'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { accountHandlers } from '../test/account-handlers'
import { fakeAccount, firebaseError } from '../test/firebase-fake'
import { server } from '../test/msw-server'
import { makeUser } from '../test/profile-fixtures'
import { makeSessionToken, signInForTest } from '../test/session'
import { makeWumpus } from '../test/fixtures'

// A fake of ./firebase that counts how often the module is loaded. Registered afresh before each
// test (vi.doMock after vi.resetModules), so every test imports fresh modules and starts from zero.
const fake = {
  loads: 0,
  currentAccount: null as null | (() => Promise<unknown>),
  signOuts: 0,
}
const fakeFirebaseModule = () => {
  fake.loads++
  return {
    currentAccount: () => fake.currentAccount?.() ?? Promise.resolve(null),
    signOutOfFirebase: async () => {
      fake.signOuts++
    },
  }
}

async function load() {
  const session = await import('./session')
  const api = await import('./api-client')
  const queryClient = new QueryClient()
  return { ...session, ...api, queryClient, store: session.createSessionStore({ queryClient }) }
}

const okSchema = z.object({ ok: z.boolean() })

beforeEach(() => {
  vi.resetModules()
  vi.doMock('./firebase', fakeFirebaseModule)
  fake.loads = 0
  fake.currentAccount = null
  fake.signOuts = 0
})

describe('decodeSessionToken', () => {
  it('reads email, name, verification and expiry from the claims', async () => {
    const { decodeSessionToken } = await load()
    const token = makeSessionToken({ email: 'zoë@example.com', name: 'Zoë Ünal', email_verified: false, exp: 2_000_000_000 })
    expect(decodeSessionToken(token)).toEqual({
      email: 'zoë@example.com',
      name: 'Zoë Ünal',
      emailVerified: false,
      token,
      expiresAt: 2_000_000_000_000,
    })
  })

  it('refuses tokens that are not ours', async () => {
    const { decodeSessionToken } = await load()
    expect(decodeSessionToken('not-a-jwt')).toBeNull()
    expect(decodeSessionToken('a.b.c')).toBeNull()
    expect(decodeSessionToken(`x.${btoa(JSON.stringify({ email: 'a@b.co' }))}.y`)).toBeNull()
  })
})

describe('session store', () => {
  it('starts signed in from a valid token without loading Firebase', async () => {
    const token = signInForTest({ email: 'ada@example.com', name: 'Ada Lovelace' })
    const { store } = await load()

    expect(store.getSnapshot()).toMatchObject({
      status: 'signed-in',
      user: { email: 'ada@example.com', name: 'Ada Lovelace', emailVerified: true, token },
    })
    await expect(store.ready()).resolves.toMatchObject({ status: 'signed-in' })
    expect(fake.loads).toBe(0)
  })

  it('starts signed out without a token, and drops a token it cannot read, without loading Firebase', async () => {
    const first = await load()
    let { store } = first
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })
    // The very session server-rendered pages hydrate with: a changed one would re-render every reader at once.
    expect(store.getSnapshot()).toBe(first.SIGNED_OUT)

    window.localStorage.setItem('accessToken', 'garbage')
    vi.resetModules()
    vi.doMock('./firebase', fakeFirebaseModule)
    ;({ store } = await load())
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })
    expect(window.localStorage.getItem('accessToken')).toBeNull()
    expect(fake.loads).toBe(0)
  })

  it('renews an expired token at start: loading, then signed in with the new token', async () => {
    const expired = signInForTest({ expiresInSeconds: -60 })
    const account = fakeAccount({ email: 'ada@example.com', displayName: 'Ada Lovelace' })
    fake.currentAccount = async () => account
    const { handlers, requests } = accountHandlers({ emailVerified: true })
    server.use(...handlers)

    const { store } = await load()
    expect(store.getSnapshot()).toEqual({ status: 'loading' })
    const settled = await store.ready()

    expect(settled).toMatchObject({ status: 'signed-in', user: { email: 'ada@example.com', emailVerified: true } })
    expect(fake.loads).toBe(1)
    expect(account.getIdToken).toHaveBeenCalledWith(true)
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      authorization: 'Bearer firebase-id-token:ada@example.com',
      // The expired token goes along: the server renews that session instead of starting another.
      body: { email: 'ada@example.com', user_name: 'Ada Lovelace', photo: '', session: expired },
    })
    expect(requests[0]!.url.pathname).toBe('/api/user/ada%40example.com')
    const stored = window.localStorage.getItem('accessToken')
    expect(stored).toBe(settled.status === 'signed-in' && settled.user.token)
  })

  it('signs out when the expired token cannot be renewed (no Firebase account)', async () => {
    signInForTest({ expiresInSeconds: -60 })
    const { store } = await load()
    await expect(store.ready()).resolves.toEqual({ status: 'signed-out' })
    expect(window.localStorage.getItem('accessToken')).toBeNull()
  })

  it('signs out, also of Firebase, when the server refuses the Firebase token', async () => {
    signInForTest({ expiresInSeconds: -60 })
    fake.currentAccount = async () => fakeAccount()
    server.use(
      http.put('/api/user/:email', () =>
        HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'Token revoked' } }, { status: 401 }),
      ),
    )
    const { store } = await load()
    await expect(store.ready()).resolves.toEqual({ status: 'signed-out' })
    expect(window.localStorage.getItem('accessToken')).toBeNull()
    await vi.waitFor(() => expect(fake.signOuts).toBe(1))
  })

  it('keeps the session when renewal fails only because the network is down', async () => {
    const token = signInForTest({ expiresInSeconds: -60 })
    fake.currentAccount = async () => {
      throw firebaseError('auth/network-request-failed')
    }
    const { store } = await load()
    await expect(store.ready()).resolves.toMatchObject({ status: 'signed-in', user: { token } })
    expect(window.localStorage.getItem('accessToken')).toBe(token)
  })

  it('renews on a 401 and retries the request once with the new token', async () => {
    const oldToken = signInForTest()
    fake.currentAccount = async () => fakeAccount()
    const { handlers } = accountHandlers()
    const seen: (string | null)[] = []
    server.use(
      ...handlers,
      http.get('/api/thing', ({ request }) => {
        const authorization = request.headers.get('Authorization')
        seen.push(authorization)
        if (authorization === `Bearer ${oldToken}`) {
          return HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'Expired' } }, { status: 401 })
        }
        return HttpResponse.json({ ok: true })
      }),
    )
    const { store, apiRequest } = await load()

    await expect(apiRequest('/api/thing', okSchema)).resolves.toEqual({ ok: true })
    const renewed = window.localStorage.getItem('accessToken')
    expect(renewed).not.toBe(oldToken)
    expect(seen).toEqual([`Bearer ${oldToken}`, `Bearer ${renewed}`])
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-in', user: { token: renewed } })
  })

  it('renews once for several requests that get 401 at the same time', async () => {
    const oldToken = signInForTest()
    fake.currentAccount = async () => fakeAccount()
    const { handlers, requests } = accountHandlers()
    server.use(
      ...handlers,
      http.get('/api/thing', ({ request }) =>
        request.headers.get('Authorization') === `Bearer ${oldToken}`
          ? HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'Expired' } }, { status: 401 })
          : HttpResponse.json({ ok: true }),
      ),
    )
    const { apiRequest } = await load()

    const results = await Promise.all([
      apiRequest('/api/thing', okSchema),
      apiRequest('/api/thing', okSchema),
      apiRequest('/api/thing', okSchema),
    ])
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }])
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(1)
  })

  it('gives up after one retry, and signs out when renewal fails', async () => {
    signInForTest()
    let calls = 0
    server.use(
      http.get('/api/thing', () => {
        calls++
        return HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'Nope' } }, { status: 401 })
      }),
    )
    // No Firebase account: renewal fails.
    const { store, apiRequest } = await load()
    await expect(apiRequest('/api/thing', okSchema)).rejects.toMatchObject({ status: 401 })
    expect(calls).toBe(1)
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })
    expect(window.localStorage.getItem('accessToken')).toBeNull()
  })

  it('retries only once even when the renewed token is refused too', async () => {
    signInForTest()
    fake.currentAccount = async () => fakeAccount()
    const { handlers } = accountHandlers()
    let calls = 0
    server.use(
      ...handlers,
      http.get('/api/thing', () => {
        calls++
        return HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'Nope' } }, { status: 401 })
      }),
    )
    const { apiRequest } = await load()
    await expect(apiRequest('/api/thing', okSchema)).rejects.toMatchObject({ status: 401 })
    expect(calls).toBe(2)
  })

  it('exchange() stores the session token the server answers', async () => {
    const { handlers, requests } = accountHandlers()
    server.use(...handlers)
    const { store } = await load()
    const account = fakeAccount({
      email: 'grace@example.com',
      displayName: 'Grace Hopper',
      photoURL: `${window.location.origin}/api/files/0123456789abcdef01234567/me.png`,
    })

    const { user } = await store.exchange(account)

    expect(user.email).toBe('grace@example.com')
    expect(requests[0]!.body).toEqual({
      email: 'grace@example.com',
      user_name: 'Grace Hopper',
      // Our own uploads go back to the server in their relative form.
      photo: '/api/files/0123456789abcdef01234567/me.png',
    })
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-in', user: { email: 'grace@example.com', name: 'Grace Hopper' } })
    expect(window.localStorage.getItem('accessToken')).toBe(
      store.getSnapshot().status === 'signed-in' && (store.getSnapshot() as { user: { token: string } }).user.token,
    )
  })

  it('signOut() ends the session on the server with the token it had', async () => {
    const token = signInForTest()
    const { handlers, requests } = accountHandlers()
    server.use(...handlers)
    const { store } = await load()
    await store.signOut()
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })
    await vi.waitFor(() => expect(requests).toMatchObject([{ method: 'DELETE', authorization: `Bearer ${token}` }]))
    expect(requests[0]!.url.pathname).toBe('/api/session')
  })

  it('signOut({ endedOnServer }) signs out here without asking the server again', async () => {
    signInForTest()
    const { handlers, requests } = accountHandlers()
    server.use(...handlers)
    const { store } = await load()
    await store.signOut({ endedOnServer: true })
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })
    expect(window.localStorage.getItem('accessToken')).toBeNull()
    expect(fake.signOuts).toBe(1)
    expect(requests).toEqual([])
  })

  it('signOut() signs out here even when the server cannot be reached (offline)', async () => {
    signInForTest()
    server.use(http.delete('/api/session', () => HttpResponse.error()))
    const { store } = await load()
    await store.signOut()
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })
    expect(window.localStorage.getItem('accessToken')).toBeNull()
    expect(fake.signOuts).toBe(1)
  })

  it('signOut() removes accessToken, signs out of Firebase and drops personal cached data', async () => {
    signInForTest()
    server.use(http.delete('/api/session', () => new HttpResponse(null, { status: 204 })))
    const { store, queryClient } = await load()
    // The key factories, from the same fresh modules as the session (they register what sign-out keeps).
    const { wumpusKeys } = await import('../entities/wumpus/api')
    const { profileKeys } = await import('./query-keys')
    const { adminRoleKey } = await import('./admin-role')
    queryClient.setQueryData(profileKeys.detail('ada@example.com'), makeUser({ user_name: 'Ada' }))
    queryClient.setQueryData(adminRoleKey('ada@example.com'), { admin: true })
    queryClient.setQueryData(wumpusKeys.lists(), { pages: [] })
    const listener = vi.fn()
    store.subscribe(listener)

    await store.signOut()

    expect(window.localStorage.getItem('accessToken')).toBeNull()
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })
    expect(listener).toHaveBeenCalled()
    expect(fake.signOuts).toBe(1)
    expect(queryClient.getQueryData(profileKeys.detail('ada@example.com'))).toBeUndefined()
    expect(queryClient.getQueryData(adminRoleKey('ada@example.com'))).toBeUndefined()
    expect(queryClient.getQueryData(wumpusKeys.lists())).toEqual({ pages: [] })
  })

  it('signOut() forgets remixes among the animation details, which it otherwise keeps', async () => {
    signInForTest()
    server.use(http.delete('/api/session', () => new HttpResponse(null, { status: 204 })))
    const { store, queryClient } = await load()
    const { wumpusKeys } = await import('../entities/wumpus/api')
    const original = makeWumpus(1)
    const remix = makeWumpus(2, { remixOf: original._id, visibility: 'link' })
    queryClient.setQueryData(wumpusKeys.detail(original._id), original)
    queryClient.setQueryData(wumpusKeys.detail(remix._id), remix)

    await store.signOut()

    expect(queryClient.getQueryData(wumpusKeys.detail(original._id))).toEqual(original)
    expect(queryClient.getQueryData(wumpusKeys.detail(remix._id))).toBeUndefined()
  })

  it('a renewal still running when the user signs out does not sign them back in', async () => {
    signInForTest()
    let release!: () => void
    fake.currentAccount = () => new Promise((resolve) => (release = () => resolve(fakeAccount())))
    const { handlers } = accountHandlers()
    server.use(...handlers)
    const { store } = await load()

    const renewal = store.renew()
    await vi.waitFor(() => expect(release).toBeDefined())
    await store.signOut()
    release()

    await expect(renewal).resolves.toBeNull()
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })
    expect(window.localStorage.getItem('accessToken')).toBeNull()
  })

  it('follows another tab: its sign-out signs out here, its sign-in signs in here', async () => {
    signInForTest()
    const { store } = await load()

    window.localStorage.removeItem('accessToken')
    store.syncFromStorage()
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' })

    const token = makeSessionToken({ email: 'grace@example.com' })
    window.localStorage.setItem('accessToken', token)
    store.syncFromStorage()
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-in', user: { email: 'grace@example.com', token } })
    expect(fake.loads).toBe(0)
  })

  it('tells its sign-out listeners once per ended session: here, in another tab, or a failed renewal', async () => {
    signInForTest()
    server.use(http.delete('/api/session', () => new HttpResponse(null, { status: 204 })))
    const { store } = await load()
    const listener = vi.fn()
    store.onSignOut(listener)

    await store.signOut()
    await store.signOut()
    expect(listener).toHaveBeenCalledTimes(1)

    store.setToken(makeSessionToken({ email: 'grace@example.com' }))
    window.localStorage.removeItem('accessToken')
    store.syncFromStorage()
    expect(listener).toHaveBeenCalledTimes(2)

    store.setToken(makeSessionToken({ email: 'grace@example.com' }))
    await store.renew() // no Firebase account: the session cannot be renewed
    expect(listener).toHaveBeenCalledTimes(3)
  })
})

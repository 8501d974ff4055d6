import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBody } from '../../test/support/error-body'
import { createAccount, verifyEmail } from '../../test/support/firebase-emulator'
import { addRemix, addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'
import { lottieBytes } from '../../test/fixtures/lottie'
import { buildGif } from '../../test/fixtures/gif'
import { stillPng } from '../../test/fixtures/png'
import type { Logger } from '../logger'
import { RATE_LIMITS } from './rate-limit'

// A tenth of every limit, so that tests reach them quickly.
const FACTOR = 0.1
const limit = (name: keyof typeof RATE_LIMITS, of: 'perIp' | 'perAccount') => Math.max(1, Math.round(RATE_LIMITS[name][of] * FACTOR))

let server: TestServer
/** What the server logged, line by line. */
let logged: Array<{ level: string; message: string } & Record<string, unknown>>
const logger: Logger = {
  error: (message, fields) => logged.push({ level: 'error', message, ...fields }),
  info: (message, fields) => logged.push({ level: 'info', message, ...fields }),
  debug: (message, fields) => logged.push({ level: 'debug', message, ...fields }),
}
// Behind one trusted balancer (a request without X-Forwarded-For is known by its socket address).
const start = (env: Record<string, string> = {}) =>
  startTestServer({ RATE_LIMIT_FACTOR: String(FACTOR), TRUST_PROXY: 'true', ...env }, { logger })
beforeEach(async () => {
  logged = []
  server = await start()
})
afterEach(() => server.close())

const call = (method: string, path: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method,
    headers: {
      ...headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  })

/** Answers the statuses of `count` calls made one after another. */
async function statuses(count: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  const result: number[] = []
  for (let i = 0; i < count; i++) result.push((await send(i)).status)
  return result
}

async function expectLimited(res: Response, name: string) {
  expect(res.status).toBe(429)
  const retryAfter = Number(res.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(RATE_LIMITS[name as keyof typeof RATE_LIMITS].windowSeconds)
  const { error } = errorBody(await res.json())
  expect(error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: name, retryAfterSeconds: retryAfter } })
}

const imageForm = () => {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(stillPng(2, 2))]), 'p.png')
  return form
}

describe('rate limits', () => {
  it('limits profile updates per account, answering 429 with Retry-After in the error shape', async () => {
    await server.store.users.upsert('busy@example.com', { user_name: 'Busy' })
    await server.store.users.upsert('calm@example.com', { user_name: 'Calm' })
    const busy = await server.sessionToken('busy@example.com')
    const allowed = limit('profile', 'perAccount')
    expect(await statuses(allowed, (i) => call('PUT', '/api/user/busy@example.com', busy, { job: `Job ${i}` }))).toEqual(
      Array(allowed).fill(200),
    )
    await expectLimited(await call('PUT', '/api/user/busy@example.com', busy, { job: 'One more' }), 'profile')
    expect((await server.store.users.get('busy@example.com'))?.job).toBe(`Job ${allowed - 1}`)
    // Another account is counted on its own.
    expect((await call('PUT', '/api/user/calm@example.com', await server.sessionToken('calm@example.com'), { job: 'Calm' })).status).toBe(
      200,
    )
  })

  it('limits favourite changes per account, adds and removes together', async () => {
    const record = await addWumpus(server.store)
    const fan = await server.sessionToken('fan@example.com')
    const allowed = limit('favourite', 'perAccount')
    expect(await statuses(allowed, (i) => call(i % 2 === 0 ? 'PUT' : 'DELETE', `/api/me/favourites/${record._id}`, fan))).toEqual(
      Array(allowed).fill(204),
    )
    await expectLimited(await call('PUT', `/api/me/favourites/${record._id}`, fan), 'favourite')
    // Reading them is not limited.
    expect((await call('GET', '/api/me/favourite-ids', fan)).status).toBe(200)
  })
  it('limits pack changes per account: making, editing and deleting together', async () => {
    const record = await addWumpus(server.store)
    const packer = await server.sessionToken('packer@example.com')
    const made = await call('POST', '/api/me/packs', packer, { name: 'Limited Pack', wumpusIds: [record._id] })
    const { id } = (await made.json()) as { id: string }
    const allowed = limit('pack', 'perAccount')
    expect(await statuses(allowed - 1, (i) => call('PUT', `/api/packs/${id}`, packer, { name: `Limited Pack ${i}` }))).toEqual(
      Array(allowed - 1).fill(200),
    )
    await expectLimited(await call('DELETE', `/api/packs/${id}`, packer), 'pack')
    await expectLimited(await call('POST', '/api/me/packs', packer, { name: 'One More', wumpusIds: [record._id] }), 'pack')
    // Reading them is not limited.
    expect((await call('GET', `/api/packs/${id}`, packer)).status).toBe(200)
    expect((await call('GET', '/api/me/packs', packer)).status).toBe(200)
  })

  it('limits remix changes per account: edits, sharing and deletes together; edits of an original are not counted', async () => {
    const owner = 'remixer@example.com'
    const token = await server.sessionToken(owner)
    const remix = await addRemix(server.store, owner, 'private')
    const allowed = limit('remixChange', 'perAccount')
    expect(await statuses(allowed - 1, (i) => call('PUT', `/api/wumpuses/${remix._id}`, token, { name: `Mine ${i}` }))).toEqual(
      Array(allowed - 1).fill(200),
    )
    expect((await call('PUT', `/api/wumpus/${remix._id}/sharing`, token, { visibility: 'link' })).status).toBe(200)
    await expectLimited(await call('PUT', `/api/wumpus/${remix._id}/sharing`, token, { visibility: 'private' }), 'remixChange')
    await expectLimited(await call('PUT', `/api/wumpuses/${remix._id}`, token, { name: 'One more' }), 'remixChange')
    await expectLimited(await call('DELETE', `/api/wumpus/${remix._id}`, token), 'remixChange')
    expect(await server.store.wumpuses.get(remix._id)).toMatchObject({ name: `Mine ${allowed - 2}`, remix: { visibility: 'link' } })
    // The uploader of an original edits it as often as before.
    const original = await addWumpus(server.store, { u_email: owner })
    expect((await call('PUT', `/api/wumpuses/${original._id}`, token, { name: 'Still editable' })).status).toBe(200)
  })

  it('limits sign-in exchanges per Firebase account and per IP address', async () => {
    const account = await createAccount()
    const body = { email: account.email, user_name: 'Often', photo: '' }
    const perAccount = limit('signIn', 'perAccount')
    expect(await statuses(perAccount, () => call('PUT', `/api/user/${account.email}`, account.idToken, body))).toEqual(
      Array(perAccount).fill(200),
    )
    await expectLimited(await call('PUT', `/api/user/${account.email}`, account.idToken, body), 'signIn')
    // Fresh accounts from the same address, until the address is over its own limit (one hit is spent above).
    const perIp = limit('signIn', 'perIp')
    const others = await Promise.all(Array.from({ length: perIp - perAccount }, () => createAccount()))
    const answers = await statuses(others.length, (i) =>
      call('PUT', `/api/user/${others[i]!.email}`, others[i]!.idToken, { email: others[i]!.email }),
    )
    expect(answers).toEqual([...Array(perIp - perAccount - 1).fill(200), 429])
  })

  it('limits profile image uploads per account', async () => {
    const token = await server.sessionToken('uploader@example.com')
    const allowed = limit('image', 'perAccount')
    expect(await statuses(allowed, () => call('POST', '/api/uploads/image', token, imageForm()))).toEqual(Array(allowed).fill(201))
    await expectLimited(await call('POST', '/api/uploads/image', token, imageForm()), 'image')
  })

  it('limits renders and Lottie links per admin account', async () => {
    const account = await createAccount()
    await server.store.users.upsert(account.email, { role: 'admin' })
    const admin = await server.sessionToken(account.email)
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(lottieBytes({ op: 10 }))]), 'a.json')
    const lottie = (await (await call('POST', '/api/uploads/animation?format=lottie', admin, form)).json()) as { id: string; url: string }

    const renders = limit('render', 'perAccount')
    expect(await statuses(renders, () => call('POST', '/api/renders', admin, { lottie: lottie.id }))).toEqual(Array(renders).fill(201))
    await expectLimited(await call('POST', '/api/renders', admin, { lottie: lottie.id }), 'render')

    const links = limit('lottieLink', 'perAccount')
    expect(await statuses(links, () => call('POST', '/api/uploads/lottie-link', admin, { url: lottie.url }))).toEqual(
      Array(links).fill(201),
    )
    await expectLimited(await call('POST', '/api/uploads/lottie-link', admin, { url: lottie.url }), 'lottieLink')
    // A multipart publish that would render counts as a render too.
    const publish = new FormData()
    publish.append('name', 'Limited Wumpus')
    publish.append('description', 'Would need a render')
    publish.append('lottie', new Blob([new Uint8Array(lottieBytes({ op: 10 }))]), 'b.json')
    await expectLimited(await call('POST', '/api/wumpuses', admin, publish), 'render')
  })

  it('limits animation file uploads per admin account', async () => {
    await server.store.users.upsert('uploading-admin@example.com', { role: 'admin' })
    const admin = await server.sessionToken('uploading-admin@example.com')
    const gifForm = () => {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(buildGif())]), 'a.gif')
      return form
    }
    const allowed = limit('upload', 'perAccount')
    expect(await statuses(allowed, () => call('POST', '/api/uploads/animation?format=gif', admin, gifForm()))).toEqual(
      Array(allowed).fill(201),
    )
    await expectLimited(await call('POST', '/api/uploads/animation?format=gif', admin, gifForm()), 'upload')
  })

  it('does not limit reads of the gallery', async () => {
    expect(new Set(await statuses(60, () => call('GET', '/api/wumpuses', undefined)))).toEqual(new Set([200]))
  })

  it('keeps counting a verified user after sign-in: the limit is per account, not per session', async () => {
    const account = await createAccount()
    const verifiedToken = await verifyEmail(account)
    const sessions = await Promise.all(
      [0, 1].map(
        async () =>
          ((await (await call('PUT', `/api/user/${account.email}`, verifiedToken, { email: account.email })).json()) as { token: string })
            .token,
      ),
    )
    const allowed = limit('profile', 'perAccount')
    const answers = await statuses(allowed + 1, (i) => call('PUT', `/api/user/${account.email}`, sessions[i % 2], { job: `Job ${i}` }))
    expect(answers).toEqual([...Array(allowed).fill(200), 429])
  })
})

describe('client addresses behind proxies', () => {
  // A sign-in with a token that is not one: the address is counted before the token is checked (401).
  const signInFrom = (forwardedFor: string) =>
    call('PUT', '/api/user/someone@example.com', 'not-a-token', { email: 'someone@example.com' }, { 'x-forwarded-for': forwardedFor })

  it('knows a client behind one balancer by the address the balancer saw, whatever the client wrote before it', async () => {
    const allowed = limit('signIn', 'perIp')
    expect(await statuses(allowed, (i) => signInFrom(`6.6.6.${i}, 203.0.113.7`))).toEqual(Array(allowed).fill(401))
    await expectLimited(await signInFrom('9.9.9.9, 8.8.8.8, 203.0.113.7'), 'signIn')
    await expectLimited(await signInFrom('203.0.113.7'), 'signIn')
    expect((await signInFrom('203.0.113.7, 203.0.113.8')).status).toBe(401)
  })

  it('with TRUST_PROXY_HOPS=2 (a CDN before the balancer), by the address the CDN saw', async () => {
    await server.close()
    server = await start({ TRUST_PROXY_HOPS: '2' })
    const allowed = limit('signIn', 'perIp')
    // The CDN's own address, added by the balancer, varies from one edge to the next.
    expect(await statuses(allowed, (i) => signInFrom(`6.6.6.${i}, 203.0.113.7, 198.51.100.${i}`))).toEqual(Array(allowed).fill(401))
    await expectLimited(await signInFrom('203.0.113.7, 198.51.100.99'), 'signIn')
    expect((await signInFrom('203.0.113.7, 203.0.113.8, 198.51.100.1')).status).toBe(401)
  })

  it('counts IPv6 clients by their /64: addresses in one /64 share a limit, other /64s have their own', async () => {
    const allowed = limit('signIn', 'perIp')
    expect(await statuses(allowed, (i) => signInFrom(`2001:db8:1:2::${i + 1}`))).toEqual(Array(allowed).fill(401))
    await expectLimited(await signInFrom('2001:db8:1:2:ffff:ffff:ffff:9'), 'signIn')
    expect((await signInFrom('2001:db8:1:3::1')).status).toBe(401)
    expect((await signInFrom('2001:db8:2:2::1')).status).toBe(401)
  })

  it('counts an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    const allowed = limit('signIn', 'perIp')
    expect(await statuses(allowed, () => signInFrom('::ffff:203.0.113.9'))).toEqual(Array(allowed).fill(401))
    await expectLimited(await signInFrom('203.0.113.9'), 'signIn')
  })
})

describe('search limit', () => {
  const get = (path: string, from: string, token?: string) => call('GET', path, token, undefined, { 'x-forwarded-for': from })

  it('limits searches per address, never the paging of the gallery', async () => {
    const allowed = limit('search', 'perIp')
    expect(await statuses(allowed, (i) => get(`/api/wumpuses?q=moon${i}`, '203.0.113.7'))).toEqual(Array(allowed).fill(200))
    await expectLimited(await get('/api/wumpuses?q=moon', '203.0.113.7'), 'search')
    // One uploader's list searched by a signed-in caller is a search too.
    const token = await server.sessionToken('reader@example.com')
    await expectLimited(await get('/api/wumpus?u_email=maker@example.com&q=moon', '203.0.113.7', token), 'search')
    // Paging, filters without a query and an empty query are not searches.
    const pages = ['/api/wumpuses', '/api/wumpuses?limit=5', '/api/wumpuses?q=', '/api/wumpuses?q=%20%20', '/api/wumpuses?sort=popular']
    expect(new Set(await statuses(allowed * 2, (i) => get(pages[i % pages.length]!, '203.0.113.7')))).toEqual(new Set([200]))
    // Another address searches on.
    expect((await get('/api/wumpuses?q=moon', '203.0.113.8')).status).toBe(200)
  })
})

describe('security events', () => {
  // Sign-in refusals and 401s are security events too (security-log.ts); these tests read the rate-limit ones.
  const securityEvents = () => logged.filter((line) => line.message === 'security event' && line.event === 'rate-limited')

  it('logs a refused hit as one info line naming the limit, the address key and the route', async () => {
    const allowed = limit('signIn', 'perIp')
    const signIn = () =>
      call('PUT', '/api/user/victim@example.com', 'not-a-token', { email: 'victim@example.com' }, { 'x-forwarded-for': '2001:db8:1:2::7' })
    await statuses(allowed, signIn)
    expect(securityEvents()).toEqual([])
    expect((await signIn()).status).toBe(429)
    expect(securityEvents()).toEqual([
      {
        level: 'info',
        message: 'security event',
        event: 'rate-limited',
        limit: 'signIn',
        by: 'address',
        key: '2001:db8:1:2',
        route: 'PUT /api/user/:email',
        ip: '2001:db8:1:2::7',
      },
    ])
    expect(JSON.stringify(securityEvents())).not.toContain('victim')
    // More refusals in the same window add no line: a flood is one line per caller and window.
    expect((await signIn()).status).toBe(429)
    expect((await signIn()).status).toBe(429)
    expect(securityEvents()).toHaveLength(1)
  })

  it('names an account by a hash, never by its email', async () => {
    await server.store.users.upsert('busy@example.com', { user_name: 'Busy' })
    const busy = await server.sessionToken('busy@example.com')
    const allowed = limit('profile', 'perAccount')
    await statuses(allowed, (i) => call('PUT', '/api/user/busy@example.com', busy, { job: `Job ${i}` }))
    expect((await call('PUT', '/api/user/busy@example.com', busy, { job: 'One more' })).status).toBe(429)
    const events = securityEvents()
    expect(events).toEqual([
      expect.objectContaining({ level: 'info', event: 'rate-limited', limit: 'profile', by: 'account', route: 'PUT /api/user/:email' }),
    ])
    expect(events[0]!.key).toMatch(/^[0-9a-f]{16}$/)
    // Keyed: hashing a guessed email does not find it.
    expect(events[0]!.key).not.toBe(createHash('sha256').update('busy@example.com').digest('hex').slice(0, 16))
    expect(JSON.stringify(events)).not.toContain('busy')
  })
})

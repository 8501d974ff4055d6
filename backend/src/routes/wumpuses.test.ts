import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wumpusListSchema, wumpusSchema } from '../../../contract/wumpus'
import { errorBody } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'
import { LOCKED_DOWN_CSP } from '../http/middleware'
import type { WumpusRecord } from '../store/port'

let server: TestServer
const records: WumpusRecord[] = []

beforeAll(async () => {
  server = await startTestServer()
  const start = Date.UTC(2026, 0, 1)
  for (let i = 0; i < 30; i++) {
    records.push(
      await addWumpus(server.store, {
        name: `Wumpus ${i}`,
        u_email: i % 3 === 0 ? 'ana@example.com' : 'bo@example.com',
        createdAt: new Date(start + i * 1000),
      }),
    )
  }
})
afterAll(() => server.close())

const get = (path: string, init?: RequestInit) => fetch(server.url + path, init)

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status)
  const body = errorBody(await res.json())
  expect(body.error.code).toBe(code)
  expect(body.error.message.length).toBeGreaterThan(0)
}

describe('GET /api/wumpuses', () => {
  it('answers the newest page as an array, with the total and a link to the next page', async () => {
    const res = await get('/api/wumpuses?limit=10')
    expect(res.status).toBe(200)
    const items = wumpusListSchema.parse(await res.json())
    expect(items.map((w) => w.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Wumpus ${29 - i}`))
    expect(res.headers.get('x-total-count')).toBe('30')
    expect(res.headers.get('link')).toMatch(/^<\/api\/wumpuses\?limit=10&cursor=[\w-]+>; rel="next"$/)
  })

  it('carries every field of an item, with file URLs that end in the original names', async () => {
    // As sent, not parsed: the schema's defaults would hide a missing field.
    const [first] = (await (await get('/api/wumpuses?limit=1')).json()) as unknown[]
    const record = records.at(-1)!
    expect(first).toEqual({
      _id: record._id,
      name: record.name,
      description: record.description,
      gif: `/api/files/${record.files.gif.id}/test.gif`,
      apng: `/api/files/${record.files.apng.id}/test.png`,
      lottie: `/api/files/${record.files.lottie.id}/test.json`,
      u_email: record.u_email,
      u_name: record.u_name,
      tags: [],
      emoji: [],
      keywords: [],
      // Given none: this gallery only, credited to the gallery itself.
      licence: 'gallery-only',
      credit: '',
      sensitive: false,
      downloads: 0,
      // No exports made yet: it fits no platform.
      fits: [],
      createdAt: record.createdAt.toISOString(),
    })
  })

  it('walks every page by following the Link header, without gaps or repeats', async () => {
    const seen: string[] = []
    let next: string | undefined = '/api/wumpuses?limit=7'
    while (next) {
      const res = await get(next)
      seen.push(...wumpusListSchema.parse(await res.json()).map((w) => w._id))
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    }
    expect(seen).toEqual([...records].reverse().map((r) => r._id))
  })

  it('shows a new animation at once, though pages are cached', async () => {
    const before = await get('/api/wumpuses?limit=2')
    const added = await addWumpus(server.store, { name: 'Fresh Wumpus', createdAt: new Date(Date.UTC(2027, 0, 1)) })
    const after = await get('/api/wumpuses?limit=2')
    expect(after.headers.get('x-total-count')).toBe(String(Number(before.headers.get('x-total-count')) + 1))
    expect(wumpusListSchema.parse(await after.json())[0]!._id).toBe(added._id)
    await server.store.wumpuses.delete(added._id)
    const again = wumpusListSchema.parse(await (await get('/api/wumpuses?limit=2')).json())
    expect(again.map((w) => w._id)).not.toContain(added._id)
  })

  it('answers 304 when the page has not changed since the client saw it', async () => {
    const first = await get('/api/wumpuses?limit=3')
    const etag = first.headers.get('etag')!
    const same = await get('/api/wumpuses?limit=3', { headers: { 'if-none-match': etag } })
    expect(same.status).toBe(304)
    const added = await addWumpus(server.store, { createdAt: new Date(Date.UTC(2027, 0, 2)) })
    const changed = await get('/api/wumpuses?limit=3', { headers: { 'if-none-match': etag } })
    expect(changed.status).toBe(200)
    await server.store.wumpuses.delete(added._id)
  })

  it('uses a default page size when no limit is given', async () => {
    const items = wumpusListSchema.parse(await (await get('/api/wumpuses')).json())
    expect(items).toHaveLength(24)
  })

  it.each([
    ['a limit of 0', '/api/wumpuses?limit=0'],
    ['a limit above the maximum', '/api/wumpuses?limit=101'],
    ['a limit that is not a number', '/api/wumpuses?limit=ten'],
    ['a repeated limit', '/api/wumpuses?limit=1&limit=2'],
    ['a malformed cursor', '/api/wumpuses?cursor=%24%24'],
    ['a cursor that decodes to nonsense', '/api/wumpuses?cursor=bm9wZQ'],
    ['an unknown key', '/api/wumpuses?sort=name'],
    ['an operator object', '/api/wumpuses?u_email[$ne]=x'],
  ])('refuses %s with 400 in the error shape', async (_, path) => {
    await expectError(await get(path), 400, 'BAD_REQUEST')
  })
})

describe('GET /api/wumpus?u_email=', () => {
  const signedIn = async () => ({ headers: { authorization: `Bearer ${await server.sessionToken('reader@example.com')}` } })

  it('needs a signed-in user, on /api/wumpuses?u_email= too', async () => {
    await expectError(await get('/api/wumpus?u_email=ana@example.com'), 401, 'UNAUTHENTICATED')
    await expectError(await get('/api/wumpuses?u_email=ana@example.com'), 401, 'UNAUTHENTICATED')
    const listed = wumpusListSchema.parse(await (await get('/api/wumpuses?u_email=ana@example.com&limit=100', await signedIn())).json())
    expect(listed.map((w) => w.u_email)).toEqual(Array(10).fill('ana@example.com'))
    // The whole gallery stays open to everyone.
    expect((await get('/api/wumpuses')).status).toBe(200)
  })

  it("lists one uploader's animations with their total", async () => {
    const res = await get('/api/wumpus?u_email=ana@example.com&limit=100', await signedIn())
    const items = wumpusListSchema.parse(await res.json())
    expect(items).toHaveLength(10)
    expect(items.every((w) => w.u_email === 'ana@example.com')).toBe(true)
    expect(res.headers.get('x-total-count')).toBe('10')
  })

  it('keeps the filter in the next-page link', async () => {
    const res = await get('/api/wumpus?u_email=ana@example.com&limit=4', await signedIn())
    expect(res.headers.get('link')).toContain('u_email=ana%40example.com')
  })

  it('answers an empty array for someone with no animations', async () => {
    const res = await get('/api/wumpus?u_email=nobody@example.com', await signedIn())
    expect(await res.json()).toEqual([])
    expect(res.headers.get('x-total-count')).toBe('0')
  })

  it('refuses a missing or malformed email', async () => {
    await expectError(await get('/api/wumpus', await signedIn()), 400, 'BAD_REQUEST')
    await expectError(await get('/api/wumpus?u_email=not-an-email', await signedIn()), 400, 'BAD_REQUEST')
  })
})

describe('GET /api/wumpus/:id', () => {
  it('answers one animation', async () => {
    const record = records[5]!
    const res = await get(`/api/wumpus/${record._id}`)
    expect(res.status).toBe(200)
    expect(wumpusSchema.parse(await res.json())).toMatchObject({ _id: record._id, name: 'Wumpus 5' })
  })

  it.each([
    ['an unknown id', '/api/wumpus/0123456789abcdef01234567'],
    ['a malformed id', '/api/wumpus/not-an-id'],
    ['an operator-looking id', '/api/wumpus/%7B%22%24ne%22%3A1%7D'],
  ])('answers 404 in the error shape for %s', async (_, path) => {
    await expectError(await get(path), 404, 'NOT_FOUND')
  })
})

describe('the API surface', () => {
  it('answers unknown API routes with 404 in the error shape', async () => {
    await expectError(await get('/api/nope'), 404, 'NOT_FOUND')
  })

  it('answers a wrong method with 405 in the error shape', async () => {
    await expectError(await get('/api/wumpuses', { method: 'DELETE' }), 405, 'METHOD_NOT_ALLOWED')
  })

  it('answers malformed JSON with 400 in the error shape, not 500', async () => {
    const res = await get('/api/wumpuses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": ' })
    expect(res.status).toBeLessThan(500)
    errorBody(await res.json())
  })

  it('sends security headers and a request id', async () => {
    const res = await get('/api/wumpuses?limit=1')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toBe(LOCKED_DOWN_CSP)
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/)
  })

  it('compresses large JSON when the client accepts it', async () => {
    const res = await get('/api/wumpuses?limit=30', { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(wumpusListSchema.parse(await res.json())).toHaveLength(30)
  })
})

// Sensitive stickers (issue 37): out of lists and searches unless the signed-in viewer turned them on in
// their profile; their page opens by link, saying so; the flag set by an admin's edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { userSchema } from '../../../contract/user'
import { wumpusListSchema, wumpusSchema } from '../../../contract/wumpus'
import { expectError } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'
import type { WumpusRecord } from '../store/port'

const ADMIN = 'sensitive-admin@example.com'
const FAN = 'sensitive-fan@example.com'
const PLAIN = 'sensitive-plain@example.com'

let server: TestServer
let admin: string
let fan: string
let plain: string
let calm: WumpusRecord
let spicy: WumpusRecord

beforeAll(async () => {
  server = await startTestServer()
  await server.store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
  await server.store.users.upsert(FAN, { user_name: 'Fan Person' })
  await server.store.users.upsert(PLAIN, { user_name: 'Plain Person' })
  admin = await server.sessionToken(ADMIN)
  fan = await server.sessionToken(FAN)
  plain = await server.sessionToken(PLAIN)
  const at = (second: number) => new Date(Date.UTC(2026, 2, 1, 0, 0, second))
  calm = await addWumpus(server.store, { name: 'Calm Lynx', description: 'A lynx at rest', tags: ['lynx'], createdAt: at(1) })
  spicy = await addWumpus(server.store, {
    name: 'Spicy Lynx',
    description: 'A lynx for grown-ups',
    tags: ['lynx'],
    sensitive: true,
    createdAt: at(2),
    u_email: ADMIN,
  })
})
afterAll(() => server.close())

const listed = async (path: string, token?: string) => {
  const res = await server.call('GET', path, token)
  expect(res.status, await res.clone().text()).toBe(200)
  return { res, names: wumpusListSchema.parse(await res.json()).map((item) => item.name) }
}

const setShowSensitive = async (email: string, token: string, showSensitive: boolean) => {
  const res = await server.call('PUT', `/api/user/${email}`, token, { showSensitive })
  expect(res.status, await res.clone().text()).toBe(200)
  return res
}

describe('sensitive animations in lists and searches', () => {
  it('are left out for visitors and for signed-in people who did not turn them on, totals included', async () => {
    for (const token of [undefined, plain]) {
      for (const path of ['/api/wumpuses', '/api/wumpuses?q=lynx', '/api/wumpuses?tag=lynx', '/api/wumpuses?sort=popular']) {
        const { res, names } = await listed(path, token)
        expect(names, path).toContain('Calm Lynx')
        expect(names, path).not.toContain('Spicy Lynx')
        if (path !== '/api/wumpuses?sort=popular' && path !== '/api/wumpuses') expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe('1')
        // The answer depends on who asks.
        expect(res.headers.get('vary')).toMatch(/authorization/i)
      }
    }
    const { names } = await listed(`/api/wumpus?u_email=${ADMIN}`, plain)
    expect(names).toEqual([])
  })

  it('are listed to a person who turned them on, in an answer no shared cache keeps, and to nobody else after', async () => {
    const before = await listed('/api/wumpuses?tag=lynx')
    const etag = before.res.headers.get('etag')!
    const updated = await setShowSensitive(FAN, fan, true)
    expect(userSchema.parse(((await updated.json()) as { user: unknown }).user).showSensitive).toBe(true)
    // Their own profile says so (the app reads it), someone else's public profile never does.
    const own = await server.call('GET', `/api/profile/${FAN}`, fan)
    expect(userSchema.parse(await own.json()).showSensitive).toBe(true)
    const seen = await server.call('GET', `/api/profile/${ADMIN}`, fan)
    expect(await seen.json()).not.toHaveProperty('showSensitive')

    const mine = await listed('/api/wumpuses?tag=lynx', fan)
    expect(mine.names).toEqual(['Spicy Lynx', 'Calm Lynx'])
    expect(mine.res.headers.get(TOTAL_COUNT_HEADER)).toBe('2')
    expect(mine.res.headers.get('cache-control')).toBe('private, no-cache')
    expect(mine.res.headers.get('etag')).not.toBe(etag)
    expect((await listed('/api/wumpuses?q=spicy', fan)).names).toEqual(['Spicy Lynx'])
    expect((await listed(`/api/wumpus?u_email=${ADMIN}`, fan)).names).toEqual(['Spicy Lynx'])

    // The same query after, by a visitor and by someone else: the page kept for the fan is theirs alone.
    for (const token of [undefined, plain]) {
      const again = await listed('/api/wumpuses?tag=lynx', token)
      expect(again.names).toEqual(['Calm Lynx'])
      expect(again.res.headers.get('etag')).toBe(etag)
      expect(again.res.headers.get('cache-control')).toBe('no-cache')
    }
    // A visitor who sends the fan's page's ETag still gets the visitors' page, not a 304 for the fan's.
    const revalidated = await fetch(`${server.url}/api/wumpuses?tag=lynx`, { headers: { 'if-none-match': mine.res.headers.get('etag')! } })
    expect(revalidated.status).toBe(200)
    expect(wumpusListSchema.parse(await revalidated.json()).map((item) => item.name)).toEqual(['Calm Lynx'])

    await setShowSensitive(FAN, fan, false)
    expect((await listed('/api/wumpuses?tag=lynx', fan)).names).toEqual(['Calm Lynx'])
  })

  it('refuses a preference that is not true or false', async () => {
    await expectError(await server.call('PUT', `/api/user/${FAN}`, fan, { showSensitive: 'yes' }), 400, 'BAD_REQUEST')
  })
})

describe("a person's showSensitive", () => {
  it('is in answers to them only: never in an admin’s list of users or an admin’s read of their profile', async () => {
    await setShowSensitive(FAN, fan, true)
    const users = (await (await server.call('GET', '/api/users', admin)).json()) as Array<Record<string, unknown>>
    const fanEntry = users.find((user) => user.email === FAN)
    expect(fanEntry).toMatchObject({ email: FAN, user_name: 'Fan Person' })
    expect(fanEntry).not.toHaveProperty('showSensitive')
    // The admin's own entry is theirs: it says.
    expect(users.find((user) => user.email === ADMIN)).toHaveProperty('showSensitive', false)
    const read = await server.call('GET', `/api/profile/${FAN}`, admin)
    expect(read.status).toBe(200)
    const profile = (await read.json()) as Record<string, unknown>
    expect(profile).toHaveProperty('role')
    expect(profile).not.toHaveProperty('showSensitive')
    const own = (await (await server.call('GET', `/api/profile/${FAN}`, fan)).json()) as Record<string, unknown>
    expect(own).toHaveProperty('showSensitive', true)
    await setShowSensitive(FAN, fan, false)
  })
})

describe('a sensitive animation by its link', () => {
  it('opens for anyone, and its answer says it is sensitive', async () => {
    const res = await server.call('GET', `/api/wumpus/${spicy._id}`)
    expect(res.status).toBe(200)
    expect(wumpusSchema.parse(await res.json())).toMatchObject({ name: 'Spicy Lynx', sensitive: true })
    const other = wumpusSchema.parse(await (await server.call('GET', `/api/wumpus/${calm._id}`)).json())
    expect(other.sensitive).toBe(false)
  })
})

describe('PUT /api/wumpuses/{id} with sensitive', () => {
  it('lets an admin mark an animation sensitive and back, and lists follow at once', async () => {
    const marked = await server.call('PUT', `/api/wumpuses/${calm._id}`, admin, { sensitive: true })
    expect(marked.status, await marked.clone().text()).toBe(200)
    expect(wumpusSchema.parse(await marked.json()).sensitive).toBe(true)
    expect((await listed('/api/wumpuses?tag=lynx')).names).toEqual([])
    await expectError(await server.call('PUT', `/api/wumpuses/${calm._id}`, admin, { sensitive: 'true' }), 400, 'BAD_REQUEST')
    await server.call('PUT', `/api/wumpuses/${calm._id}`, admin, { sensitive: false })
    expect((await listed('/api/wumpuses?tag=lynx')).names).toEqual(['Calm Lynx'])
  })

  it('is refused to a signed-in person who is neither the uploader nor an admin', async () => {
    await expectError(await server.call('PUT', `/api/wumpuses/${calm._id}`, plain, { sensitive: true }), 403, 'FORBIDDEN')
  })
})

describe('GET /api/tags and /api/emoji with sensitive animations', () => {
  it('count theirs only for a person who turned them on, in an answer no shared cache keeps', async () => {
    await addWumpus(server.store, {
      name: 'Midnight Lynx',
      tags: ['lynx', 'afterdark'],
      emoji: [{ char: '🌚', name: 'new moon face' }],
      sensitive: true,
    })
    await setShowSensitive(FAN, fan, true)
    const counted = async (path: string, token?: string) => {
      const res = await server.call('GET', path, token)
      expect(res.status, await res.clone().text()).toBe(200)
      expect(res.headers.get('vary')).toMatch(/authorization/i)
      return { res, body: (await res.json()) as Array<{ tag?: string; char?: string; count: number }> }
    }
    for (const token of [undefined, plain]) {
      const tags = await counted('/api/tags', token)
      expect(tags.body).toEqual([{ tag: 'lynx', count: 1 }])
      expect(tags.res.headers.get(TOTAL_COUNT_HEADER)).toBe('1')
      expect(tags.res.headers.get('cache-control')).not.toMatch(/private/)
      expect((await counted('/api/emoji', token)).body.map((entry) => entry.char)).not.toContain('🌚')
    }
    const tags = await counted('/api/tags', fan)
    expect(tags.body).toEqual([
      { tag: 'lynx', count: 3 },
      { tag: 'afterdark', count: 1 },
    ])
    expect(tags.res.headers.get('cache-control')).toBe('private, no-cache')
    expect((await counted('/api/emoji', fan)).body).toContainEqual(expect.objectContaining({ char: '🌚', count: 1 }))
    // The visitor's answer is still the one without them (kept apart in the server's cache).
    expect((await counted('/api/tags')).body).toEqual([{ tag: 'lynx', count: 1 }])
    await setShowSensitive(FAN, fan, false)
  })
})

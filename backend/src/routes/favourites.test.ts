import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { favouritePath, favouriteListPath, API_PATHS } from '../../../contract/api-paths'
import { favouriteIdsSchema, favouriteListSchema } from '../../../contract/favourites'
import { FAVOURITES_MAX, LINK_HEADER, TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { toApiWumpus } from '../http/mappers/wumpus'
import type { WumpusRecord } from '../store/port'
import { errorBody } from '../../test/support/error-body'
import { addRemix, addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

let people = 0
/** A signed-in user of their own, with a verified email unless asked. */
async function someone(options: { emailVerified?: boolean } = {}): Promise<{ email: string; token: string }> {
  const email = `fan-${++people}@example.com`
  return { email, token: await server.sessionToken(email, options) }
}

const call = (method: string, path: string, token?: string) =>
  fetch(server.url + path, { method, headers: token ? { authorization: `Bearer ${token}` } : {} })

async function favourite(token: string, id: string): Promise<void> {
  const res = await call('PUT', favouritePath(id), token)
  expect(res.status, await res.clone().text()).toBe(204)
}

async function ids(token: string): Promise<string[]> {
  const res = await call('GET', API_PATHS.favouriteIds, token)
  expect(res.status).toBe(200)
  expect(res.headers.get('cache-control')).toBe('no-store')
  return favouriteIdsSchema.parse(await res.json())
}

/** Every page of the list, following its Link header. */
async function allPages(token: string, limit: number) {
  const pages = []
  let next: string | null = favouriteListPath({ limit })
  while (next) {
    const res = await call('GET', next, token)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    pages.push({ total: Number(res.headers.get(TOTAL_COUNT_HEADER)), items: favouriteListSchema.parse(await res.json()) })
    next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get(LINK_HEADER) ?? '')?.[1] ?? null
  }
  return pages
}

const expectNotFound = async (res: Response) => {
  expect(res.status).toBe(404)
  expect(errorBody(await res.json()).error.code).toBe('NOT_FOUND')
}

describe('favourites', () => {
  it('adds a favourite once however often it is sent, and lists it as the gallery shows it, with its time', async () => {
    const me = await someone()
    const record = await addWumpus(server.store, { name: 'Loved Wumpus' })
    const before = Date.now()
    await favourite(me.token, record._id)
    await favourite(me.token, record._id)
    const [page] = await allPages(me.token, 10)
    expect(page!.total).toBe(1)
    expect(page!.items).toEqual([{ ...toApiWumpus(record), favouritedAt: expect.any(String) }])
    const at = Date.parse(page!.items[0]!.favouritedAt)
    expect(at).toBeGreaterThanOrEqual(before)
    // Favouriting again keeps the first time.
    await favourite(me.token, record._id)
    expect((await allPages(me.token, 10))[0]!.items[0]!.favouritedAt).toBe(page!.items[0]!.favouritedAt)
    expect(await ids(me.token)).toEqual([record._id])
  })

  it('lists newest favourited first, page by page', async () => {
    const me = await someone()
    const records: WumpusRecord[] = []
    for (let i = 0; i < 5; i++) records.push(await addWumpus(server.store, { name: `Paged ${i}` }))
    const base = Date.now() - 60_000
    // Favourited in another order than made, at known times.
    for (const [i, index] of [3, 0, 4, 1, 2].entries())
      await server.store.favourites.add(me.email, records[index]!._id, { max: FAVOURITES_MAX, at: new Date(base + i * 1000) })
    const pages = await allPages(me.token, 2)
    expect(pages.map((page) => page.items.length)).toEqual([2, 2, 1])
    expect(pages.every((page) => page.total === 5)).toBe(true)
    const expected = [2, 1, 4, 0, 3].map((index) => records[index]!._id)
    expect(pages.flatMap((page) => page.items.map((item) => item._id))).toEqual(expected)
    expect(await ids(me.token)).toEqual(expected)
  })

  it('removes a favourite, and answers 204 again when it is already gone', async () => {
    const me = await someone()
    const [kept, dropped] = [await addWumpus(server.store), await addWumpus(server.store)]
    await favourite(me.token, kept._id)
    await favourite(me.token, dropped._id)
    for (let i = 0; i < 2; i++) expect((await call('DELETE', favouritePath(dropped._id), me.token)).status).toBe(204)
    expect(await ids(me.token)).toEqual([kept._id])
  })

  it('answers 404 in the error shape for unknown and malformed animation ids', async () => {
    const me = await someone()
    for (const id of ['abcdefabcdefabcdefabcdef', 'nope', 'ABCDEFABCDEFABCDEFABCDEF', '%7B%22%24gt%22%3A%22%22%7D']) {
      await expectNotFound(await call('PUT', `${API_PATHS.favourites}/${id}`, me.token))
      await expectNotFound(await call('DELETE', `${API_PATHS.favourites}/${id}`, me.token))
    }
    expect(await ids(me.token)).toEqual([])
  })

  it('answers a delete of another person’s private remix as of an unknown id, and of a remix shared by link as of any animation', async () => {
    const [me, maker] = [await someone(), await someone()]
    const [hidden, shared] = [await addRemix(server.store, maker.email, 'private'), await addRemix(server.store, maker.email, 'link')]
    await expectNotFound(await call('DELETE', favouritePath(hidden._id), me.token))
    expect((await call('DELETE', favouritePath(shared._id), me.token)).status).toBe(204)
    expect((await call('DELETE', favouritePath(hidden._id), maker.token)).status).toBe(204)
    // One favourited while it was shared is still removed once it is private again.
    await favourite(me.token, shared._id)
    await server.store.wumpuses.update(shared._id, { remix: { ...shared.remix!, visibility: 'private' } })
    expect((await call('DELETE', favouritePath(shared._id), me.token)).status).toBe(204)
    expect(await ids(me.token)).toEqual([])
  })

  it('refuses a bad page query in the error shape', async () => {
    const me = await someone()
    for (const query of ['limit=0', 'limit=1000', 'cursor=!!', 'cursor=bm9wZQ', 'other=1']) {
      const res = await call('GET', `${API_PATHS.favourites}?${query}`, me.token)
      expect(res.status, query).toBe(400)
      expect(errorBody(await res.json()).error.code).toBe('BAD_REQUEST')
    }
  })

  it('leaves out an animation deleted since, and forgets the favourite', async () => {
    const me = await someone()
    const [stays, goes] = [await addWumpus(server.store), await addWumpus(server.store)]
    await favourite(me.token, stays._id)
    await favourite(me.token, goes._id)
    expect(await server.store.wumpuses.delete(goes._id)).toBe(1)
    const [page] = await allPages(me.token, 10)
    expect(page!.items.map((item) => item._id)).toEqual([stays._id])
    expect(page!.total).toBe(1)
    expect(await ids(me.token)).toEqual([stays._id])
    await expectNotFound(await call('PUT', favouritePath(goes._id), me.token))
  })

  it('keeps each user’s favourites apart', async () => {
    const [me, other] = [await someone(), await someone()]
    const [mine, theirs] = [await addWumpus(server.store), await addWumpus(server.store)]
    await favourite(me.token, mine._id)
    await favourite(other.token, theirs._id)
    // Removing what only the other user favourited changes nothing for them.
    expect((await call('DELETE', favouritePath(theirs._id), me.token)).status).toBe(204)
    expect(await ids(me.token)).toEqual([mine._id])
    expect(await ids(other.token)).toEqual([theirs._id])
  })

  it('is for any signed-in user, a verified email or not', async () => {
    const me = await someone({ emailVerified: false })
    const record = await addWumpus(server.store)
    await favourite(me.token, record._id)
    expect(await ids(me.token)).toEqual([record._id])
  })

  it(`keeps at most ${FAVOURITES_MAX} favourites: one more is a 409 in the error shape, a repeat still 204`, async () => {
    const me = await someone()
    const first = await addWumpus(server.store)
    await favourite(me.token, first._id)
    // The rest straight in the store (ids of no animation count as well: the cap counts favourites).
    for (let i = 1; i < FAVOURITES_MAX; i++)
      await server.store.favourites.add(me.email, i.toString(16).padStart(24, '0'), { max: FAVOURITES_MAX })
    const extra = await addWumpus(server.store)
    const res = await call('PUT', favouritePath(extra._id), me.token)
    expect(res.status).toBe(409)
    expect(errorBody(await res.json()).error).toMatchObject({
      code: 'CONFLICT',
      details: { reason: 'favourites-full', max: FAVOURITES_MAX },
    })
    await favourite(me.token, first._id)
    expect((await call('DELETE', favouritePath(first._id), me.token)).status).toBe(204)
    await favourite(me.token, extra._id)
  })

  it('answers 401 signed out', async () => {
    const record = await addWumpus(server.store)
    for (const [method, path] of [
      ['GET', favouriteListPath()],
      ['GET', API_PATHS.favouriteIds],
      ['PUT', favouritePath(record._id)],
      ['DELETE', favouritePath(record._id)],
    ] as const) {
      const res = await call(method, path)
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(errorBody(await res.json()).error.code).toBe('UNAUTHENTICATED')
    }
  })
})

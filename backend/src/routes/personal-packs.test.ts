import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PATHS, myPackListPath, packDownloadPath, packPath } from '../../../contract/api-paths'
import { activityListSchema } from '../../../contract/audit'
import { LINK_HEADER, PERSONAL_PACKS_MAX, TOTAL_COUNT_HEADER } from '../../../contract/limits'
import { packDetailSchema, packListSchema, packSchema, updatedPackSchema, type PackVisibility } from '../../../contract/pack'
import { expectError as expectApiError } from '../../test/support/error-body'
import { addPackWithSignalFile, addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

let server: TestServer
const ADMIN = 'packs-admin@example.com'
let admin: string

beforeAll(async () => {
  server = await startTestServer()
  await server.store.users.upsert(ADMIN, { user_name: 'Admin', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
})
afterAll(() => server.close())

let people = 0
/** A signed-in user of their own, with a verified email unless asked. */
async function someone(options: { emailVerified?: boolean } = {}): Promise<{ email: string; token: string }> {
  const email = `packer-${++people}@example.com`
  return { email, token: await server.sessionToken(email, options) }
}

/** As `token` ('' for anonymous). */
const call = (method: string, path: string, token: string, body?: unknown) =>
  fetch(server.url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

async function stickers(count: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push((await addWumpus(server.store, { name: `Sticker ${people}-${i}` }))._id)
  return ids
}

async function makePack(token: string, body: Record<string, unknown>) {
  const res = await call('POST', API_PATHS.myPacks, token, body)
  expect(res.status, await res.clone().text()).toBe(201)
  return packSchema.parse(await res.json())
}

/** A pack of `owner`'s with one sticker that has a Signal file, so it downloads. */
const ownedPack = (owner: string, visibility: PackVisibility) =>
  addPackWithSignalFile(server.store, `Owned ${visibility}`, new Uint8Array([1, 2, 3]), { createdBy: owner, visibility })

/** A refusal, never kept by a cache (personal packs are private). */
async function expectError(res: Response, status: number, code: string) {
  expect(res.headers.get('cache-control')).toBe('no-store')
  return expectApiError(res, status, code)
}

async function activity() {
  return activityListSchema.parse(await (await call('GET', '/api/activity?limit=5', admin)).json())
}

describe('personal packs: making and listing one’s own', () => {
  it('makes a private pack by default, listed at /me/packs for its owner only and never at /packs', async () => {
    const me = await someone()
    const ids = await stickers(2)
    const res = await call('POST', API_PATHS.myPacks, me.token, { name: ' My Pack ', wumpusIds: [ids[1], ids[0]] })
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const pack = packSchema.parse(await res.json())
    expect(pack).toMatchObject({
      name: 'My Pack',
      visibility: 'private',
      createdBy: me.email,
      wumpusIds: [ids[1], ids[0]],
      coverWumpusId: ids[1],
    })
    const shared = await makePack(me.token, { name: 'Shared Pack', wumpusIds: [ids[0]], visibility: 'link' })
    expect(shared.visibility).toBe('link')

    const mine = await call('GET', myPackListPath(), me.token)
    expect(mine.headers.get('cache-control')).toBe('no-store')
    expect(packListSchema.parse(await mine.json()).map((p) => p.id)).toEqual([shared.id, pack.id])
    const other = await someone()
    expect(packListSchema.parse(await (await call('GET', myPackListPath(), other.token)).json())).toEqual([])
    const listed = packListSchema.parse(await (await call('GET', '/api/packs?limit=100', '')).json())
    expect(listed.map((p) => p.id)).not.toContain(pack.id)
    expect(listed.map((p) => p.id)).not.toContain(shared.id)
    // Nothing of one's own is audited.
    expect((await activity()).map((entry) => entry.target.id)).not.toContain(pack.id)
  })

  it('lists the most recently edited first, page by page with X-Total-Count and Link', async () => {
    const me = await someone()
    const [id] = await stickers(1)
    const made = []
    for (let i = 0; i < 3; i++) made.push((await makePack(me.token, { name: `Paged Pack ${i}`, wumpusIds: [id] })).id)
    expect((await call('PUT', packPath(made[0]!), me.token, { name: 'Paged Pack edited' })).status).toBe(200)
    const seen: string[] = []
    let next: string | null = myPackListPath({ limit: 2 })
    while (next) {
      const res = await call('GET', next, me.token)
      expect(res.status).toBe(200)
      expect(res.headers.get(TOTAL_COUNT_HEADER)).toBe('3')
      seen.push(...packListSchema.parse(await res.json()).map((p) => p.id))
      next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get(LINK_HEADER) ?? '')?.[1] ?? null
    }
    expect(seen).toEqual([made[0], made[2], made[1]])
    for (const query of ['limit=0', 'limit=1000', 'cursor=!!', 'other=1']) {
      await expectError(await call('GET', `${API_PATHS.myPacks}?${query}`, me.token), 400, 'BAD_REQUEST')
    }
  })

  it('needs a verified email to make one, and refuses bad input in the error shape', async () => {
    const [id] = await stickers(1)
    const unverified = await someone({ emailVerified: false })
    const refused = await expectError(
      await call('POST', API_PATHS.myPacks, unverified.token, { name: 'Nope Pack', wumpusIds: [id] }),
      403,
      'FORBIDDEN',
    )
    expect(refused.details).toEqual({ reason: 'email-not-verified' })
    expect((await call('POST', API_PATHS.myPacks, '', { name: 'Nope Pack', wumpusIds: [id] })).status).toBe(401)
    const me = await someone()
    for (const body of [
      { name: 'Public Pack', wumpusIds: [id], visibility: 'public' },
      { name: 'Ghost Pack', wumpusIds: ['abcdefabcdefabcdefabcdef'] },
      { name: 'Empty Pack', wumpusIds: [] },
      { name: 'Extra Pack', wumpusIds: [id], createdBy: 'someone@example.com' },
    ]) {
      await expectError(await call('POST', API_PATHS.myPacks, me.token, body), 400, 'BAD_REQUEST')
    }
    expect(packListSchema.parse(await (await call('GET', API_PATHS.myPacks, me.token)).json())).toEqual([])
  })

  it(`keeps at most ${PERSONAL_PACKS_MAX} packs per account: then 409 with reason packs-full`, async () => {
    const me = await someone()
    const [id] = await stickers(1)
    for (let i = 0; i < PERSONAL_PACKS_MAX - 1; i++)
      await server.store.packs.insertPersonal(
        { name: `Filler ${i}`, description: '', wumpusIds: [id!], visibility: 'private', createdBy: me.email },
        { max: PERSONAL_PACKS_MAX },
      )
    const last = await makePack(me.token, { name: 'Last Pack', wumpusIds: [id] })
    const full = await expectError(
      await call('POST', API_PATHS.myPacks, me.token, { name: 'One Too Many', wumpusIds: [id] }),
      409,
      'CONFLICT',
    )
    expect(full).toMatchObject({ code: 'CONFLICT', details: { reason: 'packs-full', max: PERSONAL_PACKS_MAX } })
    // Someone else is not counted with them; deleting one makes room.
    await makePack((await someone()).token, { name: 'Not Counted', wumpusIds: [id] })
    expect((await call('DELETE', packPath(last.id), me.token)).status).toBe(200)
    await makePack(me.token, { name: 'Room Again', wumpusIds: [id] })
  })
})

describe('personal packs: who opens and downloads them', () => {
  it('opens a private pack for its owner and admins only (404 to others), never cached by shared caches', async () => {
    const owner = await someone()
    const other = await someone()
    const id = await ownedPack(owner.email, 'private')
    for (const token of [owner.token, admin]) {
      const res = await call('GET', packPath(id), token)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('private, no-store')
      expect(packDetailSchema.parse(await res.json())).toMatchObject({ id, visibility: 'private', createdBy: owner.email })
      const zip = await call('GET', packDownloadPath(id, 'signal'), token)
      expect(zip.status).toBe(200)
      expect(zip.headers.get('cache-control')).toBe('private, no-store')
      await zip.arrayBuffer()
    }
    const unverifiedAdmin = await server.sessionToken(ADMIN, { emailVerified: false })
    for (const token of ['', other.token, unverifiedAdmin]) {
      const error = await expectError(await call('GET', packPath(id), token), 404, 'NOT_FOUND')
      expect(error.message).toBe('No pack with this id')
      await expectError(await call('GET', packDownloadPath(id, 'signal'), token), 404, 'NOT_FOUND')
    }
  })

  it('opens a pack shared by link for anyone, without its owner’s email', async () => {
    const owner = await someone()
    const id = await ownedPack(owner.email, 'link')
    for (const token of ['', (await someone()).token]) {
      const res = await call('GET', packPath(id), token)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('private, no-store')
      expect(packDetailSchema.parse(await res.json())).toMatchObject({ id, visibility: 'link', createdBy: null })
      const zip = await call('GET', packDownloadPath(id, 'signal'), token)
      expect(zip.status).toBe(200)
      expect(zip.headers.get('cache-control')).toBe('private, no-store')
      await zip.arrayBuffer()
    }
    expect(packDetailSchema.parse(await (await call('GET', packPath(id), owner.token)).json()).createdBy).toBe(owner.email)
    expect(packDetailSchema.parse(await (await call('GET', packPath(id), admin)).json()).createdBy).toBe(owner.email)
  })

  it('keeps public packs as they were: open to all, revalidated by caches, their maker shown', async () => {
    const id = await ownedPack(ADMIN, 'public')
    const res = await call('GET', packPath(id), '')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(packDetailSchema.parse(await res.json())).toMatchObject({ visibility: 'public', createdBy: ADMIN })
    const zip = await call('GET', packDownloadPath(id, 'signal'), '')
    expect(zip.headers.get('cache-control')).toBe('no-store')
    await zip.arrayBuffer()
  })
})

describe('personal packs: editing and deleting', () => {
  it('lets the owner edit and share it, unaudited, answering the pack and no superseded field', async () => {
    const owner = await someone()
    const ids = await stickers(3)
    const pack = await makePack(owner.token, { name: 'Owner Pack', wumpusIds: [ids[0], ids[1]] })
    const res = await call('PUT', packPath(pack.id), owner.token, {
      name: 'Shared Now',
      visibility: 'link',
      wumpusIds: [ids[2], ids[0]],
      coverWumpusId: ids[0],
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(updatedPackSchema.parse(await res.json())).toMatchObject({
      name: 'Shared Now',
      visibility: 'link',
      wumpusIds: [ids[2], ids[0]],
      coverWumpusId: ids[0],
      createdBy: owner.email,
      superseded: [],
    })
    expect((await call('GET', packPath(pack.id), '')).status).toBe(200)
    expect((await activity()).map((entry) => entry.target.id)).not.toContain(pack.id)
    expect(await (await call('DELETE', packPath(pack.id), owner.token)).json()).toEqual({ deletedCount: 1 })
    expect((await activity()).map((entry) => entry.target.id)).not.toContain(pack.id)
  })

  it('keeps the latest edit of each field: an older queued edit loses only the fields edited since, and says which', async () => {
    const owner = await someone()
    const [id] = await stickers(1)
    const now = Date.now()
    // Made two minutes ago.
    const pack = (await server.store.packs.insertPersonal(
      {
        name: 'Synced Pack',
        description: '',
        wumpusIds: [id!],
        visibility: 'private',
        createdBy: owner.email,
        createdAt: new Date(now - 120_000),
      },
      { max: PERSONAL_PACKS_MAX },
    )) as { id: string }
    // The laptop renamed it just now; the phone's edit was made offline a minute ago.
    expect((await call('PUT', packPath(pack.id), owner.token, { name: 'Laptop Name', editedAt: new Date(now).toISOString() })).status).toBe(
      200,
    )
    const phone = await call('PUT', packPath(pack.id), owner.token, {
      name: 'Phone Name',
      description: 'Written on the phone',
      editedAt: new Date(now - 60_000).toISOString(),
    })
    expect(phone.status).toBe(200)
    expect(updatedPackSchema.parse(await phone.json())).toMatchObject({
      name: 'Laptop Name',
      description: 'Written on the phone',
      superseded: ['name'],
    })
    // With an offset, as a device in another zone sends it.
    const offset = await call('PUT', packPath(pack.id), owner.token, { description: 'Later', editedAt: '2000-01-01T05:00:00+05:00' })
    expect(updatedPackSchema.parse(await offset.json())).toMatchObject({ description: 'Written on the phone', superseded: ['description'] })
    for (const editedAt of ['yesterday', '2026-13-01T00:00:00Z', 12]) {
      await expectError(await call('PUT', packPath(pack.id), owner.token, { name: 'Bad Time', editedAt }), 400, 'BAD_REQUEST')
    }
  })

  it('takes an edit time still to come as now, so it cannot win over the edits made until then', async () => {
    const owner = await someone()
    const [id] = await stickers(1)
    const pack = await makePack(owner.token, { name: 'Clock Pack', wumpusIds: [id] })
    const future = await call('PUT', packPath(pack.id), owner.token, { name: 'From The Future', editedAt: '2999-01-01T00:00:00Z' })
    expect(updatedPackSchema.parse(await future.json()).superseded).toEqual([])
    const next = await call('PUT', packPath(pack.id), owner.token, { name: 'Made After' })
    expect(updatedPackSchema.parse(await next.json())).toMatchObject({ name: 'Made After', superseded: [] })
  })

  it('answers 404 to an owner editing a pack another device deleted, and deleting it again changes nothing', async () => {
    const owner = await someone()
    const [id] = await stickers(1)
    const pack = await makePack(owner.token, { name: 'Gone Pack', wumpusIds: [id] })
    expect(await (await call('DELETE', packPath(pack.id), owner.token)).json()).toEqual({ deletedCount: 1 })
    await expectError(await call('PUT', packPath(pack.id), owner.token, { name: 'Too Late' }), 404, 'NOT_FOUND')
    expect(await (await call('DELETE', packPath(pack.id), owner.token)).json()).toEqual({ deletedCount: 0 })
  })

  it('refuses other users: 404 for a private pack, 403 for one shared by link; nothing changes', async () => {
    const owner = await someone()
    const other = await someone()
    for (const visibility of ['private', 'link'] as const) {
      const id = await ownedPack(owner.email, visibility)
      const status = visibility === 'private' ? 404 : 403
      await expectError(
        await call('PUT', packPath(id), other.token, { name: 'Taken Over' }),
        status,
        status === 404 ? 'NOT_FOUND' : 'FORBIDDEN',
      )
      await expectError(await call('DELETE', packPath(id), other.token), status, status === 404 ? 'NOT_FOUND' : 'FORBIDDEN')
      expect(await server.store.packs.get(id)).toMatchObject({ name: `Owned ${visibility} Pack`, visibility })
    }
    // The owner's own session without a verified email cannot write either.
    const id = await ownedPack(owner.email, 'private')
    const unverified = await server.sessionToken(owner.email, { emailVerified: false })
    await expectError(await call('PUT', packPath(id), unverified, { name: 'Unproven' }), 403, 'FORBIDDEN')
  })

  it('lets admins edit and delete anyone’s personal pack, audited', async () => {
    const owner = await someone()
    const id = await ownedPack(owner.email, 'private')
    const res = await call('PUT', packPath(id), admin, { name: 'Moderated Pack', visibility: 'private' })
    expect(updatedPackSchema.parse(await res.json())).toMatchObject({ name: 'Moderated Pack', createdBy: owner.email, superseded: [] })
    const [edit] = await activity()
    expect(edit).toMatchObject({ actor: ADMIN, action: 'pack.edit', target: { type: 'pack', id, name: 'Moderated Pack' } })
    expect(edit!.changes).toEqual([{ field: 'name', from: 'Owned private Pack', to: 'Moderated Pack' }])
    expect(await (await call('DELETE', packPath(id), admin)).json()).toEqual({ deletedCount: 1 })
    expect((await activity())[0]).toMatchObject({ actor: ADMIN, action: 'pack.delete', target: { type: 'pack', id } })
  })

  it('refuses a visibility on a public pack: public packs stay public', async () => {
    const id = await ownedPack(ADMIN, 'public')
    const error = await expectError(await call('PUT', packPath(id), admin, { name: 'Hidden', visibility: 'private' }), 400, 'BAD_REQUEST')
    expect(error.details).toEqual({ field: 'visibility' })
    expect(await server.store.packs.get(id)).toMatchObject({ name: 'Owned public Pack', visibility: 'public' })
    // A user cannot touch it at all.
    await expectError(await call('PUT', packPath(id), (await someone()).token, { name: 'Mine Now' }), 403, 'FORBIDDEN')
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { activityListSchema } from '../../../contract/audit'
import { reportCreatedSchema, reportGroupListSchema, type ReportGroup } from '../../../contract/reports'
import { expectError } from '../../test/support/error-body'
import { addRemix, addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'
import type { PackRecord, WumpusRecord } from '../store/port'

const ADMIN = 'reviewer@example.com'
const FAN = 'fan@example.com'
let server: TestServer
let admin: string
let fan: string
let other: string
let wumpus: WumpusRecord
let linkPack: PackRecord
let privatePack: PackRecord

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true' })
  await server.store.users.upsert(ADMIN, { user_name: 'Reviewer', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
  fan = await server.sessionToken(FAN)
  other = await server.sessionToken('other@example.com')
  wumpus = await addWumpus(server.store, { name: 'Broken Wave' })
  const base = { description: '', wumpusIds: [wumpus._id], createdBy: 'maker@example.com' }
  linkPack = (await server.store.packs.insertPersonal({ ...base, name: 'Shared Pack', visibility: 'link' }, { max: 100 })) as PackRecord
  privatePack = (await server.store.packs.insertPersonal(
    { ...base, name: 'Secret Pack', visibility: 'private' },
    { max: 100 },
  )) as PackRecord
})
afterAll(() => server.close())

/** A report from an address (and a session when a token is given). */
const report = (body: unknown, from = '198.51.100.1', token?: string) =>
  fetch(`${server.url}/api/reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })

async function reported(body: unknown, from?: string, token?: string): Promise<string> {
  const res = await report(body, from, token)
  expect(res.status, await res.clone().text()).toBe(201)
  return reportCreatedSchema.parse(await res.json()).id
}

async function groups(query = '', token = admin): Promise<ReportGroup[]> {
  const res = await server.call('GET', `/api/reports${query}`, token)
  expect(res.status, await res.clone().text()).toBe(200)
  return reportGroupListSchema.parse(await res.json())
}

const groupOf = async (id: string, query = '') => (await groups(`${query}${query ? '&' : '?'}limit=100`)).find((g) => g.id === id)

describe('POST /api/reports', () => {
  it('takes a report from a visitor and from a signed-in person; admins see the email, never the address', async () => {
    const target = await addWumpus(server.store, { name: 'Odd One' })
    const byVisitor = await reported({ wumpusId: target._id, reason: 'broken', note: 'Stops after a second' }, '198.51.100.7')
    const byFan = await reported({ wumpusId: target._id, reason: 'offensive' }, '198.51.100.8', fan)
    expect(byVisitor).not.toBe(byFan)
    const group = await groupOf(target._id)
    expect(group).toMatchObject({ kind: 'wumpus', id: target._id, name: 'Odd One', count: 2 })
    expect(group!.reports.map((r) => [r.id, r.reason, r.note, r.reporter])).toEqual([
      [byVisitor, 'broken', 'Stops after a second', undefined],
      [byFan, 'offensive', '', FAN],
    ])
    expect(JSON.stringify(group)).not.toContain('198.51.100')
  })

  it("answers the same person's second report against the same thing, while the first is open, with the first one's id", async () => {
    const target = await addWumpus(server.store)
    const first = await reported({ wumpusId: target._id, reason: 'spam' }, '198.51.100.9', fan)
    expect(await reported({ wumpusId: target._id, reason: 'broken' }, '198.51.100.10', fan)).toBe(first)
    const visitor = await reported({ wumpusId: target._id, reason: 'spam' }, '198.51.100.11')
    expect(await reported({ wumpusId: target._id, reason: 'spam' }, '198.51.100.11')).toBe(visitor)
    expect((await groupOf(target._id))!.count).toBe(2)
  })

  it('takes a report against a pack shared by link and a remix shared by link', async () => {
    await reported({ packId: linkPack.id, reason: 'copyright', note: 'My art' }, '198.51.100.12')
    expect(await groupOf(linkPack.id)).toMatchObject({ kind: 'pack', name: 'Shared Pack', count: 1 })
    const remix = await addRemix(server.store, 'maker@example.com', 'link')
    await reported({ wumpusId: remix._id, reason: 'sensitive' }, '198.51.100.12')
  })

  it('answers 404 in the error shape for what cannot be reported: unknown, a private pack, a private remix', async () => {
    const privateRemix = await addRemix(server.store, 'maker@example.com', 'private')
    for (const body of [
      { wumpusId: 'abcdefabcdefabcdefabcdef', reason: 'spam' },
      { wumpusId: 'nope', reason: 'spam' },
      { packId: privatePack.id, reason: 'spam' },
      { wumpusId: privateRemix._id, reason: 'spam' },
    ])
      await expectError(await report(body, '198.51.100.13', fan), 404, 'NOT_FOUND')
    expect(await groupOf(privatePack.id)).toBeUndefined()
    expect(await groupOf(privateRemix._id)).toBeUndefined()
  })

  it.each([
    ['no target', { reason: 'spam' }],
    ['both targets', { wumpusId: 'abcdefabcdefabcdefabcdef', packId: 'abcdefabcdefabcdefabcdef', reason: 'spam' }],
    ['an unknown reason', { wumpusId: 'abcdefabcdefabcdefabcdef', reason: 'ugly' }],
    ['"other" without a note', { wumpusId: 'abcdefabcdefabcdefabcdef', reason: 'other', note: '  ' }],
    ['a note over 500 characters', { wumpusId: 'abcdefabcdefabcdefabcdef', reason: 'spam', note: 'x'.repeat(501) }],
    ['an unknown field', { wumpusId: 'abcdefabcdefabcdefabcdef', reason: 'spam', extra: 1 }],
  ])('refuses %s with 400', async (_, body) => {
    await expectError(await report(body, '198.51.100.14'), 400, 'BAD_REQUEST')
  })
})

describe('GET /api/reports', () => {
  it('lists the groups with the most open reports first, then the oldest, paged by cursor with Link', async () => {
    const limited = await startTestServer({ TRUST_PROXY: 'true' })
    try {
      await limited.store.users.upsert(ADMIN, { user_name: 'Reviewer', role: 'admin' })
      const token = await limited.sessionToken(ADMIN)
      const [a, b, c] = [await addWumpus(limited.store), await addWumpus(limited.store), await addWumpus(limited.store)]
      const send = (id: string, from: string) =>
        fetch(`${limited.url}/api/reports`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
          body: JSON.stringify({ wumpusId: id, reason: 'spam' }),
        })
      for (const [id, from] of [
        [c._id, '203.0.113.1'],
        [b._id, '203.0.113.2'],
        [a._id, '203.0.113.3'],
        [b._id, '203.0.113.4'],
        [a._id, '203.0.113.5'],
      ] as const)
        expect((await send(id, from)).status).toBe(201)
      const first = await limited.call('GET', '/api/reports?limit=2', token)
      // a and b have two each, b's first came before a's; c has one.
      expect(reportGroupListSchema.parse(await first.json()).map((g) => [g.id, g.count])).toEqual([
        [b._id, 2],
        [a._id, 2],
      ])
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1]
      expect(next).toMatch(/^\/api\/reports\?state=open&limit=2&cursor=/)
      const second = await limited.call('GET', next!, token)
      expect(reportGroupListSchema.parse(await second.json()).map((g) => g.id)).toEqual([c._id])
      expect(second.headers.get('link') ?? '').not.toContain('rel="next"')
    } finally {
      await limited.close()
    }
  })

  it('refuses a bad state or cursor with 400, visitors with 401 and people who are not admins with 403', async () => {
    await expectError(await server.call('GET', '/api/reports?state=closed', admin), 400, 'BAD_REQUEST')
    await expectError(await server.call('GET', '/api/reports?cursor=bm9wZQ', admin), 400, 'BAD_REQUEST')
    await expectError(await server.call('GET', '/api/reports'), 401, 'UNAUTHENTICATED')
    await expectError(await server.call('GET', '/api/reports', other), 403, 'FORBIDDEN')
  })
})

describe('POST /api/reports/decision', () => {
  it('dismisses every open report against a target at once, lists them as decided and logs it; the next report opens a new one', async () => {
    const target = await addWumpus(server.store, { name: 'Fine Really' })
    const first = await reported({ wumpusId: target._id, reason: 'broken' }, '198.51.100.20', fan)
    await reported({ wumpusId: target._id, reason: 'spam' }, '198.51.100.21')
    const res = await server.call('POST', '/api/reports/decision', admin, { wumpusId: target._id, decision: 'dismiss', note: 'Plays fine' })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await res.json()).toEqual({ decided: 2 })
    expect(await groupOf(target._id)).toBeUndefined()
    const decided = await groupOf(target._id, '?state=decided')
    expect(decided!.reports.map((r) => [r.decision, r.decisionNote, r.decidedBy])).toEqual([
      ['dismiss', 'Plays fine', ADMIN],
      ['dismiss', 'Plays fine', ADMIN],
    ])
    const log = activityListSchema.parse(await (await server.call('GET', '/api/activity?limit=5', admin)).json())
    expect(log[0]).toMatchObject({
      actor: ADMIN,
      action: 'report.dismiss',
      target: { type: 'wumpus', id: target._id, name: 'Fine Really' },
    })
    // Nothing open is left: deciding again is 404; the fan's next report is a new open one.
    await expectError(
      await server.call('POST', '/api/reports/decision', admin, { wumpusId: target._id, decision: 'dismiss' }),
      404,
      'NOT_FOUND',
    )
    expect(await reported({ wumpusId: target._id, reason: 'broken' }, '198.51.100.20', fan)).not.toBe(first)
  })

  it('refuses a missing target, visitors and people who are not admins', async () => {
    await expectError(await server.call('POST', '/api/reports/decision', admin, { decision: 'dismiss' }), 400, 'BAD_REQUEST')
    await expectError(
      await server.call('POST', '/api/reports/decision', admin, { wumpusId: wumpus._id, decision: 'bury' }),
      400,
      'BAD_REQUEST',
    )
    for (const decision of ['dismiss', 'hide', 'restore', 'delete']) {
      await expectError(
        await server.call('POST', '/api/reports/decision', undefined, { wumpusId: wumpus._id, decision }),
        401,
        'UNAUTHENTICATED',
      )
      await expectError(await server.call('POST', '/api/reports/decision', other, { wumpusId: wumpus._id, decision }), 403, 'FORBIDDEN')
    }
  })
})

describe('hide, restore and delete a reported animation', () => {
  const decide = (body: Record<string, unknown>) => server.call('POST', '/api/reports/decision', admin, body)
  const status = async (path: string, token?: string) => (await server.call('GET', path, token)).status
  const galleryIds = async (query = '') =>
    ((await (await server.call('GET', `/api/wumpuses?limit=100${query}`)).json()) as { _id: string }[]).map((w) => w._id)
  const total = async () => Number((await server.call('GET', '/api/wumpuses?limit=1')).headers.get('x-total-count'))
  const tags = async () => ((await (await server.call('GET', '/api/tags')).json()) as { tag: string }[]).map((t) => t.tag)
  const packItems = async (id: string) =>
    ((await (await server.call('GET', `/api/packs/${id}`)).json()) as { items: { _id: string }[] }).items.map((w) => w._id)

  it('hides at once from lists, counts, search, tags, packs and its files, keeps the reports open; restore brings it all back', async () => {
    const maker = 'quokka-maker@example.com'
    const makerToken = await server.sessionToken(maker)
    const target = await addWumpus(server.store, { name: 'Quokka Dance', tags: ['quokkahop'], u_email: maker })
    const pack = await server.store.packs.insert({ name: 'Marsupials', description: '', wumpusIds: [target._id], createdBy: ADMIN })
    await reported({ wumpusId: target._id, reason: 'offensive' }, '198.51.100.40', fan)
    expect((await server.call('PUT', `/api/me/favourites/${target._id}`, fan)).status).toBe(204)
    const favourites = async () =>
      ((await (await server.call('GET', '/api/me/favourites?limit=100', fan)).json()) as { _id: string }[]).map((w) => w._id)
    expect(await favourites()).toContain(target._id)
    const before = await total()
    expect(await galleryIds()).toContain(target._id)
    expect(await galleryIds('&q=quokka')).toContain(target._id)
    expect(await tags()).toContain('quokkahop')

    const hid = await decide({ wumpusId: target._id, decision: 'hide', note: 'Looking into it' })
    expect(hid.status, await hid.clone().text()).toBe(200)
    expect(await hid.json()).toEqual({ decided: 1 })
    // The group stays open, marked hidden, its report undecided.
    const group = await groupOf(target._id)
    expect(group).toMatchObject({ hidden: true, count: 1 })
    expect(group!.reports[0]!.decision).toBeUndefined()
    // Gone for everyone but admins, its maker included.
    expect(await galleryIds()).not.toContain(target._id)
    expect(await galleryIds('&q=quokka')).not.toContain(target._id)
    expect(await galleryIds('&tag=quokkahop')).not.toContain(target._id)
    expect(await total()).toBe(before - 1)
    expect(await tags()).not.toContain('quokkahop')
    expect(await packItems(pack.id)).not.toContain(target._id)
    expect(await favourites()).not.toContain(target._id)
    await expectError(await server.call('GET', `/api/wumpus/${target._id}`), 404, 'NOT_FOUND')
    await expectError(await server.call('GET', `/api/wumpus/${target._id}`, makerToken), 404, 'NOT_FOUND')
    expect(await status(`/api/files/${target.files.gif.id}`)).toBe(404)
    expect(await status(`/api/files/${target.files.lottie.id}`, makerToken)).toBe(404)
    // Admins still see it, and its files (never cached as public).
    const seen = await server.call('GET', `/api/wumpus/${target._id}`, admin)
    expect(seen.status).toBe(200)
    expect(seen.headers.get('cache-control')).toBe('private, no-store')
    expect(((await seen.json()) as { hidden?: { by: string } }).hidden).toMatchObject({ by: ADMIN })
    const file = await server.call('GET', `/api/files/${target.files.gif.id}`, admin)
    expect(file.status).toBe(200)
    expect(file.headers.get('cache-control')).toBe('private, no-cache')
    // Nobody can report it any more.
    await expectError(await report({ wumpusId: target._id, reason: 'spam' }, '198.51.100.41'), 404, 'NOT_FOUND')

    const restored = await decide({ wumpusId: target._id, decision: 'restore', note: 'It is fine' })
    expect(restored.status, await restored.clone().text()).toBe(200)
    expect(await restored.json()).toEqual({ decided: 1 })
    expect(await groupOf(target._id)).toBeUndefined()
    const decided = await groupOf(target._id, '?state=decided')
    expect(decided!.reports.map((r) => [r.decision, r.decisionNote])).toEqual([['restore', 'It is fine']])
    expect(decided!.hidden).toBeUndefined()
    expect(await galleryIds('&q=quokka')).toContain(target._id)
    expect(await total()).toBe(before)
    expect(await tags()).toContain('quokkahop')
    expect(await packItems(pack.id)).toContain(target._id)
    expect(await favourites()).toContain(target._id)
    expect(await status(`/api/wumpus/${target._id}`)).toBe(200)
    expect(await status(`/api/files/${target.files.gif.id}`)).toBe(200)
    const log = activityListSchema.parse(await (await server.call('GET', '/api/activity?limit=5', admin)).json())
    expect(log.slice(0, 2).map((entry) => [entry.action, entry.target.id])).toEqual([
      ['report.restore', target._id],
      ['report.hide', target._id],
    ])
  })

  it("leaves a hidden remix out of its owner's My remixes (it would open as 404), and brings it back on restore", async () => {
    const owner = 'remixer@example.com'
    const ownerToken = await server.sessionToken(owner)
    const remix = await addRemix(server.store, owner, 'link')
    const mine = async () => {
      const res = await server.call('GET', '/api/me/remixes?limit=50', ownerToken)
      expect(res.status, await res.clone().text()).toBe(200)
      return { ids: ((await res.json()) as { _id: string }[]).map((w) => w._id), total: res.headers.get('x-total-count') }
    }
    expect(await mine()).toEqual({ ids: [remix._id], total: '1' })
    await reported({ wumpusId: remix._id, reason: 'offensive' }, '198.51.100.44')
    expect((await decide({ wumpusId: remix._id, decision: 'hide' })).status).toBe(200)
    expect(await mine()).toEqual({ ids: [], total: '0' })
    await expectError(await server.call('GET', `/api/wumpus/${remix._id}`, ownerToken), 404, 'NOT_FOUND')
    expect((await decide({ wumpusId: remix._id, decision: 'restore' })).status).toBe(200)
    expect(await mine()).toEqual({ ids: [remix._id], total: '1' })
  })

  it('deletes a hidden animation with its files through the delete service, closing its reports', async () => {
    const target = await addWumpus(server.store, { name: 'Doomed Wallaby' })
    await reported({ wumpusId: target._id, reason: 'copyright' }, '198.51.100.42')
    expect((await decide({ wumpusId: target._id, decision: 'hide' })).status).toBe(200)
    const res = await decide({ wumpusId: target._id, decision: 'delete', note: 'Not theirs' })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await res.json()).toEqual({ decided: 1 })
    expect(await server.store.wumpuses.get(target._id)).toBeUndefined()
    expect(await server.store.files.info(target.files.gif.id)).toBeUndefined()
    expect(await status(`/api/wumpus/${target._id}`, admin)).toBe(404)
    expect(await groupOf(target._id)).toBeUndefined()
    const decided = await groupOf(target._id, '?state=decided')
    expect(decided!.reports.map((r) => [r.decision, r.decidedBy])).toEqual([['delete', ADMIN]])
    const log = activityListSchema.parse(await (await server.call('GET', '/api/activity?limit=5', admin)).json())
    expect(log.slice(0, 2).map((entry) => entry.action)).toEqual(['report.delete', 'wumpus.delete'])
  })

  it('refuses what does not fit the state in the error shape: 409 twice hidden, restore of a shown one, dismiss of a hidden one; 400 for a pack', async () => {
    const target = await addWumpus(server.store, { name: 'Contested Koala' })
    await reported({ wumpusId: target._id, reason: 'broken' }, '198.51.100.43')
    await expectError(await decide({ wumpusId: target._id, decision: 'restore' }), 409, 'CONFLICT')
    expect((await decide({ wumpusId: target._id, decision: 'hide' })).status).toBe(200)
    await expectError(await decide({ wumpusId: target._id, decision: 'hide' }), 409, 'CONFLICT')
    await expectError(await decide({ wumpusId: target._id, decision: 'dismiss' }), 409, 'CONFLICT')
    expect(await groupOf(target._id)).toMatchObject({ hidden: true, count: 1 })
    await reported({ packId: linkPack.id, reason: 'spam' }, '198.51.100.44')
    for (const decision of ['hide', 'restore', 'delete'])
      await expectError(await decide({ packId: linkPack.id, decision }), 400, 'BAD_REQUEST')
    // Nothing reported: nothing to decide.
    const unreported = await addWumpus(server.store, { name: 'Quiet Numbat' })
    for (const decision of ['hide', 'delete']) await expectError(await decide({ wumpusId: unreported._id, decision }), 404, 'NOT_FOUND')
    expect(await status(`/api/wumpus/${unreported._id}`)).toBe(200)
  })
})

describe('limits', () => {
  it('refuses past REPORTS_PER_HOUR per address and per account with 429 and Retry-After', async () => {
    const limited = await startTestServer({ TRUST_PROXY: 'true', RATE_LIMIT_FACTOR: '1', REPORTS_PER_HOUR: '2' })
    try {
      const target = await addWumpus(limited.store)
      const token = await limited.sessionToken(FAN)
      const send = (from: string, auth?: string) =>
        fetch(`${limited.url}/api/reports`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
          body: JSON.stringify({ wumpusId: target._id, reason: 'spam' }),
        })
      expect((await send('203.0.113.1')).status).toBe(201)
      expect((await send('203.0.113.1')).status).toBe(201)
      const refused = await send('203.0.113.1')
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
      expect((await expectError(refused, 429, 'RATE_LIMITED')).details).toMatchObject({ limit: 'reports', max: 2 })
      // Per account: the same person from new addresses each time.
      expect((await send('203.0.113.2', token)).status).toBe(201)
      expect((await send('203.0.113.3', token)).status).toBe(201)
      await expectError(await send('203.0.113.4', token), 429, 'RATE_LIMITED')
      expect((await send('203.0.113.5')).status).toBe(201)
    } finally {
      await limited.close()
    }
  })
})

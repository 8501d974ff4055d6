import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { notificationPageSchema, notificationsMarkedSchema, type NotificationPage } from '../../../contract/notifications'
import { submissionCreatedSchema } from '../../../contract/submissions'
import { lottieBytes } from '../../test/fixtures/lottie'
import { expectError } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

const ADMIN = 'reviewer@example.com'
const MAKER = 'maker@example.com'
let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startTestServer({ SUBMISSIONS_WAITING_MAX: '1000', TRUST_PROXY: 'true' })
  await server.store.users.upsert(ADMIN, { user_name: 'Reviewer', role: 'admin' })
  await server.store.users.upsert(MAKER, { user_name: 'Maker Person' })
  admin = await server.sessionToken(ADMIN)
})
afterAll(() => server.close())

const FIELDS = {
  name: 'Waving Friend',
  description: 'A friendly wave',
  tags: 'wave',
  emoji: '👋',
  keywords: 'hello',
  licence: 'CC0-1.0',
  credit: 'Maker Person',
  source: '',
  original: 'true',
  sensitive: 'false',
}

/** A fresh person's session, so each test reads only its own notifications. */
let people = 0
async function person(): Promise<{ email: string; token: string }> {
  const email = `person${++people}@example.com`
  return { email, token: await server.sessionToken(email) }
}

async function submit(token: string, name = FIELDS.name): Promise<string> {
  const data = new FormData()
  for (const [key, value] of Object.entries({ ...FIELDS, name })) data.append(key, value)
  data.append('file', new Blob([lottieBytes()], { type: 'application/json' }), 'wave.json')
  const res = await server.call('POST', '/api/submissions', token, data)
  expect(res.status, await res.clone().text()).toBe(201)
  return submissionCreatedSchema.parse(await res.json()).id
}

async function decideSubmission(id: string, body: unknown): Promise<void> {
  const res = await server.call('POST', `/api/submissions/${id}/decision`, admin, body)
  expect(res.status, await res.clone().text()).toBe(200)
}

async function notifications(token: string, query = ''): Promise<{ page: NotificationPage; res: Response }> {
  const res = await server.call('GET', `/api/me/notifications${query}`, token)
  expect(res.status, await res.clone().text()).toBe(200)
  expect(res.headers.get('cache-control')).toBe('no-store')
  return { page: notificationPageSchema.parse(await res.json()), res }
}

const report = (body: unknown, from: string, token?: string) =>
  fetch(`${server.url}/api/reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })

describe('GET /api/me/notifications', () => {
  it('tells the submitter of each decision on their submission, with the note, newest first, unread', async () => {
    const maker = await person()
    const changes = await submit(maker.token, 'Loop')
    const refused = await submit(maker.token, 'Copy')
    const published = await submit(maker.token, 'Wave')
    await decideSubmission(changes, { decision: 'changes', note: 'Please loop it smoothly' })
    await decideSubmission(refused, { decision: 'refuse', note: 'Not a wumpus' })
    await decideSubmission(published, { decision: 'publish' })
    const { page } = await notifications(maker.token)
    expect(page.unread).toBe(3)
    expect(page.items.map((n) => [n.kind, n.subject, n.note, n.read])).toEqual([
      ['submission.published', { kind: 'submission', id: published, name: 'Wave' }, '', false],
      ['submission.refused', { kind: 'submission', id: refused, name: 'Copy' }, 'Not a wumpus', false],
      ['submission.changes', { kind: 'submission', id: changes, name: 'Loop' }, 'Please loop it smoothly', false],
    ])
    // Nobody else hears of it, the reviewer included.
    expect((await notifications(admin)).page.items.filter((n) => [changes, refused, published].includes(n.subject.id))).toEqual([])
  })

  it('tells each signed-in reporter once when the reports against a sticker are decided; anonymous reporters get none', async () => {
    const [fan, friend, bystander] = [await person(), await person(), await person()]
    const target = await addWumpus(server.store, { name: 'Odd One' })
    const other = await addWumpus(server.store, { name: 'Fine One' })
    expect((await report({ wumpusId: target._id, reason: 'broken' }, '198.51.100.20', fan.token)).status).toBe(201)
    expect((await report({ wumpusId: target._id, reason: 'spam' }, '198.51.100.21', friend.token)).status).toBe(201)
    expect((await report({ wumpusId: target._id, reason: 'spam' }, '198.51.100.22')).status).toBe(201)
    expect((await report({ wumpusId: other._id, reason: 'spam' }, '198.51.100.23', bystander.token)).status).toBe(201)
    const decided = await server.call('POST', '/api/reports/decision', admin, {
      wumpusId: target._id,
      decision: 'dismiss',
      note: 'Plays fine here',
    })
    expect(decided.status, await decided.clone().text()).toBe(200)
    for (const reporter of [fan, friend]) {
      const { page } = await notifications(reporter.token)
      expect(page.unread).toBe(1)
      expect(page.items).toEqual([
        expect.objectContaining({
          kind: 'report.decided',
          subject: { kind: 'wumpus', id: target._id, name: 'Odd One' },
          decision: 'dismiss',
          note: 'Plays fine here',
          read: false,
        }),
      ])
    }
    expect((await notifications(bystander.token)).page).toEqual({ unread: 0, items: [] })
  })

  it('pages by cursor with Link and counts every unread one, not only the page', async () => {
    const reader = await person()
    for (let i = 0; i < 5; i++) {
      await server.store.notifications.insert(
        {
          recipient: reader.email,
          kind: 'submission.refused',
          subject: { kind: 'submission', id: `s${i}`, name: `N${i}` },
          note: '',
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        },
        { keep: 100 },
      )
    }
    const seen: string[] = []
    let path: string | undefined = '/api/me/notifications?limit=2'
    while (path) {
      const { page, res } = await notifications(reader.token, path.slice('/api/me/notifications'.length))
      expect(page.unread).toBe(5)
      seen.push(...page.items.map((n) => n.subject.name))
      path = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    }
    expect(seen).toEqual(['N4', 'N3', 'N2', 'N1', 'N0'])
    await expectError(await server.call('GET', '/api/me/notifications?cursor=bm9wZQ', reader.token), 400, 'BAD_REQUEST')
    await expectError(await server.call('GET', '/api/me/notifications?limit=0', reader.token), 400, 'BAD_REQUEST')
    await expectError(await server.call('GET', '/api/me/notifications'), 401, 'UNAUTHENTICATED')
  })

  it('keeps a decision when its notification cannot be stored', async () => {
    const maker = await person()
    const id = await submit(maker.token)
    const failing = vi.spyOn(server.store.notifications, 'insert').mockRejectedValueOnce(new Error('disk full'))
    try {
      await decideSubmission(id, { decision: 'refuse', note: 'Not a wumpus' })
      expect(failing).toHaveBeenCalledOnce()
    } finally {
      failing.mockRestore()
    }
    expect((await server.store.submissions.get(id))?.state).toBe('refused')
    expect((await notifications(maker.token)).page.items).toEqual([])
  })
})

describe('POST /api/me/notifications/read', () => {
  it('marks one and the older ones read, then all; only one’s own', async () => {
    const [reader, stranger] = [await person(), await person()]
    const made = []
    for (let i = 0; i < 3; i++) {
      made.push(
        await server.store.notifications.insert(
          {
            recipient: reader.email,
            kind: 'submission.changes',
            subject: { kind: 'submission', id: `m${i}`, name: `M${i}` },
            note: '',
            createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
          },
          { keep: 100 },
        ),
      )
    }
    const mark = (body: unknown, token = reader.token) => server.call('POST', '/api/me/notifications/read', token, body)
    const res = await mark({ upTo: made[1]!.id })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(notificationsMarkedSchema.parse(await res.json())).toEqual({ marked: 2, unread: 1 })
    expect((await notifications(reader.token)).page.items.map((n) => [n.subject.name, n.read])).toEqual([
      ['M2', false],
      ['M1', true],
      ['M0', true],
    ])
    await expectError(await mark({ upTo: made[2]!.id }, stranger.token), 404, 'NOT_FOUND')
    await expectError(await mark({ upTo: 'x y' }), 400, 'BAD_REQUEST')
    await expectError(await mark({ all: true }), 400, 'BAD_REQUEST')
    expect(notificationsMarkedSchema.parse(await (await mark({})).json())).toEqual({ marked: 1, unread: 0 })
    await expectError(await server.call('POST', '/api/me/notifications/read', undefined, {}), 401, 'UNAUTHENTICATED')
  })
})

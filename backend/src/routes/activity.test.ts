import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { activityListSchema, type ActivityEntry } from '../../../contract/audit'
import { wumpusSchema } from '../../../contract/wumpus'
import { errorBody } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'
import { buildGif } from '../../test/fixtures/gif'
import { lottieBytes } from '../../test/fixtures/lottie'
import { buildApng } from '../../test/fixtures/png'

let server: TestServer
let admin: string
const ADMIN = 'curator@example.com'
beforeAll(async () => {
  server = await startTestServer()
  await server.store.users.upsert(ADMIN, { user_name: 'Curator', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
})
afterAll(() => server.close())

const call = (method: string, path: string, token = admin, body?: unknown) =>
  fetch(server.url + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  })

async function upload(format: 'gif' | 'apng' | 'lottie', bytes: Uint8Array): Promise<{ id: string; filename: string }> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), `a.${format}`)
  return (await call('POST', `/api/uploads/animation?format=${format}`, admin, form)).json() as Promise<{ id: string; filename: string }>
}

const activity = async (path = '/api/activity') => {
  const res = await call('GET', path)
  expect(res.status).toBe(200)
  return { entries: activityListSchema.parse(await res.json()), next: /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1] }
}

describe('GET /api/activity (the admin audit log)', () => {
  it('records who published, edited and deleted which animation and what changed, newest first', async () => {
    const gif = await upload('gif', buildGif())
    const files = { gif: gif.id, apng: (await upload('apng', buildApng())).id, lottie: (await upload('lottie', lottieBytes())).id }
    const started = Date.now()
    const created = wumpusSchema.parse(
      await (await call('POST', '/api/wumpuses', admin, { name: 'Audited Wumpus', description: 'Watched by the log', files })).json(),
    )
    await call('PUT', `/api/wumpuses/${created._id}`, admin, { name: 'Renamed Wumpus' })
    await call('PUT', `/api/wumpuses/${created._id}`, admin, { name: 'Renamed Wumpus' }) // no change, no entry
    await call('DELETE', `/api/wumpus/${created._id}`)
    await server.store.users.upsert('newcomer@example.com', { user_name: 'Newcomer' })
    await call('PUT', '/api/user/admin/newcomer@example.com')

    const { entries } = await activity()
    expect(entries.map((e) => e.action).slice(0, 4)).toEqual(['user.make-admin', 'wumpus.delete', 'wumpus.edit', 'wumpus.publish'])
    const [promotion, deletion, edit, publish] = entries as [ActivityEntry, ActivityEntry, ActivityEntry, ActivityEntry]
    for (const entry of [promotion, deletion, edit, publish]) {
      expect(entry.actor).toBe(ADMIN)
      expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(started - 1000)
    }
    expect(publish).toMatchObject({ target: { type: 'wumpus', id: created._id, name: 'Audited Wumpus' } })
    expect(publish.changes).toContainEqual({ field: 'name', to: 'Audited Wumpus' })
    expect(publish.changes).toContainEqual({ field: 'gif', to: `${gif.filename} (${gif.id})` })
    expect(edit.changes).toEqual([{ field: 'name', from: 'Audited Wumpus', to: 'Renamed Wumpus' }])
    expect(deletion).toMatchObject({ target: { name: 'Renamed Wumpus' } })
    expect(deletion.changes).toContainEqual({ field: 'description', from: 'Watched by the log' })
    expect(promotion).toMatchObject({
      target: { type: 'user', id: 'newcomer@example.com', name: 'Newcomer' },
      changes: [{ field: 'role', from: 'user', to: 'admin' }],
    })
  })

  it('pages with a Link to the next page', async () => {
    for (let i = 0; i < 3; i++) {
      await server.store.users.upsert(`paged-${i}@example.com`, {})
      await call('PUT', `/api/user/admin/paged-${i}@example.com`)
    }
    const first = await activity('/api/activity?limit=2')
    expect(first.entries).toHaveLength(2)
    expect(first.entries.map((e) => e.target.id)).toEqual(['paged-2@example.com', 'paged-1@example.com'])
    const second = await activity(first.next)
    expect(second.entries[0]!.target.id).toBe('paged-0@example.com')
  })

  it('is for admins with a verified email only, and refuses bad queries', async () => {
    await server.store.users.upsert('reader@example.com', {})
    expect((await call('GET', '/api/activity', await server.sessionToken('reader@example.com'))).status).toBe(403)
    expect((await call('GET', '/api/activity', await server.sessionToken(ADMIN, { emailVerified: false }))).status).toBe(403)
    for (const query of ['limit=0', 'limit=1000', 'cursor=$$', 'cursor=bm9wZQ', 'sort=actor']) {
      const res = await call('GET', `/api/activity?${query}`)
      expect(res.status, query).toBe(400)
      errorBody(await res.json())
    }
  })
})

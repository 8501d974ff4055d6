import 'fake-indexeddb/auto'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { server } from '../../test/msw-server'
import { forgetQueuedWrites, onOutboxEvent, pendingWrites, queueWrite, sendQueuedWrites, type OutboxEvent } from './outbox'

const ADA = 'ada@example.com'
const favourite = (id: string, on = true) =>
  ({ method: on ? 'PUT' : 'DELETE', path: `/api/me/favourites/${id}`, key: `favourite:${id}`, label: `Favourite ${id}` }) as const

let events: OutboxEvent[] = []
let stopListening = () => {}
/** What the server received, in order. */
let received: string[] = []
let online = false

beforeEach(async () => {
  await forgetQueuedWrites()
  events = []
  received = []
  online = false
  stopListening = onOutboxEvent((event) => events.push(event))
  server.use(
    http.all('/api/*', async ({ request }) => {
      if (!online) return HttpResponse.error()
      const path = new URL(request.url).pathname
      received.push(`${request.method} ${path}`)
      if (path.endsWith('/gone')) return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No such animation' } }, { status: 404 })
      if (path.endsWith('/busy')) return HttpResponse.json({ error: { code: 'RATE_LIMITED', message: 'Slow down' } }, { status: 429 })
      if (request.method === 'PUT' && path.startsWith('/api/packs/')) return HttpResponse.json({ superseded: ['name'] })
      return new HttpResponse(null, { status: 204 })
    }),
  )
})

afterEach(() => stopListening())

/** Queues while offline (the first send fails), then lets the queue wait. */
async function queueOffline(write: Parameters<typeof queueWrite>[1]) {
  await queueWrite(ADA, write)
  await sendQueuedWrites(ADA)
}

describe('the outbox', () => {
  it('keeps writes made offline and sends them in order when the server can be reached', async () => {
    await queueOffline(favourite('a'))
    await queueOffline(favourite('b'))
    await queueOffline({ method: 'PUT', path: '/api/packs/p1', body: { name: 'Night' }, key: 'pack:p1:1', label: 'Edit pack' })
    expect(received).toEqual([])
    expect((await pendingWrites(ADA)).map((write) => write.path)).toEqual(['/api/me/favourites/a', '/api/me/favourites/b', '/api/packs/p1'])

    online = true
    await sendQueuedWrites(ADA)
    expect(received).toEqual(['PUT /api/me/favourites/a', 'PUT /api/me/favourites/b', 'PUT /api/packs/p1'])
    expect(await pendingWrites(ADA)).toEqual([])
    const sent = events.filter((event) => event.type === 'sent')
    expect(sent.map((event) => event.type === 'sent' && event.body)).toEqual([undefined, undefined, { superseded: ['name'] }])
  })

  it('sends only the last of writes with the same key', async () => {
    await queueOffline(favourite('a'))
    await queueOffline(favourite('b'))
    await queueOffline(favourite('a', false))
    online = true
    await sendQueuedWrites(ADA)
    expect(received).toEqual(['PUT /api/me/favourites/b', 'DELETE /api/me/favourites/a'])
  })

  it('drops a write the server refuses for good, says so, and sends the rest', async () => {
    await queueOffline(favourite('gone'))
    await queueOffline(favourite('b'))
    online = true
    await sendQueuedWrites(ADA)
    expect(received).toEqual(['PUT /api/me/favourites/gone', 'PUT /api/me/favourites/b'])
    const refused = events.find((event) => event.type === 'refused')
    expect(refused).toMatchObject({ write: { path: '/api/me/favourites/gone' }, error: { status: 404, message: 'No such animation' } })
    expect(await pendingWrites(ADA)).toEqual([])
  })

  it('keeps a write the server asks to retry later, with everything behind it', async () => {
    await queueOffline(favourite('busy'))
    await queueOffline(favourite('b'))
    online = true
    await sendQueuedWrites(ADA)
    expect(received).toEqual(['PUT /api/me/favourites/busy'])
    expect((await pendingWrites(ADA)).map((write) => write.path)).toEqual(['/api/me/favourites/busy', '/api/me/favourites/b'])
  })

  it('keeps each user’s queue apart and forgets one on request', async () => {
    await queueOffline(favourite('a'))
    await queueWrite('bob@example.com', favourite('b'))
    await forgetQueuedWrites(ADA)
    expect(await pendingWrites(ADA)).toEqual([])
    expect((await pendingWrites('bob@example.com')).map((write) => write.path)).toEqual(['/api/me/favourites/b'])
  })
})

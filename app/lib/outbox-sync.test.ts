import 'fake-indexeddb/auto'
import { notifications } from '@mantine/notifications'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from './query-client'
import { server } from '../test/msw-server'
import { forgetQueuedWrites, pendingWrites, queueWrite, sendQueuedWrites } from './local-data/outbox'
import { syncOutbox } from './outbox-sync'
import { refreshAfterWrites } from './synced-queries'

const ADA = 'ada@example.com'
let received: string[] = []
let online = false
let stop = () => {}

refreshAfterWrites('test-write:', (email) => [['test-writes', email]])

beforeEach(async () => {
  await forgetQueuedWrites()
  received = []
  online = false
  server.use(
    http.all('/api/me/*', ({ request }) => {
      if (!online) return HttpResponse.error()
      const path = new URL(request.url).pathname
      received.push(`${request.method} ${path}`)
      if (path.endsWith('/gone')) return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No such animation' } }, { status: 404 })
      return new HttpResponse(null, { status: 204 })
    }),
    // An edit whose name another device changed later: the server kept that name.
    http.put('/api/packs/:id', () => (online ? HttpResponse.json({ name: 'Night pack', superseded: ['name'] }) : HttpResponse.error())),
  )
})
afterEach(() => stop())

const write = (id: string) =>
  ({ method: 'PUT', path: `/api/me/favourites/${id}`, key: `test-write:${id}`, label: `Favourite “${id}”` }) as const

/** Queues while offline: the first send fails and the write waits. */
async function queueOffline(id: string) {
  await queueWrite(ADA, write(id))
  await sendQueuedWrites(ADA)
}

describe('the outbox sync', () => {
  it('sends the queue at start and again when the connection returns', async () => {
    await queueOffline('a')
    online = true
    stop = syncOutbox(ADA, createQueryClient())
    await vi.waitFor(() => expect(received).toEqual(['PUT /api/me/favourites/a']))

    online = false
    await queueOffline('b')
    online = true
    window.dispatchEvent(new Event('online'))
    await vi.waitFor(() => expect(received).toEqual(['PUT /api/me/favourites/a', 'PUT /api/me/favourites/b']))
    expect(await pendingWrites(ADA)).toEqual([])
  })

  it('refreshes the queries a sent write changes', async () => {
    const queryClient = createQueryClient()
    queryClient.setQueryData(['test-writes', ADA], 'as read')
    queryClient.setQueryData(['other'], 'as read')
    await queueOffline('a')
    online = true
    stop = syncOutbox(ADA, queryClient)
    await vi.waitFor(() => expect(queryClient.getQueryState(['test-writes', ADA])?.isInvalidated).toBe(true))
    expect(queryClient.getQueryState(['other'])?.isInvalidated).toBe(false)
  })

  it("names a write the server refused, with the server's reason, in a toast", async () => {
    const shown = vi.spyOn(notifications, 'show')
    await queueOffline('gone')
    online = true
    stop = syncOutbox(ADA, createQueryClient())
    await vi.waitFor(() =>
      expect(shown).toHaveBeenCalledWith(expect.objectContaining({ title: 'Not saved: Favourite “gone”', message: 'No such animation' })),
    )
  })

  it('says which fields of a sent edit another device edited later', async () => {
    const shown = vi.spyOn(notifications, 'show')
    await queueWrite(ADA, {
      method: 'PUT',
      path: '/api/packs/p1',
      body: { name: 'Moon pack' },
      key: 'pack:p1:1',
      label: 'Edit “Moon pack”',
    })
    await sendQueuedWrites(ADA)
    online = true
    stop = syncOutbox(ADA, createQueryClient())
    await vi.waitFor(() =>
      expect(shown).toHaveBeenCalledWith(
        expect.objectContaining({ message: '“Night pack” was changed on another device too: its newer name was kept.' }),
      ),
    )
  })
})

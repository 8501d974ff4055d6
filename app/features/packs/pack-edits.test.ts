import 'fake-indexeddb/auto'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PackDetail, UpdatePack } from '../../../contract/pack'
import { makeWumpus } from '../../test/fixtures'
import { server } from '../../test/msw-server'
import { signInForTest } from '../../test/session'
import { forgetQueuedWrites, pendingWrites, sendQueuedWrites } from '../../lib/local-data/outbox'
import { packChanges, queuePackEdit, withPendingEdits } from './pack-edits'

const [a, b, c, d] = [1, 2, 3, 4].map((n) => makeWumpus(n, { name: `Sticker ${n}` }))
const ID = 'e'.repeat(24)
const ADA = 'ada@example.com'
const pack: PackDetail = {
  id: ID,
  name: 'Night pack',
  description: 'Sleepy ones',
  coverWumpusId: b!._id,
  wumpusIds: [a!._id, b!._id, c!._id],
  cover: b!,
  visibility: 'private',
  createdBy: ADA,
  createdAt: '',
  updatedAt: '',
  items: [a!, b!, c!],
  downloads: [],
}
const fields = {
  name: 'Night pack',
  description: 'Sleepy ones',
  wumpusIds: pack.wumpusIds,
  coverWumpusId: b!._id,
  visibility: 'private' as const,
}

/** What reached the server; offline until `online`. */
let online = false
const received: unknown[] = []
beforeEach(async () => {
  signInForTest({ email: ADA })
  await forgetQueuedWrites()
  online = false
  received.length = 0
  server.use(
    http.put(`/api/packs/${ID}`, async ({ request }) => {
      if (!online) return HttpResponse.error()
      received.push(await request.json())
      return HttpResponse.json({ ...pack, superseded: [] })
    }),
    http.get(`/api/wumpus/${d!._id}`, () => HttpResponse.json(d)),
  )
})
afterEach(() => localStorage.clear())

describe('packChanges', () => {
  it('names only the fields that differ from the pack as loaded', () => {
    expect(packChanges(pack, fields)).toEqual({})
    expect(packChanges(pack, { ...fields, name: 'Moon pack', wumpusIds: [c!._id, a!._id, b!._id] })).toEqual({
      name: 'Moon pack',
      wumpusIds: [c!._id, a!._id, b!._id],
    })
    expect(packChanges(pack, { ...fields, visibility: 'link', coverWumpusId: a!._id })).toEqual({
      visibility: 'link',
      coverWumpusId: a!._id,
    })
  })
})

describe('queued pack edits', () => {
  it('are sent as PUTs of the changed fields with the time of each edit, none replacing another', async () => {
    await queuePackEdit(ADA, pack, { name: 'Moon pack' })
    await queuePackEdit(ADA, pack, { wumpusIds: [c!._id, a!._id, b!._id] })
    const queued = await pendingWrites(ADA)
    expect(queued.map((write) => [write.method, write.path])).toEqual([
      ['PUT', `/api/packs/${ID}`],
      ['PUT', `/api/packs/${ID}`],
    ])
    const [first, second] = queued.map((write) => write.body as UpdatePack)
    expect(first).toEqual({ name: 'Moon pack', editedAt: expect.any(String) })
    expect(second).toEqual({ wumpusIds: [c!._id, a!._id, b!._id], editedAt: expect.any(String) })
    expect(Date.parse(second!.editedAt!)).toBeGreaterThanOrEqual(Date.parse(first!.editedAt!))
  })

  it('show on the pack as read until the server has them: fields, order, cover and added stickers', async () => {
    await queuePackEdit(ADA, pack, { name: 'Moon pack' })
    await queuePackEdit(ADA, pack, { wumpusIds: [d!._id, c!._id, a!._id] })
    const shown = await withPendingEdits(pack)
    expect(shown.name).toBe('Moon pack')
    expect(shown.description).toBe('Sleepy ones')
    expect(shown.items.map((item) => item.name)).toEqual(['Sticker 4', 'Sticker 3', 'Sticker 1'])
    // The cover was removed: the first sticker takes its place, as on the server.
    expect(shown.coverWumpusId).toBe(d!._id)
    expect(shown.cover).toEqual(d)
    // Another pack, or no queued edit: read as it came.
    expect(await withPendingEdits({ ...pack, id: 'f'.repeat(24) })).toEqual({ ...pack, id: 'f'.repeat(24) })
  })

  it('stop showing once sent, and are never applied for another signed-in user', async () => {
    await queuePackEdit(ADA, pack, { name: 'Moon pack' })
    signInForTest({ email: 'bob@example.com' })
    expect((await withPendingEdits(pack)).name).toBe('Night pack')

    signInForTest({ email: ADA })
    online = true
    await sendQueuedWrites(ADA)
    expect(received).toEqual([{ name: 'Moon pack', editedAt: expect.any(String) }])
    expect(await withPendingEdits(pack)).toEqual(pack)
  })
})

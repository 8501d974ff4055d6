import 'fake-indexeddb/auto'
import { set } from 'idb-keyval'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import type { PackDetail } from '../../../contract/pack'
import { makeWumpus } from '../../test/fixtures'
import { server } from '../../test/msw-server'
import { pendingWrites, queueWrite } from './outbox'
import { keepSubmissionDraft } from './submission-drafts'
import { keepNotifications } from './notifications-store'
import { offlineStore } from './stores'
import { resetOfflineData, storedKeys } from '../../test/offline-data'
import { forgetPersonalOfflineData } from './personal-data'
import type { SavedPack } from './stores'

const kept = (body: unknown) => ({ status: 200, body: JSON.stringify(body), headers: {}, storedAt: 1 })
const pack = (id: string, visibility: PackDetail['visibility']): PackDetail => ({
  id,
  name: `Pack ${id}`,
  description: '',
  coverWumpusId: null,
  wumpusIds: [],
  cover: null,
  visibility,
  createdBy: 'ada@example.com',
  createdAt: '',
  updatedAt: '',
  items: [],
  downloads: [],
})
const PUBLIC = 'a'.repeat(24)
const LINK = 'b'.repeat(24)
const PRIVATE = 'c'.repeat(24)

beforeEach(async () => {
  await resetOfflineData()
  await set('/api/profile/ada@example.com', { body: '{}' }, offlineStore('profiles'))
  await set('/api/wumpus?u_email=ada%40example.com', { body: '[]' }, offlineStore('user-lists'))
  await set('/api/wumpuses?limit=24', { body: '[]' }, offlineStore('wumpus-pages'))
  await set('ada@example.com', { ids: ['a'] }, offlineStore('favourites'))
})

describe('forgetPersonalOfflineData', () => {
  it('empties the profile and user-list copies and keeps the public gallery', async () => {
    await forgetPersonalOfflineData()
    expect(await storedKeys('profiles')).toEqual([])
    expect(await storedKeys('user-lists')).toEqual([])
    expect(await storedKeys('wumpus-pages')).toEqual(['/api/wumpuses?limit=24'])
  })

  it('forgets personal packs (private and shared by link, saved or not) and the My packs list; public packs stay', async () => {
    const sticker = makeWumpus(1)
    await set('/api/packs?limit=24', kept([pack(PUBLIC, 'public')]), offlineStore('packs'))
    await set('/api/me/packs?limit=24', kept([pack(LINK, 'link'), pack(PRIVATE, 'private')]), offlineStore('packs'))
    for (const id of [PUBLIC, LINK, PRIVATE]) {
      const visibility = id === PUBLIC ? 'public' : id === LINK ? 'link' : 'private'
      await set(`/api/packs/${id}`, kept(pack(id, visibility)), offlineStore('packs'))
    }
    const saved = (id: string, visibility: PackDetail['visibility']): SavedPack => ({
      pack: { ...pack(id, visibility), items: [sticker] },
      savedAt: 1,
      addedStickerIds: [],
    })
    await set(PUBLIC, saved(PUBLIC, 'public'), offlineStore('saved-packs'))
    await set(PRIVATE, saved(PRIVATE, 'private'), offlineStore('saved-packs'))

    await forgetPersonalOfflineData()
    expect((await storedKeys('packs')).sort()).toEqual(['/api/packs/' + PUBLIC, '/api/packs?limit=24'])
    expect(await storedKeys('saved-packs')).toEqual([PUBLIC])
  })

  it('forgets remixes: their details, their chat app lists and their saved copies; originals stay', async () => {
    const original = makeWumpus(1)
    const remix = makeWumpus(2, { remixOf: original._id, visibility: 'link' })
    const savedRemix = makeWumpus(3, { remixOf: original._id, visibility: 'private' })
    for (const wumpus of [original, remix]) {
      await set(`/api/wumpus/${wumpus._id}`, kept(wumpus), offlineStore('wumpus-details'))
      await set(`/api/wumpus/${wumpus._id}/stickers`, kept([]), offlineStore('wumpus-details'))
    }
    await set(savedRemix._id, { wumpus: savedRemix, savedAt: 1, bytes: 3, files: [savedRemix.gif] }, offlineStore('saved'))
    await set(new URL(savedRemix.gif, 'http://x').pathname, new Blob(['gif']), offlineStore('files'))

    await forgetPersonalOfflineData()
    expect((await storedKeys('wumpus-details')).sort()).toEqual([`/api/wumpus/${original._id}`, `/api/wumpus/${original._id}/stickers`])
    expect(await storedKeys('saved')).toEqual([])
    expect(await storedKeys('files')).toEqual([])
  })

  it("forgets the user's kept favourites and the writes not sent yet", async () => {
    server.use(http.all('/api/me/*', () => HttpResponse.error()))
    await queueWrite('ada@example.com', { method: 'PUT', path: '/api/me/favourites/a', key: 'favourite:a', label: 'Favourite a' })
    expect(await pendingWrites('ada@example.com')).toHaveLength(1)
    await forgetPersonalOfflineData()
    expect(await storedKeys('favourites')).toEqual([])
    expect(await pendingWrites('ada@example.com')).toEqual([])
  })

  it('forgets a submission being written, with the file picked for it', async () => {
    await keepSubmissionDraft('ada@example.com', { fields: { name: 'Half written' }, file: { blob: new Blob(['{}']), name: 'wave.json' } })
    expect(await storedKeys('submission-drafts')).toEqual(['ada@example.com'])
    await forgetPersonalOfflineData()
    expect(await storedKeys('submission-drafts')).toEqual([])
  })

  it("forgets the user's notifications as last read", async () => {
    await keepNotifications('ada@example.com', { unread: 1, items: [] })
    expect(await storedKeys('notifications')).toEqual(['ada@example.com'])
    await forgetPersonalOfflineData()
    expect(await storedKeys('notifications')).toEqual([])
  })
})

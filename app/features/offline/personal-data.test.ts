import 'fake-indexeddb/auto'
import { set } from 'idb-keyval'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { server } from '../../test/msw-server'
import { pendingWrites, queueWrite } from '../sync/outbox'
import { offlineStore } from './offline-db'
import { resetOfflineData, storedKeys } from './offline-test-support'
import { forgetPersonalOfflineData } from './personal-data'

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

  it("forgets the user's kept favourites and the writes not sent yet", async () => {
    server.use(http.all('/api/me/*', () => HttpResponse.error()))
    await queueWrite('ada@example.com', { method: 'PUT', path: '/api/me/favourites/a', key: 'favourite:a', label: 'Favourite a' })
    expect(await pendingWrites('ada@example.com')).toHaveLength(1)
    await forgetPersonalOfflineData()
    expect(await storedKeys('favourites')).toEqual([])
    expect(await pendingWrites('ada@example.com')).toEqual([])
  })
})

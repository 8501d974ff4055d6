import 'fake-indexeddb/auto'
import { set } from 'idb-keyval'
import { beforeEach, describe, expect, it } from 'vitest'
import { offlineStore } from './offline-db'
import { resetOfflineData, storedKeys } from './offline-test-support'
import { forgetPersonalOfflineData } from './personal-data'

beforeEach(async () => {
  await resetOfflineData()
  await set('/api/profile/ada@example.com', { body: '{}' }, offlineStore('profiles'))
  await set('/api/wumpus?u_email=ada%40example.com', { body: '[]' }, offlineStore('user-lists'))
  await set('/api/wumpuses?limit=24', { body: '[]' }, offlineStore('wumpus-pages'))
})

describe('forgetPersonalOfflineData', () => {
  it('empties the profile and user-list copies and keeps the public gallery', async () => {
    await forgetPersonalOfflineData()
    expect(await storedKeys('profiles')).toEqual([])
    expect(await storedKeys('user-lists')).toEqual([])
    expect(await storedKeys('wumpus-pages')).toEqual(['/api/wumpuses?limit=24'])
  })
})

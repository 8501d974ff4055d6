import 'fake-indexeddb/auto'
import { set } from 'idb-keyval'
import { waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Session } from '../../lib/session'
import { offlineStore } from './offline-db'
import { resetOfflineData, storedKeys } from './offline-test-support'
import { forgetPersonalOfflineData } from './personal-data'

/** The part of the session store this module uses: sign-out listeners, run when a session ends. */
function fakeSession(initial: Session['status']) {
  let status = initial
  const signOutListeners = new Set<() => void>()
  return {
    onSignOut: (listener: () => void) => (signOutListeners.add(listener), () => void signOutListeners.delete(listener)),
    set(next: Session['status']) {
      const endsSession = next === 'signed-out' && status !== 'signed-out'
      status = next
      if (endsSession) signOutListeners.forEach((listener) => listener())
    },
  }
}

beforeEach(async () => {
  await resetOfflineData()
  await set('/api/profile/ada@example.com', { body: '{}' }, offlineStore('profiles'))
  await set('/api/wumpus?u_email=ada%40example.com', { body: '[]' }, offlineStore('user-lists'))
  await set('/api/wumpuses?limit=24', { body: '[]' }, offlineStore('wumpus-pages'))
})

describe('forgetPersonalOfflineData', () => {
  it('empties the profile and user-list copies on sign-out and keeps the public gallery', async () => {
    const session = fakeSession('signed-in')
    forgetPersonalOfflineData(session)
    session.set('signed-out')
    await waitFor(async () => expect(await storedKeys('profiles')).toEqual([]))
    expect(await storedKeys('user-lists')).toEqual([])
    expect(await storedKeys('wumpus-pages')).toEqual(['/api/wumpuses?limit=24'])
  })

  it('keeps them while the user stays signed in', async () => {
    const session = fakeSession('loading')
    forgetPersonalOfflineData(session)
    session.set('signed-in')
    session.set('signed-in')
    expect(await storedKeys('profiles')).toEqual(['/api/profile/ada@example.com'])
    expect(await storedKeys('user-lists')).toHaveLength(1)
  })
})

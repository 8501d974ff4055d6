/**
 * The one behaviour suite every Store adapter must pass (the store's behaviour, not the API's contract/): one
 * file per repository beside this one, and here what spans them (close and reopen). Call it from an adapter's
 * test file with a factory that opens a store over fresh, empty data.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import type { Store, WumpusRecord } from '../../src/store/port'
import { describeWumpusBehaviour } from './wumpuses'
import { describeWumpusSearchBehaviour } from './wumpus-search'
import { describeUserBehaviour } from './users'
import { describeSessionBehaviour } from './sessions'
import { describePackBehaviour } from './packs'
import { describeFavouriteBehaviour } from './favourites'
import { describeAuditBehaviour } from './audit'
import { describeRateCounterBehaviour } from './rate-counters'
import { describeFileBehaviour } from './files'
import { describeDerivedMediaBehaviour } from './derived-media'
import { describeRenderJobBehaviour } from './render-jobs'
import { describeTelegramSetBehaviour } from './telegram-sets'
import { describeTelegramLinkBehaviour } from './telegram-links'
import { describeDiscordUploadBehaviour } from './discord-uploads'
import { describeRemixBehaviour } from './remixes'
import { describeColourSlotBehaviour } from './colour-slots'
import { describeSubmissionBehaviour } from './submissions'
import { describeReportBehaviour } from './reports'
import { describeNotificationBehaviour } from './notifications'
import { describeHiddenBehaviour } from './hidden'
import {
  collectPages,
  fileIds,
  inUse,
  later,
  newestFirst,
  sampleFiles,
  sampleWumpus,
  type StoreFactory,
  type StoreInUse,
  type StoreUnderTest,
} from './samples'

export { sampleWumpus, type StoreFactory, type StoreUnderTest } from './samples'

export function describeStoreBehaviour(name: string, factory: StoreFactory, expectedKind: Store['kind']): void {
  describe(`Store behaviour: ${name}`, () => {
    let subject: StoreUnderTest
    let store: Store

    beforeEach(async () => {
      subject = await factory()
      store = subject.store
    })

    afterEach(async () => {
      await subject.destroy()
    })

    const storeInUse: StoreInUse = {
      get subject() {
        return subject
      },
      get store() {
        return store
      },
      set store(reopened) {
        store = reopened
      },
    }

    it('reports its kind and answers ping', async () => {
      expect(store.kind).toBe(expectedKind)
      await expect(store.ping()).resolves.toBeUndefined()
    })

    describeWumpusBehaviour(storeInUse)
    describeWumpusSearchBehaviour(storeInUse)
    describeUserBehaviour(storeInUse)
    describeSessionBehaviour(storeInUse)
    describePackBehaviour(storeInUse)
    describeFavouriteBehaviour(storeInUse)
    describeAuditBehaviour(storeInUse)
    describeRateCounterBehaviour(storeInUse)
    describeFileBehaviour(storeInUse)
    describeDerivedMediaBehaviour(storeInUse)
    describeRenderJobBehaviour(storeInUse)
    describeTelegramSetBehaviour(storeInUse)
    describeTelegramLinkBehaviour(storeInUse)
    describeDiscordUploadBehaviour(storeInUse)
    describeSubmissionBehaviour(storeInUse)
    describeReportBehaviour(storeInUse)
    describeNotificationBehaviour(storeInUse)
    describeRemixBehaviour(storeInUse)
    describeHiddenBehaviour(storeInUse)
    describeColourSlotBehaviour(storeInUse)

    it('keeps everything across close and reopen', async () => {
      const records: WumpusRecord[] = []
      for (let i = 0; i < 6; i++) {
        const createdAt = new Date(Date.UTC(2025, 1, 1, 0, 0, i % 2))
        records.push(await store.wumpuses.insert(sampleWumpus({ createdAt, u_email: i % 2 ? 'odd@example.com' : 'even@example.com' })))
      }
      await store.wumpuses.update(records[0]!._id, { name: 'Changed' })
      const replacedFiles = sampleFiles()
      await store.wumpuses.update(records[2]!._id, { files: replacedFiles })
      await store.wumpuses.delete(records[5]!._id)
      const updatedFirst = await store.wumpuses.get(records[0]!._id)
      const user = await store.users.upsert('fay@example.com', { user_name: 'Fay' })
      await store.users.setRole('fay@example.com', 'admin')
      const bytes = new Uint8Array(randomBytes(300_000))
      const file = await store.files.put({ bytes, contentType: 'image/gif', filename: 'f.gif' })
      const removedFile = await store.files.put({ bytes: new Uint8Array([9]), contentType: 'image/gif', filename: 'g.gif' })
      await store.files.delete(removedFile.id)
      const photo = await store.files.put({
        bytes: new Uint8Array([8]),
        contentType: 'image/png',
        filename: 'p.png',
        owner: 'fay@example.com',
        purpose: 'image',
      })
      const bound = await store.users.bind('fay@example.com', 'uid-fay')
      const session = await store.sessions.create({ email: 'fay@example.com', uid: 'uid-fay', expiresAt: new Date(Date.now() + 60_000) })
      const ended = await store.sessions.create({ email: 'fay@example.com', uid: 'uid-fay', expiresAt: new Date(Date.now() + 60_000) })
      await store.sessions.delete(ended.id)
      const entry = await store.audit.append({
        actor: 'fay@example.com',
        action: 'user.make-admin',
        target: { type: 'user', id: 'gil@example.com', name: 'Gil' },
        changes: [{ field: 'role', from: 'user', to: 'admin' }],
      })
      const listed = await store.wumpuses.list({ limit: 100 })
      const listedFiles = await store.files.list({ createdBefore: later(photo.createdAt), limit: 10 })
      expect(listedFiles.map((info) => info.id).sort()).toEqual([file.id, photo.id].sort())

      const reopened = await subject.reopen()
      expect(await reopened.wumpuses.count()).toBe(5)
      expect(await reopened.wumpuses.list({ limit: 100 })).toEqual(listed)
      expect(await reopened.wumpuses.get(records[0]!._id)).toEqual(updatedFirst)
      expect(await reopened.wumpuses.get(records[5]!._id)).toBeUndefined()
      expect((await collectPages(reopened, 2, 'odd@example.com')).ids).toEqual(newestFirst(records.slice(0, 5).filter((_, i) => i % 2)))
      expect(await reopened.users.get('fay@example.com')).toEqual({
        ...user,
        role: 'admin',
        firebaseUid: 'uid-fay',
        updatedAt: bound!.updatedAt,
      })
      expect(await reopened.sessions.get(session.id)).toEqual(session)
      expect(await reopened.sessions.get(ended.id)).toBeUndefined()
      expect((await reopened.audit.list({ limit: 5 })).items).toEqual([entry])
      expect(await reopened.users.upsert('fay@example.com', { job: 'Judge' })).toMatchObject({ role: 'admin', job: 'Judge' })
      expect((await reopened.users.list()).map((u) => u.email)).toEqual(['fay@example.com'])
      expect(await reopened.files.info(file.id)).toEqual(file)
      expect(Buffer.compare(Buffer.from((await reopened.files.read(file.id))!.bytes), Buffer.from(bytes))).toBe(0)
      expect(await reopened.files.info(removedFile.id)).toBeUndefined()
      expect(await reopened.files.info(photo.id)).toStrictEqual(photo)
      expect(await reopened.files.list({ createdBefore: later(photo.createdAt), limit: 10 })).toStrictEqual(listedFiles)
      expect(await inUse(reopened, fileIds(records[0]!.files))).toEqual([true, true, true])
      expect(await inUse(reopened, fileIds(replacedFiles))).toEqual([true, true, true])
      expect(await inUse(reopened, fileIds(records[2]!.files))).toEqual([false, false, false])
      expect(await inUse(reopened, fileIds(records[5]!.files))).toEqual([false, false, false])

      // The reopened store keeps working, ordered indexes included.
      const newest = await reopened.wumpuses.insert(sampleWumpus({ u_email: 'odd@example.com' }))
      expect((await reopened.wumpuses.list({ limit: 1, u_email: 'odd@example.com' })).items[0]?._id).toBe(newest._id)
      expect(await reopened.wumpuses.delete(records[1]!._id)).toBe(1)
      expect(await inUse(reopened, fileIds(records[1]!.files))).toEqual([false, false, false])
      expect(await inUse(reopened, fileIds(newest.files))).toEqual([true, true, true])
      expect((await reopened.wumpuses.list({ limit: 100, u_email: 'odd@example.com' })).total).toBe(2)
    })
  })
}

import 'fake-indexeddb/auto'
import { get } from 'idb-keyval'
import { beforeEach, describe, expect, it } from 'vitest'
import { makeWumpuses } from '../../test/fixtures'
import { server } from '../../test/msw-server'
import {
  clearKeptDownloads,
  flushFileUses,
  keepDownload,
  keptDownloadsUsage,
  pruneKeptDownloads,
  recordFileUse,
  type FileUse,
} from './kept-downloads'
import { offlineStore } from './stores'
import { fileHandlers, resetOfflineData, storedKeys } from '../../test/offline-data'
import { readKeptFile, removeFromOffline, saveForOffline } from './saved-stickers'
import { storedFileResponse } from '../../sw/api-fallback'

const KB = 1024
const file = (kb: number) => new Blob([new Uint8Array(kb * KB)], { type: 'image/gif' })
const url = (name: string) => `/api/files/0123456789abcdef0123456${name.length}/${name}.gif`
const lastUse = (name: string) => get<FileUse>(new URL(url(name), 'http://x').pathname, offlineStore('file-uses'))

/** Gives each kept download its own last use, oldest first, as if used at those times. */
async function usedAt(uses: Record<string, number>) {
  for (const [name, at] of Object.entries(uses)) recordFileUse(url(name), at)
  await flushFileUses()
}

beforeEach(async () => {
  await resetOfflineData()
})

describe('kept downloads', () => {
  it('never keeps a keyed download (a private remix’s file): it is its owner’s, and sign-out must leave nothing of it', async () => {
    await keepDownload(`${url('a')}?key=AAAAAAAAAAAAAAAAAAAAAA`, file(3))
    expect(await storedKeys('files')).toEqual([])
    expect(await storedKeys('file-uses')).toEqual([])
    expect(await keptDownloadsUsage()).toMatchObject({ bytes: 0, files: 0 })
  })

  it('keeps a download with its size and last use, and counts it', async () => {
    await keepDownload(url('a'), file(3))
    expect(await storedKeys('files')).toEqual([new URL(url('a'), 'http://x').pathname])
    expect(await lastUse('a')).toMatchObject({ bytes: 3 * KB })
    expect(await keptDownloadsUsage()).toEqual({ bytes: 3 * KB, files: 1, budget: 50 * 1024 * KB })
  })

  it('over the budget, removes the least recently used first; a read makes a file recent', async () => {
    await keepDownload(url('a'), file(4), 10 * KB)
    await keepDownload(url('bb'), file(4), 10 * KB)
    await usedAt({ a: 1000, bb: 2000 })
    // Reading the older one (the Saved page or the service worker) makes it the newest.
    await readKeptFile(url('a'))
    await flushFileUses()
    expect((await lastUse('a'))!.lastUsedAt).toBeGreaterThan(2000)

    await keepDownload(url('ccc'), file(4), 10 * KB)

    expect(await readKeptFile(url('bb'))).toBeUndefined()
    expect(await lastUse('bb')).toBeUndefined()
    expect((await keptDownloadsUsage()).files).toBe(2)
    expect(await readKeptFile(url('a'))).toBeDefined()
    expect(await readKeptFile(url('ccc'))).toBeDefined()
  })

  it('a file served offline by the service worker counts as a use', async () => {
    await keepDownload(url('a'), file(1))
    await usedAt({ a: 1000 })
    expect(await storedFileResponse(url('a'))).toBeInstanceOf(Response)
    await flushFileUses()
    expect((await lastUse('a'))!.lastUsedAt).toBeGreaterThan(1000)
  })

  it('never removes or counts the files of a sticker saved on purpose', async () => {
    const [wumpus] = makeWumpuses(1, 1)
    server.use(...fileHandlers([wumpus!]))
    // Downloaded first, then saved: the GIF is the saved sticker's now.
    await keepDownload(wumpus!.gif, file(8))
    await saveForOffline(wumpus!)
    await keepDownload(url('a'), file(2))

    expect(await pruneKeptDownloads(0)).toEqual([new URL(url('a'), 'http://x').pathname])
    expect(await readKeptFile(wumpus!.gif)).toBeDefined()
    expect(await readKeptFile(wumpus!.apng)).toBeDefined()
    expect(await keptDownloadsUsage()).toMatchObject({ bytes: 0, files: 0 })

    // Removing the sticker removes its files and their bookkeeping.
    await removeFromOffline(wumpus!._id)
    expect(await storedKeys('files')).toEqual([])
    expect(await storedKeys('file-uses')).toEqual([])
  })

  it('clears every kept download and leaves saved stickers alone', async () => {
    const [wumpus] = makeWumpuses(1, 1)
    server.use(...fileHandlers([wumpus!]))
    await saveForOffline(wumpus!)
    await keepDownload(url('a'), file(2))
    await keepDownload(url('bb'), file(2))

    await clearKeptDownloads()

    expect(await keptDownloadsUsage()).toMatchObject({ bytes: 0, files: 0 })
    expect(await readKeptFile(url('a'))).toBeUndefined()
    expect(await storedKeys('files')).toHaveLength(3)
  })

  it('a last use is written only for files still kept', async () => {
    recordFileUse(url('gone'), 5000)
    await flushFileUses()
    expect(await storedKeys('file-uses')).toEqual([])
  })
})

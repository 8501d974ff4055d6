import 'fake-indexeddb/auto'
import { get } from 'idb-keyval'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Wumpus } from '../../../contract/wumpus'
import { stickersHandler, wumpusDetailHandler, wumpusListHandler } from '../../test/api-handlers'
import { makeStickers, makeWumpuses, TINY_LOTTIE, withPreview } from '../../test/fixtures'
import { server } from '../../test/msw-server'
import { renderApp } from '../../test/render-app'
import { signInForTest } from '../../test/session'
import { offlineStore, type StoredApiResponse } from '../../lib/local-data/stores'
import { fileBytes, fileHandlers, namedFileHandlers, resetOfflineData, storedKeys, stubStorage } from '../../test/offline-data'

const wumpuses = makeWumpuses(1, 2).map(withPreview)
const [first, second] = wumpuses as [(typeof wumpuses)[0], (typeof wumpuses)[0]]
const firstStickers = makeStickers(first, { absent: { telegram: 'Telegram does not allow masks' } })
const readyFiles = firstStickers.filter((s) => s.status === 'ready').map((s) => ({ url: s.url!, contentType: s.contentType! }))
const previewsOf = (wumpus: Wumpus, ...kinds: (keyof NonNullable<Wumpus['preview']>)[]) =>
  Object.entries(wumpus.preview!)
    .filter(([kind]) => kinds.length === 0 || kinds.includes(kind as never))
    .map(([, url]) => ({ url, contentType: 'image/webp' }))
const path = (url: string) => new URL(url, 'http://localhost').pathname

async function storedBytes(url: string) {
  const blob = await get<Blob>(path(url), offlineStore('files'))
  return blob && { type: blob.type, bytes: [...new Uint8Array(await blob.arrayBuffer())] }
}

beforeEach(async () => {
  await resetOfflineData()
  server.use(
    wumpusListHandler(wumpuses).handler,
    wumpusDetailHandler(wumpuses),
    ...fileHandlers(wumpuses),
    stickersHandler({ [first._id]: firstStickers, [second._id]: makeStickers(second, { pending: true }) }),
    ...namedFileHandlers([...readyFiles, ...previewsOf(first), ...previewsOf(second)]),
  )
})

describe('Save for offline on gallery cards', () => {
  it('keeps the animation JSON, its three files, its still and chat app files, then offers Remove, which deletes them', async () => {
    const storage = stubStorage()
    const lottie = new TextEncoder().encode(JSON.stringify(TINY_LOTTIE))
    server.use(http.get(first.lottie, () => new HttpResponse(lottie, { headers: { 'Content-Type': 'application/json' } })))
    const { user } = renderApp('/')

    const card = await screen.findByRole('listitem', { name: 'Wumpus 1' })
    expect(within(card).queryByText('Saved for offline')).not.toBeInTheDocument()
    await user.click(within(card).getByRole('button', { name: 'Save Wumpus 1 for offline' }))
    expect(await within(card).findByRole('button', { name: 'Remove Wumpus 1 from offline' })).toBeEnabled()
    // The card says it is saved; a toast confirms.
    expect(within(card).getByText('Saved for offline')).toBeInTheDocument()
    expect(await screen.findByText('Wumpus 1 and its files work without a connection.')).toBeInTheDocument()

    expect(await storedBytes(first.gif)).toEqual({ type: 'image/gif', bytes: [...fileBytes(first, 'gif')] })
    expect(await storedBytes(first.apng)).toEqual({ type: 'image/apng', bytes: [...fileBytes(first, 'apng')] })
    expect(await storedBytes(first.lottie)).toEqual({ type: 'application/json', bytes: [...lottie] })
    const detail = await get<StoredApiResponse>(`/api/wumpus/${first._id}`, offlineStore('wumpus-details'))
    expect(JSON.parse(detail!.body)).toEqual(first)
    // The chat app files' list and every ready file, byte for byte, and the card's still: the card plays
    // the Lottie over it, so the animated previews are not kept.
    const list = await get<StoredApiResponse>(`/api/wumpus/${first._id}/stickers`, offlineStore('wumpus-details'))
    expect(JSON.parse(list!.body)).toEqual(firstStickers)
    for (const { url, contentType } of [...readyFiles, ...previewsOf(first, 'still')]) {
      expect(await storedBytes(url)).toEqual({ type: contentType, bytes: [...new TextEncoder().encode(url)] })
    }
    expect(await storedBytes(first.preview!.webp)).toBeUndefined()
    expect(await storedBytes(first.preview!.webp2x)).toBeUndefined()
    expect(await storedKeys('files')).toHaveLength(3 + 1 + 7)
    expect(await storedKeys('saved')).toEqual([first._id])
    // The other card is untouched.
    expect(screen.getByRole('button', { name: 'Save Wumpus 2 for offline' })).toBeInTheDocument()
    expect(storage.persist).toHaveBeenCalledTimes(1)

    await user.click(screen.getByRole('button', { name: 'Remove Wumpus 1 from offline' }))
    expect(await screen.findByRole('button', { name: 'Save Wumpus 1 for offline' })).toBeInTheDocument()
    expect(await storedKeys('files')).toEqual([])
    expect(await storedKeys('saved')).toEqual([])
  })

  it('asks for persistent storage on the first save only', async () => {
    const storage = stubStorage()
    const { user } = renderApp('/')
    await user.click(await screen.findByRole('button', { name: 'Save Wumpus 1 for offline' }))
    await screen.findByRole('button', { name: 'Remove Wumpus 1 from offline' })
    await user.click(screen.getByRole('button', { name: 'Save Wumpus 2 for offline' }))
    await screen.findByRole('button', { name: 'Remove Wumpus 2 from offline' })
    expect(storage.persist).toHaveBeenCalledTimes(1)
    // Wumpus 1: three files, three previews, seven chat app files (Telegram's is absent); Wumpus 2: its files and previews (chat app files still being made).
    expect((await storedKeys('files')).length).toBe(19)
  })

  it('keeps the animated previews of a sticker whose Lottie the cards cannot play', async () => {
    stubStorage()
    // An expression: the light player would leave what it drives standing still.
    const lottie = { ...TINY_LOTTIE, layers: [{ ty: 4, ks: { o: { a: 0, k: 100, x: 'time * 50' } }, shapes: [] }] }
    server.use(http.get(first.lottie, () => HttpResponse.json(lottie)))
    const { user } = renderApp('/')
    await user.click(await screen.findByRole('button', { name: 'Save Wumpus 1 for offline' }))
    await screen.findByRole('button', { name: 'Remove Wumpus 1 from offline' })
    for (const { url, contentType } of previewsOf(first)) {
      expect(await storedBytes(url)).toEqual({ type: contentType, bytes: [...new TextEncoder().encode(url)] })
    }
  })

  it('says so, and keeps nothing, when a file cannot be fetched', async () => {
    stubStorage()
    server.use(http.get(first.apng, () => HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'File not found' } }, { status: 404 })))
    const { user } = renderApp('/')
    await user.click(await screen.findByRole('button', { name: 'Save Wumpus 1 for offline' }))
    expect(await screen.findByText('Could not save for offline')).toBeInTheDocument()
    expect(screen.getByText('File not found')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save Wumpus 1 for offline' })).toBeEnabled()
    expect(await storedKeys('files')).toEqual([])
    expect(await storedKeys('saved')).toEqual([])
  })
})

describe('Save for offline on the detail page', () => {
  it('saves, then offers Remove from offline', async () => {
    stubStorage()
    signInForTest()
    const { user } = renderApp(`/wumpus/${second._id}`)
    const section = (await screen.findByRole('heading', { name: 'Download in format' })).closest('section')!
    await user.click(within(section).getByRole('button', { name: 'Save for offline' }))
    await user.click(await within(section).findByRole('button', { name: 'Remove from offline' }))
    expect(await within(section).findByRole('button', { name: 'Save for offline' })).toBeInTheDocument()
    await waitFor(async () => expect(await storedKeys('saved')).toEqual([]))
  })
})

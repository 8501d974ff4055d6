import 'fake-indexeddb/auto'
import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { stickersHandler } from '../../../test/api-handlers'
import { makeStickers, makeWumpuses } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { fileBytes, fileHandlers, goOffline, resetOfflineData, storedKeys, stubStorage } from '../../../test/offline-data'
import { keepDownload } from '../../../lib/local-data/kept-downloads'
import { saveForOffline } from '../../../lib/local-data/saved-stickers'

const wumpuses = makeWumpuses(1, 2)
const [first, second] = wumpuses as [(typeof wumpuses)[0], (typeof wumpuses)[0]]

const clicked: HTMLAnchorElement[] = []
beforeEach(async () => {
  await resetOfflineData()
  // Chat app files still being made: saving keeps the three files only.
  const pending = Object.fromEntries(wumpuses.map((w) => [w._id, makeStickers(w, { pending: true })]))
  server.use(...fileHandlers(wumpuses), stickersHandler(pending))
  clicked.length = 0
  URL.createObjectURL = vi.fn((blob: Blob) => `blob:http://localhost/${blob.size}`)
  URL.revokeObjectURL = vi.fn()
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this)
  })
})

async function saveBoth() {
  await saveForOffline(first)
  await saveForOffline(second)
  // What the page reads next comes from IndexedDB only: no file handlers any more.
  server.resetHandlers()
}

describe('Saved page', () => {
  it('lists the saved stickers with preview, name and downloads, and the storage figures', async () => {
    stubStorage({ usage: 3 * 1024 * 1024, quota: 2 * 1024 ** 3 })
    await saveBoth()
    renderApp('/saved')

    expect(await screen.findByRole('heading', { level: 1, name: 'Saved stickers' })).toBeInTheDocument()
    expect(document.title).toBe('Saved stickers · Wumpus Gallery')
    const list = await screen.findByRole('list', { name: 'Saved stickers' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual(['Wumpus 2', 'Wumpus 1'])
    const preview = await within(items[1]!).findByRole('img', { name: 'Wumpus 1: Animation number 1' })
    expect(preview.getAttribute('src')).toMatch(/^blob:/)
    const savedBytes = (['gif', 'apng', 'lottie'] as const).reduce(
      (sum, f) => sum + fileBytes(first, f).length + fileBytes(second, f).length,
      0,
    )
    expect(screen.getByText(`2 stickers saved, ${savedBytes} B`)).toBeInTheDocument()
    expect(await screen.findByText('Storage used: 3.0 MB of 2.0 GB available to this site')).toBeInTheDocument()
  })

  it('downloads a saved file from the device, offline, under its original name', async () => {
    stubStorage()
    await saveBoth()
    goOffline()
    const { user } = renderApp('/saved')
    await user.click(await screen.findByRole('button', { name: 'Lottie: download Wumpus 1 as Lottie' }))
    await waitFor(() => expect(clicked).toHaveLength(1))
    expect(clicked[0]!.download).toBe('wumpus-1.json')
    const blob = vi.mocked(URL.createObjectURL).mock.calls.at(-1)![0] as Blob
    expect(blob.type).toBe('application/json')
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([...fileBytes(first, 'lottie')])
  })

  it('Remove deletes the files, drops the card and updates the figures', async () => {
    const storage = stubStorage({ usage: 3 * 1024 * 1024, quota: 2 * 1024 ** 3 })
    await saveBoth()
    const { user } = renderApp('/saved')
    await screen.findByText('Storage used: 3.0 MB of 2.0 GB available to this site')

    storage.figures.usage = 1024 * 1024
    await user.click(await screen.findByRole('button', { name: 'Remove Wumpus 1 from offline' }))

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Wumpus 1' })).not.toBeInTheDocument())
    expect(screen.getByRole('heading', { name: 'Wumpus 2' })).toBeInTheDocument()
    expect(await screen.findByText('Storage used: 1.0 MB of 2.0 GB available to this site')).toBeInTheDocument()
    expect(screen.getByText(/^1 sticker saved/)).toBeInTheDocument()
    const files = await storedKeys('files')
    expect(files.sort()).toEqual([second.apng, second.gif, second.lottie].sort())
    expect(await storedKeys('saved')).toEqual([second._id])
  })

  it('says when nothing is saved yet', async () => {
    stubStorage()
    renderApp('/saved')
    expect(await screen.findByText(/Nothing saved yet/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'gallery' })).toHaveAttribute('href', '/')
  })

  it('is linked from the main navigation', async () => {
    stubStorage()
    renderApp('/saved')
    const nav = (await screen.findAllByRole('navigation', { name: 'Main' }))[0]!
    expect(within(nav).getByRole('link', { name: 'Saved' })).toHaveAttribute('href', '/saved')
  })
})

describe('Saved page: kept downloads', () => {
  it('shows what kept downloads take of their budget, and clears them without touching saved stickers', async () => {
    stubStorage()
    await saveBoth()
    await keepDownload('/api/files/0123456789abcdef01234599/other.gif', new Blob([new Uint8Array(3 * 1024)], { type: 'image/gif' }))
    const { user } = renderApp('/saved')

    expect(await screen.findByText('Kept downloads: 3.0 KB of 50.0 MB')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Clear kept downloads' }))

    expect(await screen.findByText('Kept downloads: 0 B of 50.0 MB')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Clear kept downloads' })).toBeDisabled()
    expect((await storedKeys('files')).sort()).toEqual([first.apng, first.gif, first.lottie, second.apng, second.gif, second.lottie].sort())
    expect(screen.getByText(/^2 stickers saved/)).toBeInTheDocument()
  })
})

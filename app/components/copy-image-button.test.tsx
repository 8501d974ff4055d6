import { screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { server } from '../test/msw-server'
import { renderWithProviders } from '../test/render-with-providers'
import { CopyImageButton } from './copy-image-button'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A stand-in for the browser's ClipboardItem, keeping what it was given. */
class FakeClipboardItem {
  static supports?: (type: string) => boolean
  constructor(readonly items: Record<string, Promise<Blob>>) {}
}

const write = vi.fn<(items: FakeClipboardItem[]) => Promise<void>>()

function renderButtons() {
  const view = renderWithProviders(
    <>
      <CopyImageButton url="/api/wumpus/1/still.png" type="image/png" label="Copy image" description="Moon Wumpus as a still PNG" />
      <CopyImageButton url="/api/files/2/moon.gif" type="image/gif" label="Copy GIF" description="Moon Wumpus as a GIF" />
    </>,
  )
  Object.defineProperty(navigator, 'clipboard', { value: { write, writeText: vi.fn() }, configurable: true })
  return view
}

beforeEach(() => {
  write.mockReset().mockImplementation(async ([item]) => {
    await Promise.all(Object.values(item!.items))
  })
  delete FakeClipboardItem.supports
  vi.stubGlobal('ClipboardItem', FakeClipboardItem)
  server.use(
    http.get('/api/wumpus/1/still.png', () => new HttpResponse(PNG, { headers: { 'Content-Type': 'image/png' } })),
    http.get('/api/files/2/moon.gif', () => new HttpResponse('GIF89a', { headers: { 'Content-Type': 'image/gif' } })),
  )
})
afterEach(() => {
  vi.unstubAllGlobals()
  Reflect.deleteProperty(navigator, 'clipboard')
})

describe('CopyImageButton', () => {
  it('copies the still as a PNG with a toast, and offers no GIF where the browser does not say it takes one', async () => {
    const { user } = renderButtons()
    await user.click(await screen.findByRole('button', { name: 'Copy image: copy Moon Wumpus as a still PNG' }))
    expect(await screen.findByText('Copied Moon Wumpus as a still PNG')).toBeInTheDocument()
    const item = write.mock.calls[0]![0][0]!
    expect(Object.keys(item.items)).toEqual(['image/png'])
    const blob = await item.items['image/png']!
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG)
    expect(screen.queryByRole('button', { name: /Copy GIF/ })).not.toBeInTheDocument()
  })

  it('offers the GIF where the browser says it takes one, and only what it takes', async () => {
    FakeClipboardItem.supports = (type) => type === 'image/gif'
    const { user } = renderButtons()
    expect(screen.queryByRole('button', { name: /Copy image/ })).not.toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'Copy GIF: copy Moon Wumpus as a GIF' }))
    expect(await screen.findByText('Copied Moon Wumpus as a GIF')).toBeInTheDocument()
  })

  it('shows nothing where the browser cannot put images on the clipboard', () => {
    vi.stubGlobal('ClipboardItem', undefined)
    renderButtons()
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })

  it('says why when the copy fails', async () => {
    write.mockRejectedValue(new DOMException('Denied', 'NotAllowedError'))
    const { user } = renderButtons()
    await user.click(await screen.findByRole('button', { name: /Copy image/ }))
    expect(await screen.findByText('Could not copy the image')).toBeInTheDocument()
    expect(screen.getByText('The browser did not allow it: click the button again on this page.')).toBeInTheDocument()
  })

  it('says why when the picture cannot be fetched', async () => {
    server.use(
      http.get('/api/wumpus/1/still.png', () =>
        HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No animation with this id' } }, { status: 404 }),
      ),
    )
    const { user } = renderButtons()
    await user.click(await screen.findByRole('button', { name: /Copy image/ }))
    expect(await screen.findByText('No animation with this id')).toBeInTheDocument()
  })
})

import { screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { Pack } from '../../../../contract/pack'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'

const makePack = (n: number): Pack => ({
  id: String(n).padStart(24, '0'),
  name: `Pack ${n}`,
  visibility: 'public',
  description: `The ${n}th pack`,
  coverWumpusId: null,
  wumpusIds: [],
  cover: null,
  createdBy: 'root@example.com',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
})

/** GET /api/packs in pages of `size` (cursor = next index), counted and linked like the server does. */
function packListHandler(packs: Pack[], size = 2) {
  return http.get('/api/packs', ({ request }) => {
    const start = Number(new URL(request.url).searchParams.get('cursor') ?? 0)
    const headers: Record<string, string> = { 'X-Total-Count': String(packs.length) }
    if (start + size < packs.length) headers.Link = `</api/packs?cursor=${start + size}>; rel="next"`
    return HttpResponse.json(packs.slice(start, start + size), { headers })
  })
}

describe('pack list', () => {
  it('loads the packs a page at a time, like every paged list', async () => {
    server.use(packListHandler([1, 2, 3].map(makePack)))
    const { user } = renderApp('/packs')

    expect(await screen.findByRole('heading', { level: 2, name: 'Pack 1' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Showing 2 of 3')
    await user.click(screen.getByRole('button', { name: 'Load more' }))

    expect(await screen.findByRole('heading', { level: 2, name: 'Pack 3' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Showing 3 of 3')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('offline, says what the list is: the packs saved on this device, or that none is saved yet', async () => {
    const offlineAnswer = (packs: Pack[]) =>
      http.get('/api/packs', () => HttpResponse.json(packs, { headers: { 'X-Total-Count': String(packs.length), 'X-Offline-Copy': '1' } }))
    server.use(offlineAnswer([]))
    const view = renderApp('/packs')
    expect(await screen.findByText(/You are offline, and no pack is saved on this device yet\./)).toBeInTheDocument()
    expect(screen.queryByText('No packs yet. Admins make them from the gallery.')).not.toBeInTheDocument()
    view.unmount()

    server.use(offlineAnswer([makePack(4)]))
    renderApp('/packs')
    expect(await screen.findByRole('heading', { level: 2, name: 'Pack 4' })).toBeInTheDocument()
    expect(screen.getByText(/You are offline: packs saved for offline open without a connection/)).toBeInTheDocument()
  })
})

import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { wumpusListHandler } from '../../../test/api-handlers'
import { makeWumpuses } from '../../../test/fixtures'
import { IntersectionObserverStub } from '../../../test/intersection-observer-stub'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'

async function cards() {
  const list = await screen.findByRole('list', { name: 'Animations' })
  return within(list).getAllByRole('listitem')
}

describe('home gallery', () => {
  it('shows the total count and one card per item with its links', async () => {
    const items = makeWumpuses(1, 3)
    const { handler } = wumpusListHandler(items)
    server.use(handler)
    renderApp('/')

    expect(await screen.findByRole('heading', { level: 1, name: '3 wumpus animation in 3 format' })).toBeInTheDocument()
    const rendered = await cards()
    expect(rendered).toHaveLength(3)
    const first = within(rendered[0]!)
    expect(first.getByRole('heading', { name: 'Wumpus 1' })).toBeInTheDocument()
    expect(first.getByRole('link', { name: 'Download Wumpus 1' })).toHaveAttribute('href', `/wumpus/${items[0]!._id}`)
    expect(first.getByRole('link', { name: 'by Artist 1' })).toHaveAttribute('href', '/profile/artist1@example.com')
    expect(within(rendered[2]!).getByRole('link', { name: 'Download Wumpus 3' })).toHaveAttribute(
      'href',
      `/wumpus/${items[2]!._id}`,
    )
    expect(document.title).toBe('Wumpus Gallery')
  })

  it('tells signed-out visitors where to learn what a wumpus is', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 1)).handler)
    renderApp('/')

    expect(await screen.findByText(/Don't know what is wumpus\?/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Read about the wumpus' })).toHaveAttribute('href', '/about')
  })

  it('loads the next page from the Link header when the sentinel comes into view', async () => {
    const { handler, requests } = wumpusListHandler(makeWumpuses(1, 30))
    server.use(handler)
    renderApp('/')

    expect(await cards()).toHaveLength(24)
    expect(requests).toHaveLength(1)
    expect(requests[0]!.searchParams.get('limit')).toBe('24')
    expect(requests[0]!.searchParams.has('cursor')).toBe(false)

    await waitFor(() => expect(IntersectionObserverStub.instances.size).toBeGreaterThan(0))
    IntersectionObserverStub.intersectAll()

    await waitFor(async () => expect(await cards()).toHaveLength(30))
    expect(requests).toHaveLength(2)
    expect(requests[1]!.searchParams.get('cursor')).toBe('24')
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('30 wumpus animation in 3 format')
    // Last page: nothing left to load, nothing left to observe.
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    expect(IntersectionObserverStub.instances.size).toBe(0)
  })

  it('offers a Load more button that fetches one page at a time', async () => {
    const { handler, requests } = wumpusListHandler(makeWumpuses(1, 60))
    server.use(handler)
    const { user } = renderApp('/')

    expect(await cards()).toHaveLength(24)
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(async () => expect(await cards()).toHaveLength(48))
    expect(requests.map((url) => url.searchParams.get('cursor'))).toEqual([null, '24'])
    expect(screen.getByRole('button', { name: 'Load more' })).toBeInTheDocument()
  })

  it('shows an error with a Retry button that recovers', async () => {
    // React and the router log the expected loader error.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    let fail = true
    const { handler } = wumpusListHandler(makeWumpuses(1, 2))
    server.use(
      http.get('/api/wumpuses', () =>
        fail
          ? HttpResponse.json({ error: { code: 'STORE_UNAVAILABLE', message: 'The store is down' } }, { status: 503 })
          : undefined,
      ),
      handler,
    )
    const { user } = renderApp('/')

    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('The store is down')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))

    expect(await screen.findByRole('heading', { level: 1, name: '2 wumpus animation in 3 format' })).toBeInTheDocument()
    expect(await cards()).toHaveLength(2)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('keeps the loaded cards and offers Retry when a next page fails', async () => {
    let failNext = true
    const { handler } = wumpusListHandler(makeWumpuses(1, 30))
    server.use(
      http.get('/api/wumpuses', ({ request }) =>
        failNext && new URL(request.url).searchParams.has('cursor') ? HttpResponse.error() : undefined,
      ),
      handler,
    )
    const { user } = renderApp('/')

    expect(await cards()).toHaveLength(24)
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await screen.findByText('Could not load more animations')).toBeInTheDocument()
    expect(await cards()).toHaveLength(24)

    failNext = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(async () => expect(await cards()).toHaveLength(30))
  })
})

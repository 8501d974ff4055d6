import 'fake-indexeddb/auto'
import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { pageRendered } from '../../lib/after-interactive'
import { makeWumpus } from '../../test/fixtures'
import { server } from '../../test/msw-server'
import { renderWithProviders } from '../../test/render-with-providers'
import { signInForTest } from '../../test/session'
import { resetOfflineData } from '../../test/offline-data'
import { forgetQueuedWrites, pendingWrites } from '../../lib/local-data/outbox'
import { WumpusCard } from '../wumpus/wumpus-card'

const ADA = 'ada@example.com'
const wumpus = makeWumpus(7, { name: 'Waving Wumpus' })
const other = makeWumpus(8)
/** Every API request, as `METHOD path`. */
let received: string[] = []
let online = true
/** The user's favourites on the server. */
let favourites = new Set<string>()

beforeAll(pageRendered)
beforeEach(async () => {
  await resetOfflineData()
  await forgetQueuedWrites()
  received = []
  online = true
  favourites = new Set([other._id])
  server.use(
    // A server that remembers: a read after a write answers what the write left.
    http.all('/api/me/*', ({ request }) => {
      const path = new URL(request.url).pathname
      received.push(`${request.method} ${path}`)
      if (!online) return HttpResponse.error()
      if (request.method === 'GET') return HttpResponse.json([...favourites])
      const id = path.split('/').pop()!
      if (request.method === 'PUT') favourites.add(id)
      else favourites.delete(id)
      return new HttpResponse(null, { status: 204 })
    }),
  )
})

const heart = () => screen.getByRole('button', { name: 'Favourite Waving Wumpus' })

describe('the heart on a card', () => {
  it('signed in: shows the favourites as read, and favourites at once through the outbox', async () => {
    signInForTest({ email: ADA })
    renderWithProviders(<WumpusCard wumpus={wumpus} />)
    await waitFor(() => expect(received).toContain('GET /api/me/favourite-ids'))
    expect(heart()).toHaveAttribute('aria-pressed', 'false')

    heart().click()
    await waitFor(() => expect(heart()).toHaveAttribute('aria-pressed', 'true'))
    await waitFor(() => expect(received).toContain(`PUT /api/me/favourites/${wumpus._id}`))
    await waitFor(async () => expect(await pendingWrites(ADA)).toEqual([]))

    heart().click()
    await waitFor(() => expect(heart()).toHaveAttribute('aria-pressed', 'false'))
    await waitFor(() => expect(received).toContain(`DELETE /api/me/favourites/${wumpus._id}`))
  })

  it('signed in and offline: turns on at once and keeps the write queued for the user', async () => {
    online = false
    signInForTest({ email: ADA })
    renderWithProviders(<WumpusCard wumpus={wumpus} />)
    await waitFor(() => expect(received).toContain('GET /api/me/favourite-ids'))

    heart().click()
    await waitFor(() => expect(heart()).toHaveAttribute('aria-pressed', 'true'))
    await waitFor(async () =>
      expect(await pendingWrites(ADA)).toMatchObject([
        { method: 'PUT', path: `/api/me/favourites/${wumpus._id}`, key: `favourite:${wumpus._id}`, label: 'Favourite “Waving Wumpus”' },
      ]),
    )
  })

  it('signed out: asks to sign in, coming back here, and sends and keeps nothing', async () => {
    const { user } = renderWithProviders(<WumpusCard wumpus={wumpus} />, { path: '/?q=moon' })
    expect(await screen.findByRole('button', { name: 'Favourite Waving Wumpus' })).toHaveAttribute('aria-pressed', 'false')
    await user.click(heart())

    const ask = await screen.findByRole('dialog', { name: 'Sign in to favourite' })
    expect(ask).toHaveTextContent('Sign in to favourite Waving Wumpus.')
    const signIn = screen.getByRole('link', { name: 'Sign in' })
    // The popover moves focus after it opens (a frame later on a busy machine).
    await waitFor(() => expect(signIn).toHaveFocus())
    expect(new URL(signIn.getAttribute('href')!, 'http://x').searchParams.get('from')).toBe('/?q=moon')
    expect(heart()).toHaveAttribute('aria-pressed', 'false')

    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(heart()).toHaveFocus())
    expect(received).toEqual([])
    expect(await pendingWrites(ADA)).toEqual([])
  })
})

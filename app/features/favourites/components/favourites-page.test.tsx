import 'fake-indexeddb/auto'
import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { Suspense } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Favourite } from '../../../../contract/favourites'
import { makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { signInForTest } from '../../../test/session'
import { resetOfflineData } from '../../../test/offline-data'
import { forgetQueuedWrites, queueWrite } from '../../../lib/local-data/outbox'
import { FavouritesPage } from './favourites-page'

const ADA = 'ada@example.com'
const favourite = (n: number, at: string): Favourite => ({ ...makeWumpus(n), favouritedAt: at })
let favourites: Favourite[] = []
let online = true

beforeEach(async () => {
  await resetOfflineData()
  await forgetQueuedWrites()
  favourites = []
  online = true
  signInForTest({ email: ADA })
  server.use(
    http.get('/api/me/favourites', () =>
      online ? HttpResponse.json(favourites, { headers: { 'X-Total-Count': String(favourites.length) } }) : HttpResponse.error(),
    ),
    http.all('/api/me/favourites/:id', () => HttpResponse.error()),
  )
})

function renderPage() {
  return renderWithProviders(
    <Suspense fallback={<p>Loading</p>}>
      <FavouritesPage email={ADA} />
    </Suspense>,
  )
}

const cardNames = async () =>
  within(await screen.findByRole('list', { name: 'Favourites' }))
    .getAllByRole('heading', { level: 2 })
    .map((heading) => heading.textContent)

describe('the Favourites page', () => {
  it('lists the favourites as the server orders them (newest favourited first) as gallery cards', async () => {
    favourites = [favourite(2, '2026-11-27T10:00:00Z'), favourite(1, '2026-11-26T10:00:00Z')]
    renderPage()
    expect(await screen.findByRole('heading', { level: 1, name: 'Favourites' })).toBeInTheDocument()
    expect(await cardNames()).toEqual(['Wumpus 2', 'Wumpus 1'])
    expect(screen.getByRole('button', { name: 'Favourite Wumpus 2' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Showing 2 of 2')
  })

  it('offers to make a pack from them, once there are some', async () => {
    favourites = [favourite(1, '2026-11-26T10:00:00Z')]
    renderPage()
    expect(await screen.findByRole('link', { name: 'Make a pack from my favourites' })).toHaveAttribute(
      'href',
      '/dashboard/my-packs/new?from=favourites',
    )
  })

  it('says how to add one when there is none', async () => {
    renderPage()
    expect(await screen.findByText(/No favourites yet\. Tap the heart on any sticker in the/)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Make a pack from my favourites' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'gallery' })).toHaveAttribute('href', '/')
  })

  it('works offline from the copy kept on this device, with the changes not sent yet applied', async () => {
    favourites = [favourite(2, '2026-11-27T10:00:00Z'), favourite(1, '2026-11-26T10:00:00Z')]
    const first = renderPage()
    expect(await cardNames()).toEqual(['Wumpus 2', 'Wumpus 1'])
    first.unmount()

    // Offline: Wumpus 3 favourited (its card as the heart was tapped), Wumpus 2 unfavourited.
    online = false
    const { setFavourite } = await import('../../../entities/favourite/favourites-data')
    await setFavourite(first.queryClient, ADA, makeWumpus(3), true)
    await queueWrite(ADA, {
      method: 'DELETE',
      path: `/api/me/favourites/${makeWumpus(2)._id}`,
      key: `favourite:${makeWumpus(2)._id}`,
      label: '',
    })

    renderPage()
    expect(await cardNames()).toEqual(['Wumpus 3', 'Wumpus 1'])
    expect(screen.getByText('You are offline: these are the favourites kept on this device.')).toBeInTheDocument()
  })
})

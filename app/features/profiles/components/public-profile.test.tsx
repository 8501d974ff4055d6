import { act, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Wumpus } from '../../../../contract/wumpus'
import { pageRendered } from '../../../lib/after-interactive'
import { makeWumpus } from '../../../test/fixtures'
import { IntersectionObserverStub } from '../../../test/intersection-observer-stub'
import { server } from '../../../test/msw-server'
import { makeUser } from '../../../test/profile-fixtures'
import { profileHandler, userAnimationsHandler } from '../../../test/profile-handlers'
import { renderApp } from '../../../test/render-app'
import { renderWithProviders } from '../../../test/render-with-providers'
import { signInForTest } from '../../../test/session'
import { DEFAULT_AVATAR, DEFAULT_COVER } from '../api'
import { PublicProfile } from './public-profile'
import { playedLotties } from '../../../test/lottie-player-fake'

const EMAIL = 'ana.smith@example.com'
const byAna = (n: number, overrides: Partial<Wumpus> = {}) => makeWumpus(n, { u_email: EMAIL, u_name: 'Ana Smith', ...overrides })

function setup({ user = makeUser(), items = [] as Wumpus[] } = {}) {
  const animations = userAnimationsHandler(items)
  server.use(profileHandler([user]).handler, animations.handler)
  return { ...renderWithProviders(<PublicProfile email={EMAIL} />), animationRequests: animations.requests }
}

describe('PublicProfile', () => {
  // Stickers move once the page is interactive.
  beforeAll(pageRendered)

  it('shows our default cover and avatar, the name and the description', async () => {
    setup({ user: makeUser({ description: 'I draw mascots' }) })

    expect(await screen.findByRole('heading', { level: 1, name: 'Ana Smith' })).toBeInTheDocument()
    expect(screen.getByTestId('profile-cover')).toHaveAttribute('src', DEFAULT_COVER)
    expect(screen.getByRole('img', { name: 'Photo of Ana Smith' })).toHaveAttribute('src', DEFAULT_AVATAR)
    expect(screen.getByText('I draw mascots')).toBeInTheDocument()
    expect(document.title).toBe('Ana Smith · Wumpus Gallery')
  })

  it("uses the user's own cover and photo, and links their custom url", async () => {
    const cover = '/api/files/0123456789abcdef01234567/cover.png'
    const photo = '/api/files/0123456789abcdef01234568/me.png'
    setup({ user: makeUser({ cover, photo, url: 'https://ana.example.com', job: 'Illustrator' }) })

    await screen.findByRole('heading', { level: 1, name: 'Ana Smith' })
    expect(screen.getByTestId('profile-cover')).toHaveAttribute('src', cover)
    expect(screen.getByRole('img', { name: 'Photo of Ana Smith' })).toHaveAttribute('src', photo)
    expect(screen.getByText('Illustrator')).toBeInTheDocument()
    const link = screen.getByRole('link', { name: 'ana.example.com' })
    expect(link).toHaveAttribute('href', 'https://ana.example.com')
    expect(link.getAttribute('rel')).toContain('noopener')
  })

  it("lists the user's animations with a Download link each, asking by their email", async () => {
    const items = [byAna(1), byAna(2), byAna(3), byAna(4), byAna(5)]
    const { animationRequests } = setup({ items })

    expect(await screen.findByRole('heading', { level: 2, name: 'Animation from Ana Smith' })).toBeInTheDocument()
    const list = await screen.findByRole('list', { name: 'Animations by Ana Smith' })
    const cards = within(list).getAllByRole('listitem')
    expect(cards).toHaveLength(5)
    const first = within(cards[0]!)
    expect(first.getByRole('heading', { name: 'Wumpus 1' })).toBeInTheDocument()
    expect(first.getByText('Animation number 1')).toBeInTheDocument()
    expect(first.getByRole('link', { name: 'Download Wumpus 1' })).toHaveAttribute('href', `/wumpus/${items[0]!._id}`)
    // The still stands in until the Lottie plays.
    expect(first.getByRole('img', { name: 'Wumpus 1: Animation number 1' }).tagName).toBe('IMG')
    expect(animationRequests[0]!.searchParams.get('u_email')).toBe(EMAIL)
    expect(screen.getByRole('status')).toHaveTextContent('Showing 5 of 5')
  })

  it('fetches the Lottie JSON once a card comes near, and plays it in place of the GIF', async () => {
    const wumpus = byAna(1)
    const lottie = { v: '5.7.0', fr: 30, ip: 0, op: 60, w: 300, h: 300, layers: [] }
    const lottieRequests: string[] = []
    server.use(
      http.get(wumpus.lottie, ({ request }) => {
        lottieRequests.push(request.url)
        return HttpResponse.json(lottie)
      }),
    )
    setup({ items: [wumpus] })
    await screen.findByRole('list', { name: 'Animations by Ana Smith' })
    expect(lottieRequests).toHaveLength(0)

    // Cards watch their place on screen once the page is interactive.
    await waitFor(() => expect(IntersectionObserverStub.watches(screen.getByTestId('sticker-motion'))).toBe(true))
    act(() => IntersectionObserverStub.intersectAll())

    await waitFor(() => expect(playedLotties.at(-1)).toMatchObject({ label: 'Wumpus 1: Animation number 1', data: lottie, playing: true }))
    expect(lottieRequests).toHaveLength(1)
    await waitFor(() => expect(screen.getByTestId('sticker-motion')).toHaveAttribute('data-motion', 'lottie'))
  })

  it('says so when the user has no animation', async () => {
    setup({ items: [makeWumpus(9)] })

    expect(await screen.findByText("Looks like user don't have any animation")).toBeInTheDocument()
    expect(screen.queryByRole('list')).not.toBeInTheDocument()
  })

  it('shows a friendly not-found page for an unknown user', async () => {
    signInForTest()
    server.use(profileHandler([]).handler, userAnimationsHandler([]).handler)
    renderApp('/profile/nobody@example.com')

    expect(await screen.findByRole('heading', { name: 'Profile not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to the gallery' })).toHaveAttribute('href', '/')
    expect(document.title).toBe('Not found · Wumpus Gallery')
  })

  it('offers Retry when the profile cannot be loaded', async () => {
    signInForTest()
    let fail = true
    const user = makeUser()
    server.use(
      http.get('/api/profile/:email', () =>
        fail ? HttpResponse.json({ error: { code: 'STORE_UNAVAILABLE', message: 'The store is resting' } }, { status: 503 }) : undefined,
      ),
      profileHandler([user]).handler,
      userAnimationsHandler([]).handler,
    )
    const view = renderApp(`/profile/${EMAIL}`)

    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('The store is resting')
    fail = false
    await view.user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Ana Smith' })).toBeInTheDocument()
  })
})

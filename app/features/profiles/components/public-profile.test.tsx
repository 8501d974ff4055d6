import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { useEffect } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Wumpus } from '../../../../contract/wumpus'
import { makeWumpus } from '../../../test/fixtures'
import { IntersectionObserverStub } from '../../../test/intersection-observer-stub'
import { server } from '../../../test/msw-server'
import { makeUser } from '../../../test/profile-fixtures'
import { profileHandler, userAnimationsHandler } from '../../../test/profile-handlers'
import { renderApp } from '../../../test/render-app'
import { renderWithProviders } from '../../../test/render-with-providers'
import { signInForTest } from '../../../test/session'
import { DEFAULT_AVATAR, DEFAULT_COVER } from '../api'
import type { LottiePlayerProps } from './lottie-player'
import { PublicProfile } from './public-profile'

// lottie-web needs a real browser; this stand-in records what the preview hands the player.
const players = vi.hoisted(() => [] as { label: string; data: object; playing: boolean }[])
vi.mock('./lottie-player', () => ({
  default: function FakeLottiePlayer({ data, playing, label, onReady }: LottiePlayerProps) {
    useEffect(() => {
      players.push({ label, data, playing })
      onReady()
    }, [label, data, playing, onReady])
    return <div role="img" aria-label={label} data-playing={String(playing)} />
  },
}))

const EMAIL = 'ana.smith@example.com'
const byAna = (n: number, overrides: Partial<Wumpus> = {}) => makeWumpus(n, { u_email: EMAIL, u_name: 'Ana Smith', ...overrides })

function setup({ user = makeUser(), items = [] as Wumpus[] } = {}) {
  const animations = userAnimationsHandler(items)
  server.use(profileHandler([user]).handler, animations.handler)
  return { ...renderWithProviders(<PublicProfile email={EMAIL} />), animationRequests: animations.requests }
}

function mockReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes('prefers-reduced-motion: reduce'),
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  )
}

describe('PublicProfile', () => {
  beforeEach(() => {
    players.length = 0
  })

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
    // The GIF stands in until the Lottie is near the viewport.
    expect(first.getByRole('img', { name: 'Wumpus 1: Animation number 1' })).toHaveAttribute('src', items[0]!.gif)
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

    IntersectionObserverStub.intersectAll()

    await waitFor(() => expect(players.at(-1)).toMatchObject({ label: 'Wumpus 1: Animation number 1', data: lottie, playing: true }))
    expect(lottieRequests).toHaveLength(1)
    const images = screen.getAllByRole('img', { name: 'Wumpus 1: Animation number 1' })
    expect(images).toHaveLength(1)
    expect(images[0]!.tagName).toBe('DIV')
  })

  it('does not autoplay for people who ask for reduced motion, and offers a Play button', async () => {
    mockReducedMotion(true)
    const wumpus = byAna(1)
    server.use(http.get(wumpus.lottie, () => HttpResponse.json({ v: '5.7.0', layers: [] })))
    const { user } = setup({ items: [wumpus] })
    await screen.findByRole('list', { name: 'Animations by Ana Smith' })

    IntersectionObserverStub.intersectAll()

    const play = await screen.findByRole('button', { name: 'Play Wumpus 1' })
    expect(players.at(-1)).toMatchObject({ playing: false })
    expect(players.some((player) => player.playing)).toBe(false)
    await user.click(play)
    await waitFor(() => expect(players.at(-1)).toMatchObject({ playing: true }))
    expect(screen.getByRole('button', { name: 'Pause Wumpus 1' })).toHaveAttribute('aria-pressed', 'true')
  })

  it('keeps the GIF when the Lottie JSON cannot be fetched', async () => {
    const wumpus = byAna(1)
    server.use(http.get(wumpus.lottie, () => HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'gone' } }, { status: 404 })))
    setup({ items: [wumpus] })
    await screen.findByRole('list', { name: 'Animations by Ana Smith' })

    IntersectionObserverStub.intersectAll()

    await waitFor(() => expect(screen.getByRole('img', { name: 'Wumpus 1: Animation number 1' }).tagName).toBe('IMG'))
    expect(players).toHaveLength(0)
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

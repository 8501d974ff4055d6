import { act, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as firebase from '../lib/firebase'
import { accountHandlers } from '../test/account-handlers'
import { makeUser } from '../test/profile-fixtures'
import { wumpusDetailHandler, wumpusListHandler } from '../test/api-handlers'
import { fakeAccount } from '../test/firebase-fake'
import { makeWumpus, makeWumpuses } from '../test/fixtures'
import { server } from '../test/msw-server'
import { renderApp } from '../test/render-app'
import { signInForTest } from '../test/session'

vi.mock('../lib/firebase', () => import('../test/firebase-fake'))
// lottie-web cannot draw in jsdom.
vi.mock('../features/auth/components/mascot-player', () => ({ default: () => null }))

const wumpus = makeWumpus(3)
const detailPath = `/wumpus/${wumpus._id}`

beforeEach(() => {
  vi.resetAllMocks()
  server.use(
    wumpusDetailHandler([wumpus]),
    wumpusListHandler(makeWumpuses(1, 2)).handler,
    http.get('/api/wumpus', () => HttpResponse.json([], { headers: { 'X-Total-Count': '0' } })),
    http.get('/api/profile/:email', ({ params }) =>
      HttpResponse.json(makeUser({ email: String(params.email), user_name: 'Grace Hopper' })),
    ),
  )
})

describe('protected routes', () => {
  it('send a signed-out visitor to /signIn, remembering where they were going, and back after signing in', async () => {
    server.use(...accountHandlers().handlers)
    vi.mocked(firebase.signInWithEmail).mockResolvedValue(fakeAccount())
    const { router, user } = renderApp(`${detailPath}?tab=gif`)

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/signIn')
    expect(router.state.location.search).toEqual({ from: `${detailPath}?tab=gif` })

    await user.type(screen.getByLabelText('Email Address*'), 'ada@example.com')
    await user.type(screen.getByLabelText('Password*'), 'secret1')
    await user.click(screen.getByRole('button', { name: 'Sign In' }))

    expect(await screen.findByRole('heading', { level: 1, name: wumpus.name })).toBeInTheDocument()
    expect(router.state.location.href).toBe(`${detailPath}?tab=gif`)
  })

  it('show a spinner while an expired session is renewed, then the page', async () => {
    signInForTest({ expiresInSeconds: -60 })
    server.use(...accountHandlers().handlers)
    let renew!: () => void
    vi.mocked(firebase.currentAccount).mockReturnValue(new Promise((resolve) => (renew = () => resolve(fakeAccount()))))
    const { router } = renderApp(detailPath)

    expect(await screen.findByRole('status')).toHaveTextContent('Loading…')
    expect(screen.queryByRole('heading', { name: wumpus.name })).not.toBeInTheDocument()
    act(() => renew())

    expect(await screen.findByRole('heading', { level: 1, name: wumpus.name })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(detailPath)
  })

  it('send the visitor to /signIn when the expired session cannot be renewed', async () => {
    signInForTest({ expiresInSeconds: -60 })
    vi.mocked(firebase.currentAccount).mockResolvedValue(null)
    const { router } = renderApp(detailPath)

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument()
    expect(router.state.location.search).toEqual({ from: detailPath })
    expect(window.localStorage.getItem('accessToken')).toBeNull()
  })

  it('open for a signed-in user: the dashboard with its sidebar, admin links only for admins', async () => {
    signInForTest({ email: 'ada@example.com' })
    const { handlers } = accountHandlers({ admin: false })
    server.use(...handlers)
    renderApp('/dashboard')

    const sidebar = await screen.findByRole('navigation', { name: 'Dashboard' })
    expect(within(sidebar).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(within(sidebar).getByRole('link', { name: 'My profile' })).toHaveAttribute('href', '/dashboard/profile')
    expect(within(sidebar).getByRole('link', { name: 'My animation' })).toHaveAttribute('href', '/dashboard/own')
    expect(await screen.findByText("Looks like you don't have any animation")).toBeInTheDocument()
    expect(within(sidebar).queryByRole('link', { name: 'All users' })).not.toBeInTheDocument()
  })

  it('show the admin links in the sidebar to admins', async () => {
    signInForTest({ email: 'root@example.com' })
    server.use(...accountHandlers({ admin: true }).handlers)
    renderApp('/dashboard/own')

    const sidebar = await screen.findByRole('navigation', { name: 'Dashboard' })
    expect(await within(sidebar).findByRole('link', { name: 'All users' })).toBeInTheDocument()
    expect(within(sidebar).getByRole('link', { name: 'Add animation' })).toBeInTheDocument()
    expect(within(sidebar).getByRole('link', { name: 'Manage animation' })).toBeInTheDocument()
  })

  it('show a public profile by email', async () => {
    signInForTest()
    renderApp('/profile/grace@example.com')
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument()
  })

  it('send the user to /signIn when another tab signs out', async () => {
    signInForTest()
    const { router } = renderApp(detailPath)
    expect(await screen.findByRole('heading', { level: 1, name: wumpus.name })).toBeInTheDocument()

    act(() => {
      window.localStorage.removeItem('accessToken')
      window.dispatchEvent(new StorageEvent('storage', { key: 'accessToken', oldValue: 'x', newValue: null }))
    })

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument()
    expect(router.state.location.search).toEqual({ from: detailPath })
  })
})

import { act, screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { accountHandlers } from '../../test/account-handlers'
import { gate, usersHandler } from '../../test/admin-handlers'
import { wumpusDetailHandler, wumpusListHandler } from '../../test/api-handlers'
import { makeWumpus, makeWumpuses } from '../../test/fixtures'
import { server } from '../../test/msw-server'
import { renderApp } from '../../test/render-app'
import { signInForTest } from '../../test/session'

vi.mock('../../lib/firebase', () => import('../../test/firebase-fake'))
// lottie-web cannot draw in jsdom.
vi.mock('../auth/components/mascot-player', () => ({ default: () => null }))

const ADMIN_PAGES = [
  ['/dashboard/addNew', 'Add animation'],
  ['/dashboard/manage', 'Manage animation'],
  ['/dashboard/users', 'All users'],
  ['/dashboard/review', 'Review submissions'],
  ['/dashboard/reports', 'Reports'],
] as const

beforeEach(() => {
  server.use(
    wumpusListHandler(makeWumpuses(1, 2)).handler,
    usersHandler([]).handler,
    http.get('/api/submissions', () => HttpResponse.json([])),
    http.get('/api/reports', () => HttpResponse.json([])),
  )
})

describe('admin-only routes', () => {
  it.each(ADMIN_PAGES)('open %s to admins', async (path, heading) => {
    signInForTest({ email: 'root@example.com' })
    server.use(...accountHandlers({ admin: true }).handlers)
    const { router } = renderApp(path)

    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(path)
  })

  it.each(ADMIN_PAGES)('tell a signed-in non-admin that %s is for admins only, without a sign-in form', async (path) => {
    signInForTest({ email: 'ada@example.com', name: 'Ada' })
    server.use(...accountHandlers({ admin: false }).handlers)
    const { router } = renderApp(path)

    expect(await screen.findByRole('heading', { level: 1, name: 'Admins only' })).toBeInTheDocument()
    expect(screen.getByText(/This page is for the gallery’s admins, and Ada is not one\./)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument()
    expect(router.state.location.pathname).toBe(path)
  })

  it('send a signed-out visitor to /signIn', async () => {
    const { router } = renderApp('/dashboard/users')

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument()
    expect(router.state.location.search).toEqual({ from: '/dashboard/users' })
  })

  it('show a spinner while the admin check loads, then the page', async () => {
    signInForTest({ email: 'root@example.com' })
    const { opened, release } = gate()
    server.use(
      http.get('/api/admin/:email', async () => {
        await opened
        return HttpResponse.json({ admin: true })
      }),
    )
    renderApp('/dashboard/addNew')

    expect(await screen.findByRole('status')).toHaveTextContent('Loading…')
    expect(screen.queryByRole('heading', { name: 'Add animation' })).not.toBeInTheDocument()
    act(() => release())

    expect(await screen.findByRole('heading', { level: 1, name: 'Add animation' })).toBeInTheDocument()
  })

  it('say so, rather than redirect, when the admin check cannot reach the server', async () => {
    signInForTest({ email: 'root@example.com' })
    server.use(http.get('/api/admin/:email', () => HttpResponse.error()))
    const { router } = renderApp('/dashboard/manage')

    expect(await screen.findByText('Could not load this page')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/dashboard/manage')
  })
})

describe('/editWumpus/$id', () => {
  const wumpus = makeWumpus(5, { u_email: 'ana@example.com' })

  it('shows the form to the uploader', async () => {
    signInForTest({ email: 'ana@example.com' })
    server.use(...accountHandlers({ admin: false }).handlers, wumpusDetailHandler([wumpus]))
    renderApp(`/editWumpus/${wumpus._id}`)

    expect(await screen.findByRole('button', { name: 'Save changes' })).toBeInTheDocument()
  })

  it('refuses a signed-in user who is neither admin nor uploader', async () => {
    signInForTest({ email: 'ada@example.com' })
    server.use(...accountHandlers({ admin: false }).handlers, wumpusDetailHandler([wumpus]))
    renderApp(`/editWumpus/${wumpus._id}`)

    expect(await screen.findByText(/Only admins and the uploader can edit this animation/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument()
  })

  it('says when there is no such animation', async () => {
    signInForTest({ email: 'root@example.com' })
    server.use(...accountHandlers({ admin: true }).handlers, wumpusDetailHandler([]))
    renderApp(`/editWumpus/${'9'.repeat(24)}`)

    expect(await screen.findByRole('heading', { level: 1, name: 'Animation not found' })).toBeInTheDocument()
  })
})

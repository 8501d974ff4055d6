import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as firebase from '../lib/firebase'
import { wumpusDetailHandler, wumpusListHandler } from '../test/api-handlers'
import { makeWumpus, makeWumpuses } from '../test/fixtures'
import { server } from '../test/msw-server'
import { renderApp } from '../test/render-app'
import { signInForTest } from '../test/session'

vi.mock('../lib/firebase', () => import('../test/firebase-fake'))

const mobileMenu = () => document.getElementById('mobile-menu')

describe('layout and navigation', () => {
  it('has the product name, main links and the signed-out account links', async () => {
    renderApp('/about')
    const banner = await screen.findByRole('banner')
    expect(within(banner).getByRole('link', { name: 'Wumpus Gallery home' })).toHaveAttribute('href', '/')
    const nav = within(banner).getByRole('navigation', { name: 'Main' })
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/')
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current')
    expect(within(nav).getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page')
    expect(within(banner).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signIn')
    expect(within(banner).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signUp')
    expect(screen.getByRole('main')).toBeInTheDocument()
    expect(screen.getByRole('contentinfo')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main')
  })

  it('opens the mobile menu with the burger and closes it after navigating', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 1)).handler)
    const { user, router } = renderApp('/about')
    const burger = await screen.findByRole('button', { name: 'Open menu' })
    expect(burger).toHaveAttribute('aria-expanded', 'false')
    expect(mobileMenu()).toBeNull()

    await user.click(burger)
    expect(burger).toHaveAttribute('aria-expanded', 'true')
    expect(burger).toHaveAccessibleName('Close menu')
    const menu = within(mobileMenu()!)
    expect(menu.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signIn')
    expect(menu.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signUp')

    await user.click(menu.getByRole('link', { name: 'Home' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    await waitFor(() => expect(mobileMenu()).toBeNull())
    expect(burger).toHaveAttribute('aria-expanded', 'false')
  })

  it('closes the mobile menu with Escape and puts focus back on the burger', async () => {
    const { user } = renderApp('/about')
    const burger = await screen.findByRole('button', { name: 'Open menu' })
    await user.click(burger)
    within(mobileMenu()!).getByRole('link', { name: 'About' }).focus()

    await user.keyboard('{Escape}')
    expect(mobileMenu()).toBeNull()
    expect(burger).toHaveFocus()
  })

  it('closes the mobile menu with Escape wherever the focus is, and with a tap outside it', async () => {
    const { user } = renderApp('/about')
    const burger = await screen.findByRole('button', { name: 'Open menu' })
    await user.click(burger)
    expect(mobileMenu()).not.toBeNull()
    // Focus left on the page behind the menu.
    screen.getByRole('main').focus()
    await user.keyboard('{Escape}')
    expect(mobileMenu()).toBeNull()
    expect(burger).toHaveFocus()

    await user.click(burger)
    // A tap inside the menu keeps it open.
    await user.click(mobileMenu()!)
    expect(mobileMenu()).not.toBeNull()
    await user.click(screen.getByRole('heading', { level: 1 }))
    expect(mobileMenu()).toBeNull()
    expect(burger).toHaveAttribute('aria-expanded', 'false')
  })
})

describe('navigation when signed in', () => {
  beforeEach(() => {
    vi.resetAllMocks()
  })

  it('shows the display name, the Dashboard link and SignOut instead of Sign In and Sign Up', async () => {
    signInForTest({ email: 'ada@example.com', name: 'Ada Lovelace' })
    renderApp('/about')
    const banner = await screen.findByRole('banner')

    expect(within(banner).getByText('Ada Lovelace')).toBeInTheDocument()
    const nav = within(banner).getByRole('navigation', { name: 'Main' })
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(within(banner).getByRole('button', { name: 'SignOut' })).toBeInTheDocument()
    expect(within(banner).queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument()
    expect(within(banner).queryByRole('link', { name: 'Sign Up' })).not.toBeInTheDocument()
    expect(firebase.currentAccount).not.toHaveBeenCalled()
  })

  it('shows the email when the account has no name, and "Sign Out" in the mobile menu', async () => {
    signInForTest({ email: 'nameless@example.com', name: '' })
    const { user } = renderApp('/about')
    await user.click(await screen.findByRole('button', { name: 'Open menu' }))

    const menu = within(mobileMenu()!)
    expect(menu.getByText('nameless@example.com')).toBeInTheDocument()
    expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(menu.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument()
  })

  it('puts Favourites, My packs and My animation one tap away in the mobile menu', async () => {
    signInForTest({ email: 'ada@example.com', name: 'Ada' })
    const { user } = renderApp('/about')
    await user.click(await screen.findByRole('button', { name: 'Open menu' }))

    const yours = within(within(mobileMenu()!).getByRole('group', { name: 'Yours' }))
    expect(yours.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Favourites', '/dashboard/favourites'],
      ['My packs', '/dashboard/my-packs'],
      ['My animation', '/dashboard/own'],
    ])
  })

  it('closes the mobile menu after Sign Out', async () => {
    signInForTest({ email: 'ada@example.com', name: 'Ada' })
    vi.mocked(firebase.signOutOfFirebase).mockResolvedValue()
    server.use(http.delete('/api/session', () => new HttpResponse(null, { status: 204 })))
    const { user } = renderApp('/about')
    const burger = await screen.findByRole('button', { name: 'Open menu' })
    await user.click(burger)
    await user.click(within(mobileMenu()!).getByRole('button', { name: 'Sign Out' }))

    await waitFor(() => expect(mobileMenu()).toBeNull())
    expect(burger).toHaveAttribute('aria-expanded', 'false')
    expect(await within(screen.getByRole('banner')).findAllByRole('link', { name: 'Sign In' })).not.toHaveLength(0)
  })

  it('signs out: ends the session on the server, removes accessToken, signs out of Firebase and shows Sign In again', async () => {
    const token = signInForTest()
    vi.mocked(firebase.signOutOfFirebase).mockResolvedValue()
    const ended: (string | null)[] = []
    server.use(
      http.delete(
        '/api/session',
        ({ request }) => (ended.push(request.headers.get('Authorization')), new HttpResponse(null, { status: 204 })),
      ),
    )
    const { user } = renderApp('/about')
    const banner = await screen.findByRole('banner')

    await user.click(within(banner).getByRole('button', { name: 'SignOut' }))

    expect(await within(banner).findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signIn')
    expect(within(banner).queryByText('Ada Lovelace')).not.toBeInTheDocument()
    expect(within(banner).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument()
    expect(window.localStorage.getItem('accessToken')).toBeNull()
    expect(firebase.signOutOfFirebase).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(ended).toEqual([`Bearer ${token}`]))
  })

  it('leaves a protected page for the home page when signing out there', async () => {
    const wumpus = makeWumpus(4)
    server.use(
      wumpusDetailHandler([wumpus]),
      wumpusListHandler(makeWumpuses(1, 1)).handler,
      http.delete('/api/session', () => new HttpResponse(null, { status: 204 })),
    )
    signInForTest()
    const { user, router } = renderApp(`/wumpus/${wumpus._id}`)
    expect(await screen.findByRole('heading', { level: 1, name: wumpus.name })).toBeInTheDocument()

    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: 'SignOut' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(await screen.findByText(/Don't know what is wumpus\?/)).toBeInTheDocument()
  })
})

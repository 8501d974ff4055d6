import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { wumpusListHandler } from '../test/api-handlers'
import { makeWumpuses } from '../test/fixtures'
import { server } from '../test/msw-server'
import { renderApp } from '../test/render-app'

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
})

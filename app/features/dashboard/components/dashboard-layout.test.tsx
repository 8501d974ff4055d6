import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../test/render-with-providers'
import { DashboardLayout } from './dashboard-layout'

const EVERYONE = [
  ['Dashboard', '/dashboard'],
  ['My profile', '/dashboard/profile'],
  ['My animation', '/dashboard/own'],
  ['My packs', '/dashboard/my-packs'],
  ['Favourites', '/dashboard/favourites'],
  ['My submissions', '/dashboard/submissions'],
]
const ADMINS = [
  ['Add animation', '/dashboard/addNew'],
  ['Manage animation', '/dashboard/manage'],
  ['Review', '/dashboard/review'],
  ['Reports', '/dashboard/reports'],
  ['Packs', '/dashboard/packs'],
  ['All users', '/dashboard/users'],
  ['Activity', '/dashboard/activity'],
  ['Backups', '/dashboard/backups'],
]

async function sidebarLinks() {
  const nav = await screen.findByRole('navigation', { name: 'Dashboard' })
  return within(nav)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')])
}

describe('DashboardLayout', () => {
  it('shows Dashboard, My profile, My animation, My packs, Favourites and My submissions to everyone, and its content', async () => {
    renderWithProviders(
      <DashboardLayout isAdmin={false}>
        <p>Page content</p>
      </DashboardLayout>,
    )

    expect(await sidebarLinks()).toEqual(EVERYONE)
    expect(screen.getByText('Page content')).toBeInTheDocument()
  })

  it('adds the admin pages only for admins', async () => {
    renderWithProviders(
      <DashboardLayout isAdmin>
        <p>Page content</p>
      </DashboardLayout>,
    )

    expect(await sidebarLinks()).toEqual([...EVERYONE, ...ADMINS])
  })

  it('marks the current page, and Dashboard only on its own path', async () => {
    renderWithProviders(
      <DashboardLayout isAdmin>
        <p>Page content</p>
      </DashboardLayout>,
      { path: '/dashboard/profile' },
    )

    const current = await screen.findByRole('link', { current: 'page' })
    expect(current).toHaveTextContent('My profile')
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current')
  })
})

import { act, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { makeAdminHandler, usersHandler } from '../test/admin-handlers'
import { accountHandlers } from '../test/account-handlers'
import { wumpusDetailHandler, wumpusListHandler } from '../test/api-handlers'
import { makeWumpus, makeWumpuses } from '../test/fixtures'
import { server } from '../test/msw-server'
import { makeUser } from '../test/profile-fixtures'
import { profileHandler } from '../test/profile-handlers'
import { renderApp } from '../test/render-app'
import { renderWithProviders } from '../test/render-with-providers'
import { AddWumpusPage } from '../features/admin/components/add-wumpus-page'
import { AllUsers } from '../features/admin/components/all-users'
import { EditWumpusPage } from '../features/admin/components/edit-wumpus-page'
import { ManageWumpuses } from '../features/admin/components/manage-wumpuses'
import { MyProfile } from '../features/profiles/components/my-profile'
import { goOffline } from '../test/offline-data'
import { NEEDS_NETWORK_MESSAGE } from '../components/needs-network'

vi.mock('../lib/firebase', () => import('../test/firebase-fake'))
vi.mock('../features/auth/components/mascot-player', () => ({ default: () => null }))

const reason = () => screen.getByText(NEEDS_NETWORK_MESSAGE)

describe('actions that need the network, offline', () => {
  it('sign-in: both ways are disabled with the reason, and come back online', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 2)).handler, ...accountHandlers().handlers)
    renderApp('/signIn')
    const submit = await screen.findByRole('button', { name: 'Sign In' })
    expect(submit).toBeEnabled()
    expect(screen.queryByText(NEEDS_NETWORK_MESSAGE)).not.toBeInTheDocument()

    act(() => goOffline())
    expect(submit).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled()
    expect(reason()).toBeVisible()

    act(() => goOffline(false))
    expect(submit).toBeEnabled()
    expect(screen.queryByText(NEEDS_NETWORK_MESSAGE)).not.toBeInTheDocument()
  })

  it('sign-up and password reset are disabled with the reason', async () => {
    goOffline()
    server.use(...accountHandlers().handlers)
    const { unmount } = renderApp('/signUp')
    expect(await screen.findByRole('button', { name: 'Sign Up' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Sign up with Google' })).toBeDisabled()
    expect(reason()).toBeInTheDocument()
    unmount()

    renderApp('/forgetPassword')
    expect(await screen.findByRole('button', { name: 'Reset password' })).toBeDisabled()
    expect(reason()).toBeInTheDocument()
  })

  it('profile update is disabled with the reason', async () => {
    goOffline()
    const user = makeUser()
    server.use(profileHandler([user]).handler)
    renderWithProviders(<MyProfile email={user.email} onTokenRenewed={vi.fn()} />)
    expect(await screen.findByRole('button', { name: 'Update Profile' })).toBeDisabled()
    expect(reason()).toBeInTheDocument()
  })

  it('admin add and edit are disabled with the reason', async () => {
    goOffline()
    const { unmount } = renderWithProviders(<AddWumpusPage />)
    expect(await screen.findByRole('button', { name: 'Publish' })).toBeDisabled()
    expect(reason()).toBeInTheDocument()
    unmount()

    const wumpus = makeWumpus(7)
    server.use(wumpusDetailHandler([wumpus]))
    renderWithProviders(<EditWumpusPage id={wumpus._id} email={wumpus.u_email!} isAdmin />)
    expect(await screen.findByRole('button', { name: 'Save changes' })).toBeDisabled()
    expect(reason()).toBeInTheDocument()
  })

  it('admin delete and make-admin are disabled with the reason', async () => {
    goOffline()
    const items = makeWumpuses(1, 2)
    server.use(wumpusListHandler(items).handler)
    const { unmount } = renderWithProviders(<ManageWumpuses />)
    const table = await screen.findByRole('table', { name: 'Animations' })
    expect(within(table).getByRole('button', { name: 'Delete Wumpus 1' })).toBeDisabled()
    expect(reason()).toBeInTheDocument()
    unmount()

    const users = [makeUser({ email: 'ana@example.com', user_name: 'Ana' })]
    server.use(usersHandler(users).handler, makeAdminHandler(users).handler)
    renderWithProviders(<AllUsers />)
    const usersTable = await screen.findByRole('table', { name: 'Users' })
    expect(within(usersTable).getByRole('button', { name: 'Make Ana an admin' })).toBeDisabled()
    expect(reason()).toBeInTheDocument()
  })
})

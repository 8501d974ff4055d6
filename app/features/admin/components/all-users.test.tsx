import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { User } from '../../../../contract/user'
import { apiError, endSessionsHandler, makeAdminHandler, usersHandler } from '../../../test/admin-handlers'
import { server } from '../../../test/msw-server'
import { makeUser } from '../../../test/profile-fixtures'
import { renderWithProviders } from '../../../test/render-with-providers'
import { AllUsers, NOT_AUTHORIZED_SIGN_OUT, USERS_STEP } from './all-users'

function someUsers(): User[] {
  return [
    makeUser({ email: 'root@example.com', user_name: 'Root', role: 'admin' }),
    makeUser({ email: 'ana@example.com', user_name: 'Ana Smith' }),
    makeUser({ email: 'bo@example.com', user_name: '' }),
  ]
}

async function setup(users = someUsers(), { answer }: { answer?: Response } = {}) {
  const list = usersHandler(users)
  const promote = makeAdminHandler(users, { answer })
  server.use(list.handler, promote.handler)
  // Root is the signed-in admin.
  const view = renderWithProviders(<AllUsers me="root@example.com" />, { path: '/dashboard/users' })
  const table = await screen.findByRole('table', { name: 'Users' })
  return { ...view, table, users, listRequests: list.requests, promoted: promote.emails }
}

const rows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1)

async function makeAdmin(user: Awaited<ReturnType<typeof setup>>['user'], name: string) {
  await user.click(screen.getByRole('button', { name: `Make ${name} an admin` }))
  const dialog = await screen.findByRole('dialog', { name: `Make ${name} an admin?` })
  await user.click(within(dialog).getByRole('button', { name: 'Make admin' }))
}

describe('AllUsers', () => {
  it('lists #, name, email, a profile link, and make-admin only for non-admins', async () => {
    const { table } = await setup()

    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['#', 'Name', 'Email', 'Profile', 'Action'])
    const [root, ana, bo] = rows(table).map((row) => within(row))
    // On phones the email also shows under the name (the Email column is hidden there).
    expect(root!.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '1',
      'Rootroot@example.com',
      'root@example.com',
      'Profile',
      'Admin',
    ])
    expect(root!.queryByRole('button')).not.toBeInTheDocument()
    expect(ana!.getByRole('link', { name: 'Profile of Ana Smith' })).toHaveAttribute('href', '/profile/ana@example.com')
    expect(ana!.getByRole('button', { name: 'Make Ana Smith an admin' })).toBeInTheDocument()
    expect(bo!.getByRole('button', { name: 'Make bo@example.com an admin' })).toBeInTheDocument()
  })

  it('makes a user admin after confirmation, says so and refetches', async () => {
    const { table, user, promoted, listRequests } = await setup()

    await makeAdmin(user, 'Ana Smith')

    expect(await screen.findByText('Made admin successfully')).toBeInTheDocument()
    expect(promoted).toEqual(['ana@example.com'])
    await waitFor(() => expect(listRequests()).toBe(2))
    await waitFor(() => expect(within(rows(table)[1]!).queryByRole('button', { name: /an admin$/ })).not.toBeInTheDocument())
    expect(within(rows(table)[1]!).getByText('Admin')).toBeInTheDocument()
  })

  it('shows the not-authorized toast on 403, and refetches', async () => {
    const { user, listRequests } = await setup(someUsers(), {
      answer: apiError(403, 'FORBIDDEN', 'Only admins can do this'),
    })

    await makeAdmin(user, 'Ana Smith')

    expect(await screen.findByText('You are not authorized to make this user an admin')).toBeInTheDocument()
    expect(screen.queryByText('Made admin successfully')).not.toBeInTheDocument()
    await waitFor(() => expect(listRequests()).toBe(2))
  })

  it('signs a user out everywhere after confirmation and says so; not offered for oneself', async () => {
    const endAll = endSessionsHandler({ endedCount: 2 })
    server.use(endAll.handler)
    const { table, user } = await setup()
    const [root, ana, bo] = rows(table).map((row) => within(row))
    expect(root!.queryByRole('button', { name: /out everywhere/ })).not.toBeInTheDocument()
    expect(bo!.getByRole('button', { name: 'Sign bo@example.com out everywhere' })).toBeInTheDocument()
    await user.click(ana!.getByRole('button', { name: 'Sign Ana Smith out everywhere' }))
    const dialog = await screen.findByRole('dialog', { name: 'Sign Ana Smith out everywhere?' })
    expect(dialog).toHaveTextContent('they must sign in again on each device')
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }))
    expect(await screen.findByText('Signed Ana Smith out everywhere')).toBeInTheDocument()
    expect(endAll.emails).toEqual(['ana@example.com'])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('says when the user was signed in nowhere, and shows the not-authorized toast on 403', async () => {
    server.use(endSessionsHandler({ endedCount: 0 }).handler)
    const { table, user } = await setup()
    const ana = within(rows(table)[1]!)
    const signOutAna = async () => {
      await user.click(ana.getByRole('button', { name: 'Sign Ana Smith out everywhere' }))
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }))
    }
    await signOutAna()
    expect(await screen.findByText('Ana Smith was not signed in anywhere')).toBeInTheDocument()
    server.use(endSessionsHandler({ answer: apiError(403, 'FORBIDDEN', 'Only admins can do this') }).handler)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await signOutAna()
    expect(await screen.findByText(NOT_AUTHORIZED_SIGN_OUT)).toBeInTheDocument()
  })

  it("says the user's sessions ended but their sign-ins were not revoked when Firebase failed, to try again", async () => {
    const revocationFailed = apiError(
      503,
      'STORE_UNAVAILABLE',
      '2 sessions ended, but sign-ins cannot be revoked right now, try again shortly',
      {
        reason: 'revocation-failed',
        endedCount: 2,
      },
    )
    server.use(endSessionsHandler({ answer: revocationFailed }).handler)
    const { table, user } = await setup()
    await user.click(within(rows(table)[1]!).getByRole('button', { name: 'Sign Ana Smith out everywhere' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }))
    expect(await screen.findByText('Signed Ana Smith out everywhere, but their sign-ins were not revoked')).toBeInTheDocument()
    expect(
      screen.getByText(
        '2 sessions ended, but their sign-ins could not be revoked: a device of theirs may still sign back in by itself. Please try again.',
      ),
    ).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('shows many users a step at a time, and finds them by name or email', async () => {
    const many = Array.from({ length: USERS_STEP + 5 }, (_, i) => makeUser({ email: `user${i}@example.com`, user_name: `User ${i}` }))
    const { table, user } = await setup(many)

    expect(rows(table)).toHaveLength(USERS_STEP)
    await user.click(screen.getByRole('button', { name: 'Show more' }))
    expect(rows(table)).toHaveLength(USERS_STEP + 5)

    await user.type(screen.getByLabelText('Search users'), 'user12@')
    await waitFor(() => expect(rows(table)).toHaveLength(1))
    expect(rows(table)[0]).toHaveTextContent('User 12')
  })
})

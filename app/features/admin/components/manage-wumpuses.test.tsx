import { screen, waitFor, within } from '@testing-library/react'
import { http } from 'msw'
import { describe, expect, it } from 'vitest'
import { apiError, deleteWumpusHandler } from '../../../test/admin-handlers'
import { wumpusListHandler } from '../../../test/api-handlers'
import { makeWumpus, makeWumpuses } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { ManageWumpuses } from './manage-wumpuses'

async function setup(items = makeWumpuses(1, 3), { pageSize = 24 } = {}) {
  const list = wumpusListHandler(items, { pageSize })
  const remove = deleteWumpusHandler(items)
  server.use(list.handler, remove.handler)
  const view = renderWithProviders(<ManageWumpuses />, { path: '/dashboard/manage' })
  const table = await screen.findByRole('table', { name: 'Animations' })
  return { ...view, table, items, listRequests: list.requests, deleted: remove.deleted }
}

const rows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1)

describe('ManageWumpuses', () => {
  it('lists #, name, uploader, a Details link and edit/delete buttons', async () => {
    const { table } = await setup([makeWumpus(1, { name: 'Waving Wumpus', u_name: 'Ana', u_email: 'ana@example.com' })])

    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['#', 'Name', 'Uploader', 'Details', 'Action'])
    const [row] = rows(table)
    const cells = within(row!).getAllByRole('cell')
    expect(cells[0]).toHaveTextContent('1')
    expect(cells[1]).toHaveTextContent('Waving Wumpus')
    expect(within(cells[2]!).getByRole('link', { name: 'Ana' })).toHaveAttribute('href', '/profile/ana@example.com')
    const id = makeWumpus(1)._id
    expect(within(cells[3]!).getByRole('link', { name: 'Details of Waving Wumpus' })).toHaveAttribute('href', `/wumpus/${id}`)
    expect(within(cells[4]!).getByRole('link', { name: 'Edit Waving Wumpus' })).toHaveAttribute('href', `/editWumpus/${id}`)
    expect(within(cells[4]!).getByRole('button', { name: 'Delete Waving Wumpus' })).toBeInTheDocument()
  })

  it('tells which animations have no emoji yet', async () => {
    const waving = makeWumpus(1, { name: 'Waving Wumpus', emoji: [{ char: '👋', name: 'waving hand' }] })
    const { table } = await setup([waving, makeWumpus(2, { name: 'Plain Wumpus' })])
    expect(screen.getByText('Some animations have no emoji')).toBeInTheDocument()
    expect(rows(table).map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual(['Waving Wumpus', 'Plain WumpusNo emoji'])
  })

  it('loads a page at a time', async () => {
    const { table, user, listRequests } = await setup(makeWumpuses(1, 30), { pageSize: 24 })

    expect(rows(table)).toHaveLength(24)
    expect(screen.getByText('Showing 24 of 30')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Load more' }))

    await waitFor(() => expect(rows(table)).toHaveLength(30))
    expect(listRequests.map((url) => url.searchParams.get('cursor'))).toEqual([null, '24'])
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('deletes after confirmation, says so and refetches the list', async () => {
    const { table, user, deleted, listRequests } = await setup()
    const before = listRequests.length

    await user.click(screen.getByRole('button', { name: 'Delete Wumpus 2' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete Wumpus 2?' })
    expect(deleted).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))

    expect(await screen.findByText('Wumpus deleted successfully')).toBeInTheDocument()
    expect(deleted).toEqual([makeWumpus(2)._id])
    await waitFor(() => expect(within(table).queryByText('Wumpus 2')).not.toBeInTheDocument())
    expect(listRequests.length).toBeGreaterThan(before)
    expect(rows(table).map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual(['Wumpus 1No emoji', 'Wumpus 3No emoji'])
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('deletes nothing when the dialog is cancelled', async () => {
    const { user, deleted } = await setup()

    await user.click(screen.getByRole('button', { name: 'Delete Wumpus 1' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }))

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(deleted).toEqual([])
  })

  it('shows no success toast when nothing was deleted, and the reason when the server refuses', async () => {
    const { user, items } = await setup()
    items.splice(0, 1) // someone else deleted Wumpus 1 meanwhile

    await user.click(screen.getByRole('button', { name: 'Delete Wumpus 1' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('This animation was already deleted')).toBeInTheDocument()
    expect(screen.queryByText('Wumpus deleted successfully')).not.toBeInTheDocument()

    server.use(http.delete('/api/wumpus/:id', () => apiError(403, 'FORBIDDEN', 'Verify your email address first')))
    await user.click(screen.getByRole('button', { name: 'Delete Wumpus 2' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Verify your email address first')).toBeInTheDocument()
  })
})

import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { ActivityEntry } from '../../../../contract/audit'
import { accountHandlers } from '../../../test/account-handlers'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { renderWithProviders } from '../../../test/render-with-providers'
import { signInForTest } from '../../../test/session'
import { ActivityLog } from './activity-log'

const entry = (overrides: Partial<ActivityEntry>): ActivityEntry => ({
  id: Math.random().toString(16).slice(2),
  at: '2026-11-22T10:30:00.000Z',
  actor: 'boss@example.com',
  action: 'wumpus.edit',
  target: { type: 'wumpus', id: '0123456789abcdef01234567', name: 'Dancing Wumpus' },
  changes: [{ field: 'name', from: 'Dancer', to: 'Dancing Wumpus' }],
  ...overrides,
})

/** GET /api/activity in pages of `size`, linked like the server does. */
function activityHandler(entries: ActivityEntry[], size = 2) {
  const requests: URL[] = []
  const handler = http.get('/api/activity', ({ request }) => {
    const url = new URL(request.url)
    requests.push(url)
    const start = Number(url.searchParams.get('cursor') ?? 0)
    const page = entries.slice(start, start + size)
    const headers: Record<string, string> = {}
    if (start + size < entries.length) headers.Link = `</api/activity?limit=${size}&cursor=${start + size}>; rel="next"`
    return HttpResponse.json(page, { headers })
  })
  return { handler, requests }
}

describe('ActivityLog', () => {
  it('shows when, who, what and what changed for each admin action, newest first', async () => {
    server.use(
      activityHandler([
        entry({
          action: 'user.make-admin',
          actor: 'ADMIN_EMAILS',
          target: { type: 'user', id: 'ana@example.com', name: 'Ana' },
          changes: [{ field: 'role', from: 'user', to: 'admin' }],
        }),
        entry({
          action: 'wumpus.delete',
          target: { type: 'wumpus', id: 'abcdefabcdefabcdefabcdef', name: 'Gone Wumpus' },
          changes: [
            { field: 'name', from: 'Gone Wumpus' },
            { field: 'description', from: 'Was here' },
          ],
        }),
      ]).handler,
    )
    renderWithProviders(<ActivityLog />, { path: '/dashboard/activity' })
    const table = await screen.findByRole('table', { name: 'Admin activity' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['When', 'Who', 'What', 'Changes'])
    const [promotion, deletion] = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row))
    expect(promotion!.getByText('Made admin')).toBeInTheDocument()
    expect(promotion!.getAllByText('the ADMIN_EMAILS setting')[0]).toBeInTheDocument()
    expect(promotion!.getByRole('link', { name: 'Ana' })).toHaveAttribute('href', '/profile/ana@example.com')
    expect(promotion!.getAllByText('user')[0]!.tagName).toBe('DEL')
    expect(promotion!.getAllByText('admin')[0]!.tagName).toBe('INS')
    // A deleted animation has no page to link to; what it was is shown.
    expect(deletion!.getByText('Deleted')).toBeInTheDocument()
    expect(deletion!.queryByRole('link', { name: 'Gone Wumpus' })).not.toBeInTheDocument()
    expect(deletion!.getAllByText('Was here')[0]).toBeInTheDocument()
    expect(deletion!.getAllByRole('link', { name: 'boss@example.com' })[0]).toHaveAttribute('href', '/profile/boss@example.com')
    for (const time of promotion!.getAllByRole('cell')[0]!.querySelectorAll('time'))
      expect(time).toHaveAttribute('dateTime', '2026-11-22T10:30:00.000Z')
  })

  it('names an admin signing a user out everywhere, with how many sessions ended', async () => {
    server.use(
      activityHandler([
        entry({
          action: 'user.end-sessions',
          target: { type: 'user', id: 'ana@example.com', name: 'Ana' },
          changes: [{ field: 'sessions', from: '2', to: '0' }],
        }),
      ]).handler,
    )
    renderWithProviders(<ActivityLog />, { path: '/dashboard/activity' })
    const table = await screen.findByRole('table', { name: 'Admin activity' })
    const row = within(within(table).getAllByRole('row')[1]!)
    expect(row.getByText('Signed out everywhere')).toBeInTheDocument()
    expect(row.getByRole('link', { name: 'Ana' })).toHaveAttribute('href', '/profile/ana@example.com')
    expect(row.getAllByText('Open sessions')[0]).toBeInTheDocument()
    expect(row.getAllByText('2')[0]!.tagName).toBe('DEL')
    expect(row.getAllByText('0')[0]!.tagName).toBe('INS')
  })

  it("notes when the sessions ended but the user's sign-ins were not revoked", async () => {
    server.use(
      activityHandler([
        entry({
          action: 'user.end-sessions',
          target: { type: 'user', id: 'ana@example.com', name: 'Ana' },
          changes: [
            { field: 'sessions', from: '2', to: '0' },
            { field: 'signIns', to: 'not revoked' },
          ],
        }),
      ]).handler,
    )
    renderWithProviders(<ActivityLog />, { path: '/dashboard/activity' })
    const table = await screen.findByRole('table', { name: 'Admin activity' })
    const row = within(within(table).getAllByRole('row')[1]!)
    expect(row.getByText('Signed out everywhere')).toBeInTheDocument()
    expect(row.getAllByText('Open sessions')[0]).toBeInTheDocument()
    expect(row.getAllByText('Sign-ins')[0]).toBeInTheDocument()
    expect(row.getAllByText('not revoked')[0]!.tagName).toBe('INS')
  })

  it('loads older actions with Load more', async () => {
    const entries = Array.from({ length: 3 }, (_, i) =>
      entry({ target: { type: 'wumpus', id: `0123456789abcdef0123456${i}`, name: `Wumpus ${i}` } }),
    )
    const { handler, requests } = activityHandler(entries)
    server.use(handler)
    const { user } = renderWithProviders(<ActivityLog />, { path: '/dashboard/activity' })
    const table = await screen.findByRole('table', { name: 'Admin activity' })
    expect(within(table).getAllByRole('row')).toHaveLength(3)
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await within(table).findByRole('link', { name: 'Wumpus 2' })).toHaveAttribute('href', '/wumpus/0123456789abcdef01234562')
    expect(requests.at(-1)!.searchParams.get('cursor')).toBe('2')
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('says when there is nothing yet', async () => {
    server.use(http.get('/api/activity', () => HttpResponse.json([])))
    renderWithProviders(<ActivityLog />, { path: '/dashboard/activity' })
    expect(await screen.findByText('No admin actions yet.')).toBeInTheDocument()
  })

  it('keeps the loaded actions and offers Retry when an older page fails', async () => {
    let fail = true
    const entries = [
      entry({ id: 'a' }),
      entry({ id: 'b' }),
      entry({ id: 'c', target: { type: 'wumpus', id: 'c'.repeat(24), name: 'Old Wumpus' } }),
    ]
    const { handler } = activityHandler(entries)
    server.use(
      http.get('/api/activity', ({ request }) =>
        fail && new URL(request.url).searchParams.has('cursor')
          ? HttpResponse.json({ error: { code: 'STORE_UNAVAILABLE', message: 'The store is unavailable' } }, { status: 503 })
          : undefined,
      ),
      handler,
    )
    const { user } = renderWithProviders(<ActivityLog />, { path: '/dashboard/activity' })
    expect(await screen.findAllByText('Dancing Wumpus')).not.toHaveLength(0)
    expect(screen.getByRole('status')).toHaveTextContent('Showing 2')

    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await screen.findByText('Could not load more activity')).toBeInTheDocument()
    expect(screen.getAllByText('Dancing Wumpus').length).toBeGreaterThan(0)
    fail = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect((await screen.findAllByText('Old Wumpus')).length).toBeGreaterThan(0)
    expect(screen.getByRole('status')).toHaveTextContent('Showing 3')
  })

  it('offers Retry on the page when the log cannot load', async () => {
    signInForTest({ email: 'root@example.com' })
    let fail = true
    server.use(
      ...accountHandlers({ admin: true }).handlers,
      http.get('/api/activity', () =>
        fail
          ? HttpResponse.json({ error: { code: 'STORE_UNAVAILABLE', message: 'The store is unavailable' } }, { status: 503 })
          : HttpResponse.json([]),
      ),
    )
    const { user } = renderApp('/dashboard/activity')

    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load this page')
    expect(alert).toHaveTextContent('The store is unavailable')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByText('No admin actions yet.')).toBeInTheDocument()
  })
})

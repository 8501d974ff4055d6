import 'fake-indexeddb/auto'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { Suspense } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as firebase from '../../../lib/firebase'
import type { ApiNotification, NotificationPage } from '../../../../contract/notifications'
import { notificationKeys } from '../api'
import { readKeptNotifications } from '../../../lib/local-data/notifications-store'
import { forgetQueuedWrites, pendingWrites, sendQueuedWrites } from '../../../lib/local-data/outbox'
import { wumpusListHandler } from '../../../test/api-handlers'
import { server } from '../../../test/msw-server'
import { resetOfflineData } from '../../../test/offline-data'
import { renderApp } from '../../../test/render-app'
import { renderWithProviders } from '../../../test/render-with-providers'
import { signInForTest } from '../../../test/session'
import { NotificationBell } from './notification-bell'
import { NotificationsPage } from './notifications-page'

vi.mock('../../../lib/firebase', () => import('../../../test/firebase-fake'))

const ADA = 'ada@example.com'
const SUB = 'a'.repeat(24)
const WUMPUS = 'b'.repeat(24)

const notification = (n: number, overrides: Partial<ApiNotification>): ApiNotification => ({
  id: String(n).padStart(24, '0'),
  kind: 'submission.refused',
  subject: { kind: 'submission', id: SUB, name: 'Wave' },
  note: '',
  read: false,
  createdAt: new Date(Date.UTC(2026, 11, 1, 10, n)).toISOString(),
  ...overrides,
})

let items: ApiNotification[] = []
let online = true
let marked: unknown[] = []
let reads = 0

beforeEach(async () => {
  // A mark-read the last test queued may still be on its way: it must not reach this one's server.
  await sendQueuedWrites(ADA)
  await forgetQueuedWrites()
  await resetOfflineData()
  signInForTest({ email: ADA })
  online = true
  marked = []
  reads = 0
  items = [
    notification(4, {
      kind: 'report.decided',
      subject: { kind: 'wumpus', id: WUMPUS, name: 'Dance' },
      decision: 'dismiss',
      note: 'Plays fine',
    }),
    notification(3, { kind: 'submission.refused', note: 'Not a wumpus' }),
    notification(2, { kind: 'submission.changes', note: 'Loop it smoothly' }),
    notification(1, { kind: 'submission.published', read: true }),
  ]
  server.use(
    http.get('/api/me/notifications', ({ request }) => {
      reads++
      if (!online) return HttpResponse.error()
      expect(new URL(request.url).searchParams.get('limit')).toBe('100')
      const page: NotificationPage = { unread: items.filter((item) => !item.read).length, items }
      return HttpResponse.json(page, { headers: { 'Cache-Control': 'no-store' } })
    }),
    http.post('/api/me/notifications/read', async ({ request }) => {
      if (!online) return HttpResponse.error()
      const body = (await request.json()) as { upTo: string }
      marked.push(body)
      const at = items.findIndex((item) => item.id === body.upTo)
      items = items.map((item, index) => (index >= at ? { ...item, read: true } : item))
      return HttpResponse.json({ marked: 3, unread: items.filter((item) => !item.read).length })
    }),
  )
})

function renderBoth() {
  return renderWithProviders(
    <>
      <NotificationBell email={ADA} />
      <Suspense fallback={<p>Loading</p>}>
        <NotificationsPage email={ADA} />
      </Suspense>
    </>,
  )
}

describe('the notifications bell', () => {
  it('says how many are unread and leads to the Notifications page', async () => {
    renderWithProviders(<NotificationBell email={ADA} />)
    const bell = await screen.findByRole('link', { name: 'Notifications, 3 unread' })
    expect(bell).toHaveAttribute('href', '/dashboard/notifications')
    expect(bell).toHaveTextContent('3')
  })

  it('has no count when all are read', async () => {
    items = items.map((item) => ({ ...item, read: true }))
    const { queryClient } = renderWithProviders(<NotificationBell email={ADA} />)
    await waitFor(() => expect(queryClient.getQueryData(notificationKeys.all(ADA))).toBeDefined())
    expect(reads).toBe(1)
    expect(screen.getByRole('link', { name: 'Notifications' })).toHaveTextContent('')
  })
})

describe('the Notifications page', () => {
  it('lists them newest first, each with its note and a link to what it is about', async () => {
    renderBoth()
    const list = await screen.findByRole('list', { name: 'Notifications' })
    const rows = within(list).getAllByRole('listitem')
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('The report you sent about “Dance” was decided: dismissed'),
      expect.stringContaining('Your submission “Wave” was refused.Reason: Not a wumpus'),
      expect.stringContaining('An admin asked for changes to your submission “Wave”.Note: Loop it smoothly'),
      expect.stringContaining('Your submission “Wave” was published'),
    ])
    expect(within(rows[0]!).getByRole('link', { name: '“Dance”' })).toHaveAttribute('href', `/wumpus/${WUMPUS}`)
    expect(within(rows[1]!).getByRole('link', { name: '“Wave”' })).toHaveAttribute('href', '/dashboard/submissions')
    expect(within(rows[2]!).getByRole('link', { name: '“Wave”' })).toHaveAttribute('href', `/dashboard/submissions/${SUB}`)
    await waitFor(() => expect(marked).toEqual([{ upTo: items[0]!.id }]))
  })

  it('says a reported sticker was restored or deleted, and links only the one still there', async () => {
    const report = { kind: 'report.decided' as const, note: '' }
    items = [
      notification(6, { ...report, subject: { kind: 'wumpus', id: WUMPUS, name: 'Gone' }, decision: 'delete' }),
      notification(5, { ...report, subject: { kind: 'wumpus', id: WUMPUS, name: 'Back' }, decision: 'restore' }),
    ]
    renderBoth()
    const rows = within(await screen.findByRole('list', { name: 'Notifications' })).getAllByRole('listitem')
    expect(rows[0]).toHaveTextContent('The report you sent about “Gone” was decided: it was removed from the gallery.')
    expect(within(rows[0]!).queryByRole('link', { name: '“Gone”' })).toBeNull()
    expect(rows[1]).toHaveTextContent('The report you sent about “Back” was decided: it was looked at and is back in the gallery.')
    expect(within(rows[1]!).getByRole('link', { name: '“Back”' })).toHaveAttribute('href', `/wumpus/${WUMPUS}`)
    await waitFor(() => expect(marked).toEqual([{ upTo: items[0]!.id }]))
  })

  it('marks them read once seen, and the bell loses its count', async () => {
    renderBoth()
    await screen.findByRole('list', { name: 'Notifications' })
    await waitFor(() => expect(screen.getByRole('link', { name: 'Notifications' })).toBeInTheDocument())
    await waitFor(() => expect(marked).toEqual([{ upTo: items[0]!.id }]))
    expect(screen.queryByText(/^New/)).not.toBeInTheDocument()
    // The copy kept on this device says so too.
    await waitFor(async () => expect((await readKeptNotifications(ADA))?.unread).toBe(0))
  })

  it('offline, shows what this device last read and marks them read here, sending that once the server can be reached', async () => {
    const first = renderWithProviders(<NotificationBell email={ADA} />)
    await screen.findByRole('link', { name: 'Notifications, 3 unread' })
    await waitFor(async () => expect((await readKeptNotifications(ADA))?.items).toHaveLength(4))
    first.unmount()
    online = false
    renderBoth()
    expect(await screen.findByText('Offline: these are the notifications this device last read.')).toBeInTheDocument()
    expect(within(screen.getByRole('list', { name: 'Notifications' })).getAllByRole('listitem')).toHaveLength(4)
    // Read here at once, in the copy kept on this device too; the server has not heard of it yet.
    await waitFor(() => expect(screen.getByRole('link', { name: 'Notifications' })).toBeInTheDocument())
    await waitFor(async () => expect((await readKeptNotifications(ADA))?.unread).toBe(0))
    await waitFor(async () => expect(await pendingWrites(ADA)).toHaveLength(1))
    expect(marked).toEqual([])
    expect(items.filter((item) => !item.read)).toHaveLength(3)

    // Back online, the queue is sent (outbox-sync.ts does this on 'online'): the server marks them read.
    online = true
    await sendQueuedWrites(ADA)
    expect(marked).toEqual([{ upTo: items[0]!.id }])
    expect(items.filter((item) => !item.read)).toHaveLength(0)
    expect(await pendingWrites(ADA)).toEqual([])
  })
})

describe('the bell in the header', () => {
  it('is there when signed in, leads to the page that marks them read, and goes with the notifications on sign-out', async () => {
    vi.mocked(firebase.signOutOfFirebase).mockResolvedValue()
    server.use(
      http.delete('/api/session', () => new HttpResponse(null, { status: 204 })),
      http.get('/api/admin/:email', () => HttpResponse.json({ admin: false })),
      wumpusListHandler([]).handler,
    )
    const { user, queryClient } = renderApp('/about')
    const banner = await screen.findByRole('banner')
    await user.click(await within(banner).findByRole('link', { name: 'Notifications, 3 unread' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeInTheDocument()
    expect(await within(banner).findByRole('link', { name: 'Notifications' })).toBeInTheDocument()
    await waitFor(() => expect(marked).toEqual([{ upTo: items[0]!.id }]))
    await user.click(within(banner).getByRole('button', { name: 'SignOut' }))
    expect(await within(banner).findByRole('link', { name: 'Sign In' })).toBeInTheDocument()
    expect(within(banner).queryByRole('link', { name: /^Notifications/ })).not.toBeInTheDocument()
    expect(queryClient.getQueryData(notificationKeys.all(ADA))).toBeUndefined()
  })

  it('is not there when signed out', async () => {
    window.localStorage.clear()
    renderApp('/about')
    const banner = await screen.findByRole('banner')
    expect(await within(banner).findByRole('link', { name: 'Sign In' })).toBeInTheDocument()
    expect(within(banner).queryByRole('link', { name: /^Notifications/ })).not.toBeInTheDocument()
    expect(reads).toBe(0)
  })
})

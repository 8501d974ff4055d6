import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { ReportGroup } from '../../../../contract/reports'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { HiddenNote } from './hidden-note'
import { ReportButton } from './report-button'
import { ReportsPage } from './reports-page'

const WUMPUS = 'a'.repeat(24)

function acceptReports() {
  const sent: unknown[] = []
  server.use(
    http.post('/api/reports', async ({ request }) => {
      sent.push(await request.json())
      return HttpResponse.json({ id: 'r'.repeat(24) }, { status: 201 })
    }),
  )
  return sent
}

describe('Report a problem', () => {
  it('sends the chosen reason and the note about the sticker, and thanks the person', async () => {
    const sent = acceptReports()
    const { user } = renderWithProviders(<ReportButton target={{ wumpusId: WUMPUS }} name="Waving Wumpus" />)
    await user.click(await screen.findByRole('button', { name: 'Report a problem' }))
    const dialog = await screen.findByRole('dialog', { name: 'Report Waving Wumpus' })

    await user.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(await within(dialog).findByText('Choose what is wrong')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('radio', { name: 'Something else (say what in the note)' }))
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(await within(dialog).findByText('Say what is wrong')).toBeInTheDocument()
    expect(sent).toEqual([])

    await user.click(within(dialog).getByRole('radio', { name: 'It does not play or looks broken' }))
    await user.type(within(dialog).getByRole('textbox', { name: /Note/ }), 'Frozen on the first frame')
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(await screen.findByText('Thank you: an admin will look at it')).toBeInTheDocument()
    expect(sent).toEqual([{ wumpusId: WUMPUS, reason: 'broken', note: 'Frozen on the first frame' }])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('says why the server refused it (too many reports from here)', async () => {
    server.use(
      http.post('/api/reports', () =>
        HttpResponse.json(
          { error: { code: 'RATE_LIMITED', message: 'Too many reports from here. Try again in an hour.' } },
          { status: 429 },
        ),
      ),
    )
    const { user } = renderWithProviders(<ReportButton target={{ packId: 'b'.repeat(24) }} name="Cheerful Wumpuses" />)
    await user.click(await screen.findByRole('button', { name: 'Report a problem' }))
    await user.click(await screen.findByRole('radio', { name: 'Spam or advertising' }))
    await user.click(screen.getByRole('button', { name: 'Send report' }))
    expect(await screen.findByText('Too many reports from here. Try again in an hour.')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Report Cheerful Wumpuses' })).toBeInTheDocument()
  })
})

const group = (overrides: Partial<ReportGroup> = {}): ReportGroup => ({
  kind: 'wumpus',
  id: WUMPUS,
  name: 'Waving Wumpus',
  count: 2,
  reports: [
    { id: '1'.repeat(24), reason: 'offensive', note: 'Rude gesture', createdAt: '2026-12-01T10:00:00.000Z', reporter: 'ada@example.com' },
    { id: '2'.repeat(24), reason: 'broken', note: '', createdAt: '2026-12-02T10:00:00.000Z' },
  ],
  ...overrides,
})

describe('Reports (admins)', () => {
  it('lists the reports by sticker or pack with their reasons, and dismisses a sticker’s at once', async () => {
    const decisions: unknown[] = []
    let groups = [group(), group({ kind: 'pack', id: 'b'.repeat(24), name: 'Cheerful Wumpuses', count: 1, reports: [group().reports[1]!] })]
    server.use(
      http.get('/api/reports', () => HttpResponse.json(groups, { headers: { 'X-Total-Count': String(groups.length) } })),
      http.post('/api/reports/decision', async ({ request }) => {
        const body = (await request.json()) as { wumpusId?: string }
        decisions.push(body)
        groups = groups.filter((g) => g.id !== body.wumpusId)
        return HttpResponse.json({ decided: 2 })
      }),
    )
    const { user } = renderWithProviders(<ReportsPage state="open" onStateChange={() => {}} />)
    const sticker = await screen.findByRole('listitem', { name: 'Waving Wumpus' })
    expect(within(sticker).getByRole('link', { name: 'Waving Wumpus' })).toHaveAttribute('href', `/wumpus/${WUMPUS}`)
    expect(sticker).toHaveTextContent('2 reports')
    const reports = within(within(sticker).getByRole('list', { name: 'Reports on Waving Wumpus' })).getAllByRole('listitem')
    expect(reports.map((report) => report.textContent)).toEqual([
      'Offensive or hateful: Rude gesture (ada@example.com, 12/1/2026)',
      'It does not play or looks broken (a visitor, 12/2/2026)',
    ])
    const pack = screen.getByRole('listitem', { name: 'Cheerful Wumpuses' })
    expect(within(pack).getByRole('link', { name: 'Cheerful Wumpuses' })).toHaveAttribute('href', `/packs/${'b'.repeat(24)}`)

    await user.type(within(sticker).getByRole('textbox', { name: /Note/ }), 'It is a wave')
    await user.click(within(sticker).getByRole('button', { name: 'Dismiss the reports' }))
    expect(await screen.findByText('2 reports on Waving Wumpus dismissed')).toBeInTheDocument()
    expect(decisions).toEqual([{ wumpusId: WUMPUS, decision: 'dismiss', note: 'It is a wave' }])
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Waving Wumpus' })).not.toBeInTheDocument())
  })
})

describe('Reports (admins): hide, restore, delete', () => {
  /** The open groups as the server keeps them, and the decisions sent. */
  function reportsServer(initial: ReportGroup[]) {
    const decisions: Array<{ wumpusId?: string; packId?: string; decision: string; note: string }> = []
    let groups = initial
    server.use(
      http.get('/api/reports', () => HttpResponse.json(groups, { headers: { 'X-Total-Count': String(groups.length) } })),
      http.post('/api/reports/decision', async ({ request }) => {
        const body = (await request.json()) as (typeof decisions)[number]
        decisions.push(body)
        if (body.decision === 'hide') groups = groups.map((g) => (g.id === body.wumpusId ? { ...g, hidden: true } : g))
        else groups = groups.filter((g) => g.id !== (body.wumpusId ?? body.packId))
        return HttpResponse.json({ decided: 2 })
      }),
    )
    return decisions
  }

  it('hides a sticker at once; its group stays, marked Hidden, with Restore and Delete instead', async () => {
    const decisions = reportsServer([group()])
    const { user } = renderWithProviders(<ReportsPage state="open" onStateChange={() => {}} />)
    const sticker = await screen.findByRole('listitem', { name: 'Waving Wumpus' })
    expect(within(sticker).queryByText('Hidden')).not.toBeInTheDocument()
    expect(within(sticker).queryByRole('button', { name: 'Restore' })).not.toBeInTheDocument()
    await user.type(within(sticker).getByRole('textbox', { name: /Note/ }), 'Checking the licence')
    await user.click(within(sticker).getByRole('button', { name: 'Hide' }))
    expect(await screen.findByText('Waving Wumpus is hidden: restore or delete it when you have looked into it')).toBeInTheDocument()
    expect(decisions).toEqual([{ wumpusId: WUMPUS, decision: 'hide', note: 'Checking the licence' }])
    expect(await within(sticker).findByText('Hidden')).toBeInTheDocument()
    expect(within(sticker).getByRole('button', { name: 'Restore' })).toBeInTheDocument()
    expect(within(sticker).getByRole('button', { name: 'Delete' })).toBeInTheDocument()
    expect(within(sticker).queryByRole('button', { name: 'Hide' })).not.toBeInTheDocument()
    expect(within(sticker).queryByRole('button', { name: 'Dismiss the reports' })).not.toBeInTheDocument()
  })

  it('restores a hidden sticker, and the group leaves the open list', async () => {
    const decisions = reportsServer([group({ hidden: true })])
    const { user } = renderWithProviders(<ReportsPage state="open" onStateChange={() => {}} />)
    const sticker = await screen.findByRole('listitem', { name: 'Waving Wumpus' })
    expect(within(sticker).getByText('Hidden')).toBeInTheDocument()
    await user.click(within(sticker).getByRole('button', { name: 'Restore' }))
    expect(await screen.findByText('Waving Wumpus is back in the gallery; 2 reports closed')).toBeInTheDocument()
    expect(decisions).toEqual([{ wumpusId: WUMPUS, decision: 'restore', note: '' }])
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Waving Wumpus' })).not.toBeInTheDocument())
  })

  it('deletes a sticker only once confirmed', async () => {
    const decisions = reportsServer([group({ hidden: true })])
    const { user } = renderWithProviders(<ReportsPage state="open" onStateChange={() => {}} />)
    const sticker = await screen.findByRole('listitem', { name: 'Waving Wumpus' })
    await user.click(within(sticker).getByRole('button', { name: 'Delete' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete Waving Wumpus?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(decisions).toEqual([])
    await user.click(within(sticker).getByRole('button', { name: 'Delete' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Waving Wumpus?' })).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Waving Wumpus is deleted; 2 reports closed')).toBeInTheDocument()
    expect(decisions).toEqual([{ wumpusId: WUMPUS, decision: 'delete', note: '' }])
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Waving Wumpus' })).not.toBeInTheDocument())
  })

  it('offers a pack and a sticker that is gone only Dismiss, and says why the server refused a decision', async () => {
    reportsServer([
      group({ kind: 'pack', id: 'b'.repeat(24), name: 'Cheerful Wumpuses' }),
      group({ id: 'c'.repeat(24), name: '' }),
      group({ id: 'd'.repeat(24), name: 'Already Hidden Elsewhere' }),
    ])
    server.use(
      http.post('/api/reports/decision', () =>
        HttpResponse.json({ error: { code: 'CONFLICT', message: 'It is hidden already' } }, { status: 409 }),
      ),
    )
    const { user } = renderWithProviders(<ReportsPage state="open" onStateChange={() => {}} />)
    for (const name of ['Cheerful Wumpuses', 'A deleted sticker']) {
      const item = await screen.findByRole('listitem', { name })
      expect(within(item).getByRole('button', { name: 'Dismiss the reports' })).toBeInTheDocument()
      for (const action of ['Hide', 'Restore', 'Delete'])
        expect(within(item).queryByRole('button', { name: action })).not.toBeInTheDocument()
    }
    const sticker = screen.getByRole('listitem', { name: 'Already Hidden Elsewhere' })
    await user.click(within(sticker).getByRole('button', { name: 'Hide' }))
    expect(await screen.findByText('It is hidden already')).toBeInTheDocument()
    expect(screen.getByText('Could not hide it')).toBeInTheDocument()
  })

  it('reads each decided report’s decision', async () => {
    const decided = group({
      reports: [
        {
          ...group().reports[0]!,
          decision: 'restore',
          decisionNote: 'Fine after all',
          decidedBy: 'ad@example.com',
          decidedAt: '2026-12-03T10:00:00.000Z',
        },
      ],
      count: 1,
    })
    server.use(http.get('/api/reports', () => HttpResponse.json([decided], { headers: { 'X-Total-Count': '1' } })))
    renderWithProviders(<ReportsPage state="decided" onStateChange={() => {}} />)
    const sticker = await screen.findByRole('listitem', { name: 'Waving Wumpus' })
    expect(within(sticker).getByRole('list', { name: 'Reports on Waving Wumpus' })).toHaveTextContent(
      'Offensive or hateful: Rude gesture (ada@example.com, 12/1/2026; restored: Fine after all)',
    )
    expect(within(sticker).queryByRole('button')).not.toBeInTheDocument()
  })
})

describe('A hidden sticker’s page (admins)', () => {
  it('says it is hidden, by whom, and where to decide', async () => {
    renderWithProviders(<HiddenNote wumpus={{ hidden: { at: '2026-12-03T10:00:00.000Z', by: 'ad@example.com' } }} />)
    const note = await screen.findByRole('status')
    expect(note).toHaveTextContent('Hidden by ad@example.com on 12/3/2026 after reports')
    expect(within(note).getByRole('link', { name: 'Dashboard → Reports' })).toHaveAttribute('href', '/dashboard/reports')
  })

  it('shows nothing for a sticker that is not hidden', async () => {
    renderWithProviders(
      <>
        <HiddenNote wumpus={{}} />
        <p>Page</p>
      </>,
    )
    expect(await screen.findByText('Page')).toBeInTheDocument()
    expect(screen.queryByText(/Hidden/)).not.toBeInTheDocument()
  })
})

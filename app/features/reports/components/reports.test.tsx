import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { ReportGroup } from '../../../../contract/reports'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
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

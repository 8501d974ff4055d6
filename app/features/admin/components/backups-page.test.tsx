import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { ApiBackup } from '../../../../contract/backups'
import { apiError } from '../../../test/admin-handlers'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { BackupsPage } from './backups-page'

const backup = (name: string, takenAt: string): ApiBackup => ({
  name,
  takenAt,
  schemaVersion: 9,
  databaseBytes: 2_500_000,
  files: 120,
  fileBytes: 48_000_000,
  linkedFiles: 100,
})

describe('BackupsPage', () => {
  it('lists the backups and makes one now, which then shows first', async () => {
    const older = backup('backup-2026-12-01T03-00-00-000Z', '2026-12-01T03:00:00.000Z')
    const made = backup('backup-2026-12-02T10-30-00-000Z', '2026-12-02T10:30:00.000Z')
    let backups = [older]
    server.use(
      http.get('/api/backups', () => HttpResponse.json({ backups })),
      http.post('/api/backups', () => {
        backups = [made, ...backups]
        return HttpResponse.json(made, { status: 201 })
      }),
    )
    const { user } = renderWithProviders(<BackupsPage />, { path: '/dashboard/backups' })
    const table = await screen.findByRole('table', { name: 'Backups' })
    expect(within(table).getAllByRole('row')).toHaveLength(2)
    expect(within(table).getByText('2.5 MB')).toBeInTheDocument()
    expect(within(table).getByText('120 (48.0 MB)')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Back up now' }))
    expect(await screen.findByText(/^Backed up 120 files as of /)).toBeInTheDocument()
    await screen.findByText(made.name)
    const rows = within(screen.getByRole('table', { name: 'Backups' })).getAllByRole('row')
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Taken'),
      expect.stringContaining(made.name),
      expect.stringContaining(older.name),
    ])
  })

  it("says why a server makes no backups, with the server's words, and offers no button", async () => {
    server.use(
      http.get('/api/backups', () =>
        apiError(409, 'CONFLICT', 'Backups are not set up on this server: set BACKUP_DIR', { reason: 'no-backup-dir' }),
      ),
    )
    renderWithProviders(<BackupsPage />, { path: '/dashboard/backups' })
    expect(await screen.findByText('Backups are not set up on this server: set BACKUP_DIR')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Back up now' })).not.toBeInTheDocument()
  })

  it('tells when a backup could not be made', async () => {
    server.use(
      http.get('/api/backups', () => HttpResponse.json({ backups: [] })),
      http.post('/api/backups', () => apiError(503, 'STORE_UNAVAILABLE', 'The backup could not be written into /backups (ENOSPC)')),
    )
    const { user } = renderWithProviders(<BackupsPage />, { path: '/dashboard/backups' })
    expect(await screen.findByText('No backups yet.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Back up now' }))
    expect(await screen.findByText('No backup was made')).toBeInTheDocument()
    expect(screen.getByText('The backup could not be written into /backups (ENOSPC)')).toBeInTheDocument()
  })
})

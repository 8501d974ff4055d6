import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { PERSONAL_PACKS_MAX } from '../../../../contract/limits'
import type { Pack } from '../../../../contract/pack'
import { makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { MyPacks } from './my-packs'

const makePack = (n: number, overrides: Partial<Pack> = {}): Pack => ({
  id: String(n).padStart(24, '0'),
  name: `Pack ${n}`,
  visibility: 'private',
  description: '',
  coverWumpusId: makeWumpus(n)._id,
  wumpusIds: [makeWumpus(n)._id],
  cover: makeWumpus(n),
  createdBy: 'ada@example.com',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  ...overrides,
})

function myPacks(packs: Pack[], total = packs.length) {
  server.use(http.get('/api/me/packs', () => HttpResponse.json(packs, { headers: { 'X-Total-Count': String(total) } })))
}

describe('My packs', () => {
  it('lists one’s packs with cover, name, count and who can open each, and offers New pack', async () => {
    myPacks([
      makePack(1, { name: 'Night pack', visibility: 'link', wumpusIds: ['a', 'b', 'c'].map((c) => c.repeat(24)) }),
      makePack(2, { name: 'Work pack' }),
    ])
    renderWithProviders(<MyPacks emailVerified />, { path: '/dashboard/my-packs' })

    const list = await screen.findByRole('list', { name: 'My packs' })
    const night = within(list).getByRole('listitem', { name: 'Night pack' })
    expect(night).toHaveTextContent('3 stickers')
    expect(night).toHaveTextContent('Shared by link')
    expect(within(night).getByRole('img')).toBeInTheDocument()
    expect(within(night).getByRole('link', { name: 'Open pack: Night pack' })).toHaveAttribute('href', `/packs/${makePack(1).id}`)
    expect(within(night).getByRole('link', { name: 'Edit Night pack' })).toHaveAttribute('href', `/dashboard/my-packs/${makePack(1).id}`)
    const work = within(list).getByRole('listitem', { name: 'Work pack' })
    expect(work).toHaveTextContent('1 sticker')
    expect(work).toHaveTextContent('Private')
    expect(screen.getByRole('link', { name: 'New pack' })).toHaveAttribute('href', '/dashboard/my-packs/new')
  })

  it('says how to make the first pack when there is none', async () => {
    myPacks([])
    renderWithProviders(<MyPacks emailVerified />, { path: '/dashboard/my-packs' })
    expect(await screen.findByText(/No packs yet\. Make one from any stickers in the gallery/)).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'My packs' })).not.toBeInTheDocument()
  })

  it('says that making packs needs a verified email, and offers no New pack until then', async () => {
    myPacks([])
    renderWithProviders(<MyPacks emailVerified={false} />, { path: '/dashboard/my-packs' })
    expect(await screen.findByText('Verify your email address first')).toBeInTheDocument()
    expect(screen.getByText(/Making packs needs a verified email address/)).toBeInTheDocument()
    // The waiting page comes back here once the email is verified.
    expect(screen.getByRole('link', { name: 'Verify it or send the email again' })).toHaveAttribute(
      'href',
      '/emailVerification?from=%2Fdashboard%2Fmy-packs',
    )
    expect(screen.getByRole('button', { name: 'New pack' })).toBeDisabled()
  })

  it(`says so at the cap of ${PERSONAL_PACKS_MAX} packs`, async () => {
    myPacks([makePack(1)], PERSONAL_PACKS_MAX)
    renderWithProviders(<MyPacks emailVerified />, { path: '/dashboard/my-packs' })
    expect(await screen.findByText(`You have ${PERSONAL_PACKS_MAX} packs`)).toBeInTheDocument()
    expect(screen.getByText('That is the most one account keeps. Delete a pack to make a new one.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'New pack' })).toBeDisabled()
  })
})

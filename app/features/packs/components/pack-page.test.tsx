import { screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import type { PackDetail } from '../../../../contract/pack'
import { makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { signInForTest } from '../../../test/session'

const ID = 'd'.repeat(24)
const sticker = makeWumpus(1, { name: 'Waving Wumpus' })
const pack = (overrides: Partial<PackDetail>): PackDetail => ({
  id: ID,
  name: 'Night pack',
  description: 'Sleepy ones',
  coverWumpusId: sticker._id,
  wumpusIds: [sticker._id],
  cover: sticker,
  visibility: 'link',
  createdBy: null,
  createdAt: '',
  updatedAt: '',
  items: [sticker],
  downloads: [],
  ...overrides,
})
const answer = (body: PackDetail | null) =>
  server.use(
    http.get(`/api/packs/${ID}`, () =>
      body ? HttpResponse.json(body) : HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No such pack' } }, { status: 404 }),
    ),
  )

afterEach(() => localStorage.clear())

describe('a personal pack’s page', () => {
  it('gives its owner Edit and says who can open it', async () => {
    signInForTest({ email: 'ada@example.com' })
    server.use(
      http.get('/api/me/favourite-ids', () => HttpResponse.json([])),
      // Its owner's Telegram button asks whether Telegram is on (pack-telegram-own.test.tsx).
      http.get('/api/config', () =>
        HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' }, telegram: false }),
      ),
    )
    answer(pack({ createdBy: 'ada@example.com', visibility: 'private' }))
    renderApp(`/packs/${ID}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Night pack' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/dashboard/my-packs/${ID}`)
    expect(screen.getByText('Private')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: '← My packs' })).toBeInTheDocument()
  })

  it('opens a pack shared by link for anyone, without Edit', async () => {
    answer(pack({}))
    renderApp(`/packs/${ID}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Night pack' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'Waving Wumpus' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument()
    expect(screen.queryByText('Shared by link')).not.toBeInTheDocument()
  })

  it('is a clear not-found for a private pack opened by someone else', async () => {
    answer(null)
    renderApp(`/packs/${ID}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Pack not found' })).toBeInTheDocument()
    expect(screen.getByText('There is no pack with this id, or it is private to its owner. It may have been deleted.')).toBeInTheDocument()
  })
})

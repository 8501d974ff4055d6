import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import type { PackDetail } from '../../../../contract/pack'
import { makeWumpus, withPreview } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { signInForTest } from '../../../test/session'

const ID = 'e'.repeat(24)
const URL = `https://t.me/addstickers/Night_pack_${ID}_by_WumpusGalleryBot`
const sticker = makeWumpus(1, { name: 'Waving Wumpus' })
const pack = (overrides: Partial<PackDetail> = {}): PackDetail => ({
  id: ID,
  name: 'Night pack',
  description: '',
  coverWumpusId: sticker._id,
  wumpusIds: [sticker._id],
  cover: sticker,
  visibility: 'public',
  createdBy: 'admin@example.com',
  createdAt: '',
  updatedAt: '',
  items: [sticker],
  downloads: [],
  ...overrides,
})
let configAsked = 0
const config = (telegram: boolean) =>
  http.get('/api/config', () => {
    configAsked++
    return HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' }, telegram })
  })

function signInAsAdmin(admin: boolean) {
  signInForTest({ email: 'admin@example.com' })
  server.use(
    http.get('/api/me/favourite-ids', () => HttpResponse.json([])),
    http.get('/api/admin/:email', () => HttpResponse.json({ admin })),
  )
}

afterEach(() => localStorage.clear())

describe('a public pack’s Telegram set', () => {
  it('opens in Telegram with “Add to Telegram” once it is ready, for anyone', async () => {
    server.use(http.get(`/api/packs/${ID}`, () => HttpResponse.json(pack({ telegram: { state: 'ready', url: URL } }))))
    renderApp(`/packs/${ID}`)
    expect(await screen.findByRole('link', { name: 'Add to Telegram' })).toHaveAttribute('href', URL)
    expect(screen.queryByRole('button', { name: /Telegram set/ })).not.toBeInTheDocument()
  })

  it('opens the custom emoji set with “Add emoji to Telegram” beside it once that exists, following the pack until then', async () => {
    const EMOJI_URL = `https://t.me/addemoji/Night_pack_${ID}_e_by_WumpusGalleryBot`
    let emoji: NonNullable<PackDetail['telegram']>['emoji'] = { state: 'making' }
    // Every preview made: only the emoji set keeps the page asking.
    const ready = (telegram: PackDetail['telegram']) => pack({ items: [withPreview(sticker)], telegram })
    server.use(http.get(`/api/packs/${ID}`, () => HttpResponse.json(ready({ state: 'ready', url: URL, emoji }))))
    renderApp(`/packs/${ID}`)
    expect(await screen.findByRole('link', { name: 'Add to Telegram' })).toHaveAttribute('href', URL)
    expect(screen.queryByRole('link', { name: 'Add emoji to Telegram' })).not.toBeInTheDocument()

    // Made meanwhile: the page, asking again while the emoji set is being made, shows it.
    emoji = { state: 'ready', url: EMOJI_URL }
    await waitFor(() => expect(screen.getByRole('link', { name: 'Add emoji to Telegram' })).toHaveAttribute('href', EMOJI_URL), {
      timeout: 8000,
    })
    expect(screen.getByRole('link', { name: 'Add to Telegram' })).toHaveAttribute('href', URL)
  }, 20_000)

  it('lets an admin make it, then says it is being made', async () => {
    signInAsAdmin(true)
    let asked = 0
    let made = false
    server.use(
      config(true),
      http.get(`/api/packs/${ID}`, () => HttpResponse.json(pack(made ? { telegram: { state: 'making' } } : {}))),
      http.post(`/api/packs/${ID}/telegram`, () => {
        asked++
        made = true
        return HttpResponse.json({ state: 'making' }, { status: 202 })
      }),
    )
    renderApp(`/packs/${ID}`)
    await userEvent.click(await screen.findByRole('button', { name: 'Make Telegram set' }))
    expect(await screen.findByText('The Telegram set is being made…')).toBeInTheDocument()
    expect(asked).toBe(1)
    expect(screen.getByRole('button', { name: 'Update Telegram set' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Add to Telegram' })).not.toBeInTheDocument()
  })

  it('shows an admin why it failed', async () => {
    signInAsAdmin(true)
    server.use(
      http.get(`/api/packs/${ID}`, () =>
        HttpResponse.json(pack({ telegram: { state: 'failed', reason: 'None of this pack’s stickers has a Telegram file' } })),
      ),
    )
    renderApp(`/packs/${ID}`)
    expect(await screen.findByRole('status')).toHaveTextContent(
      'The Telegram set could not be made. None of this pack’s stickers has a Telegram file',
    )
  })

  it('shows an admin why the emoji set failed, the sticker set still opening', async () => {
    signInAsAdmin(true)
    server.use(
      config(true),
      http.get(`/api/packs/${ID}`, () =>
        HttpResponse.json(
          pack({ telegram: { state: 'ready', url: URL, emoji: { state: 'failed', reason: 'Telegram refused a sticker’s file' } } }),
        ),
      ),
    )
    renderApp(`/packs/${ID}`)
    expect(await screen.findByText('The Telegram emoji set could not be made. Telegram refused a sticker’s file')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Add to Telegram' })).toHaveAttribute('href', URL)
    expect(screen.queryByRole('link', { name: 'Add emoji to Telegram' })).not.toBeInTheDocument()
  })

  it('is absent, for admins too, when the server has Telegram off', async () => {
    signInAsAdmin(true)
    configAsked = 0
    server.use(
      config(false),
      http.get(`/api/packs/${ID}`, () => HttpResponse.json(pack())),
    )
    renderApp(`/packs/${ID}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Night pack' })).toBeInTheDocument()
    await waitFor(() => expect(configAsked).toBeGreaterThan(0))
    expect(screen.queryByRole('heading', { name: 'Telegram' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Telegram/ })).not.toBeInTheDocument()
  })
})

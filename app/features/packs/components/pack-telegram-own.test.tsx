import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import type { PackDetail, PackTelegram } from '../../../../contract/pack'
import { makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { signInForTest } from '../../../test/session'

const ID = 'f'.repeat(24)
const OWNER = 'maker@example.com'
const SET_URL = `https://t.me/addstickers/My_pack_${ID}_by_WumpusGalleryBot`
const EMOJI_URL = `https://t.me/addemoji/My_pack_${ID}_e_by_WumpusGalleryBot`
const START_URL = 'https://t.me/WumpusGalleryBot?start=abcDEF123_-xyz'
const sticker = makeWumpus(1, { name: 'Waving Wumpus' })
const pack = (telegram?: PackTelegram): PackDetail => ({
  id: ID,
  name: 'My pack',
  description: '',
  coverWumpusId: sticker._id,
  wumpusIds: [sticker._id],
  cover: sticker,
  visibility: 'link',
  createdBy: OWNER,
  createdAt: '',
  updatedAt: '',
  items: [sticker],
  downloads: [],
  ...(telegram ? { telegram } : {}),
})
const config = (telegram: boolean) =>
  http.get('/api/config', () => HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' }, telegram }))

function signInAs(email: string) {
  signInForTest({ email })
  server.use(
    http.get('/api/me/favourite-ids', () => HttpResponse.json([])),
    http.get('/api/admin/:email', () => HttpResponse.json({ admin: false })),
  )
}

afterEach(() => localStorage.clear())

describe('a personal pack’s Telegram set, for its owner', () => {
  it('shows the bot’s start link until Telegram is linked, follows the pack until the set is made, then opens it', async () => {
    signInAs(OWNER)
    let state: 'none' | 'making' | 'ready' = 'none'
    let asked = 0
    server.use(
      config(true),
      http.get(`/api/packs/${ID}`, () =>
        HttpResponse.json(
          pack(state === 'none' ? undefined : state === 'making' ? { state } : { state, url: SET_URL, emoji: { state, url: EMOJI_URL } }),
        ),
      ),
      http.post(`/api/packs/${ID}/telegram`, () => {
        asked++
        return HttpResponse.json(
          {
            error: {
              code: 'CONFLICT',
              message: 'Link your Telegram account first: open the bot in Telegram and press Start',
              details: { reason: 'telegram-not-linked', startUrl: START_URL },
            },
          },
          { status: 409 },
        )
      }),
    )
    renderApp(`/packs/${ID}`)
    await userEvent.click(await screen.findByRole('button', { name: 'Add to Telegram' }))
    expect(await screen.findByRole('link', { name: 'Open the bot in Telegram' })).toHaveAttribute('href', START_URL)
    expect(screen.getByRole('status')).toHaveTextContent('Open the bot in Telegram, press Start, then come back.')
    expect(screen.queryByRole('button', { name: 'Add to Telegram' })).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(asked).toBe(1)

    // The person pressed Start in Telegram: the server links them and makes the set; the page follows.
    state = 'making'
    expect(await screen.findByText('Your Telegram set is being made…', {}, { timeout: 8000 })).toBeInTheDocument()
    state = 'ready'
    await waitFor(() => expect(screen.getByRole('link', { name: 'Add to Telegram' })).toHaveAttribute('href', SET_URL), { timeout: 8000 })
    expect(screen.queryByRole('link', { name: 'Open the bot in Telegram' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Add emoji to Telegram' })).toHaveAttribute('href', EMOJI_URL)
  }, 20_000)

  it('asks straight for the set once linked, and shows why it failed with Try again', async () => {
    signInAs(OWNER)
    let made = false
    server.use(
      config(true),
      http.get(`/api/packs/${ID}`, () =>
        HttpResponse.json(pack(made ? { state: 'failed', reason: 'Telegram refused a sticker’s file' } : undefined)),
      ),
      http.post(`/api/packs/${ID}/telegram`, () => {
        made = true
        return HttpResponse.json({ state: 'failed', reason: 'Telegram refused a sticker’s file' }, { status: 202 })
      }),
    )
    renderApp(`/packs/${ID}`)
    await userEvent.click(await screen.findByRole('button', { name: 'Add to Telegram' }))
    expect(await screen.findByText('Your Telegram set could not be made. Telegram refused a sticker’s file')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('shows nothing when Telegram is off, or to anyone but the owner', async () => {
    signInAs(OWNER)
    server.use(
      config(false),
      http.get(`/api/packs/${ID}`, () => HttpResponse.json(pack())),
    )
    const { unmount } = renderApp(`/packs/${ID}`)
    await screen.findByRole('heading', { level: 1, name: 'My pack' })
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Telegram' })).not.toBeInTheDocument())
    expect(screen.queryByRole('button', { name: 'Add to Telegram' })).not.toBeInTheDocument()
    unmount()

    localStorage.clear()
    signInAs('someone@example.com')
    server.use(
      config(true),
      http.get(`/api/packs/${ID}`, () => HttpResponse.json({ ...pack(), createdBy: null })),
    )
    renderApp(`/packs/${ID}`)
    await screen.findByRole('heading', { level: 1, name: 'My pack' })
    expect(screen.queryByRole('button', { name: 'Add to Telegram' })).not.toBeInTheDocument()
  })
})

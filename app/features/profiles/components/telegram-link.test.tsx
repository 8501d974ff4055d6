import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { TelegramLink } from './telegram-link'

const config = (telegram: boolean) =>
  http.get('/api/config', () => HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' }, telegram }))

describe('TelegramLink (my profile)', () => {
  it('says Telegram is linked and unlinks after asking', async () => {
    let linked = true
    let deletes = 0
    server.use(
      config(true),
      http.get('/api/me/telegram', () => HttpResponse.json(linked ? { linked, linkedAt: '2026-12-03T12:00:00.000Z' } : { linked })),
      http.delete('/api/me/telegram', () => {
        deletes++
        linked = false
        return HttpResponse.json({ unlinked: true })
      }),
    )
    const { user } = renderWithProviders(<TelegramLink />)
    expect(await screen.findByText('Telegram: linked')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Unlink' }))
    const dialog = await screen.findByRole('dialog', { name: 'Unlink Telegram?' })
    expect(dialog).toHaveTextContent('stay in your Telegram')
    expect(deletes).toBe(0)
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }))
    expect(await screen.findByText(/^Not linked\./)).toBeInTheDocument()
    expect(deletes).toBe(1)
    expect(screen.queryByText('Telegram: linked')).not.toBeInTheDocument()
  })

  it('shows nothing when the server has Telegram off', async () => {
    let configAsked = 0
    let asked = 0
    server.use(
      http.get('/api/config', () => {
        configAsked++
        return HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' }, telegram: false })
      }),
      http.get('/api/me/telegram', () => {
        asked++
        return HttpResponse.json({ linked: true })
      }),
    )
    renderWithProviders(<TelegramLink />)
    await waitFor(() => expect(configAsked).toBe(1))
    expect(asked).toBe(0)
    expect(screen.queryByRole('heading', { name: 'Telegram' })).not.toBeInTheDocument()
    expect(screen.queryByText('Telegram: linked')).not.toBeInTheDocument()
  })
})

import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { wumpusListHandler } from '../test/api-handlers'
import { makeWumpuses } from '../test/fixtures'
import { server } from '../test/msw-server'
import { renderApp } from '../test/render-app'

/** Chromium's beforeinstallprompt, with the user's answer given in advance. */
function installOffer(outcome: 'accepted' | 'dismissed') {
  const event = new Event('beforeinstallprompt', { cancelable: true })
  const prompt = vi.fn(async () => {})
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome, platform: 'web' }) })
  return { event, prompt }
}

describe('Install app button', () => {
  it('appears only once the browser offers installation, and shows the browser dialog once', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 1)).handler)
    const { user } = renderApp('/')
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByRole('button', { name: 'Install app' })).not.toBeInTheDocument()

    const { event, prompt } = installOffer('accepted')
    act(() => void window.dispatchEvent(event))
    expect(event.defaultPrevented).toBe(true)

    await user.click(await screen.findByRole('button', { name: 'Install app' }))
    expect(prompt).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Install app' })).not.toBeInTheDocument())
  })

  it('goes away when the app gets installed another way', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 1)).handler)
    renderApp('/')
    act(() => void window.dispatchEvent(installOffer('dismissed').event))
    expect(await screen.findByRole('button', { name: 'Install app' })).toBeInTheDocument()
    act(() => void window.dispatchEvent(new Event('appinstalled')))
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Install app' })).not.toBeInTheDocument())
  })
})

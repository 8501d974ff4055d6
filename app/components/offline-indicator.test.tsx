import { act, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { wumpusListHandler } from '../test/api-handlers'
import { makeWumpuses } from '../test/fixtures'
import { server } from '../test/msw-server'
import { renderApp } from '../test/render-app'
import { goOffline } from '../test/offline-data'

describe('offline indicator', () => {
  it('appears on the offline event and goes on the online event', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 1)).handler)
    renderApp('/')
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByText('Offline')).not.toBeInTheDocument()

    act(() => goOffline())
    // The strip's code loads when it is first needed.
    const status = (await screen.findByText('Offline')).closest('[role="status"]')
    expect(status).toHaveTextContent('Offline')
    expect(status).toHaveTextContent('Actions that need the network are off.')

    act(() => goOffline(false))
    expect(screen.queryByText('Offline')).not.toBeInTheDocument()
  })

  it('shows at once when the page loads offline', async () => {
    goOffline()
    server.use(wumpusListHandler(makeWumpuses(1, 1)).handler)
    renderApp('/')
    expect(await screen.findByText('Offline')).toBeInTheDocument()
  })
})

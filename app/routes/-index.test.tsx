import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { wumpusListHandler } from '../test/api-handlers'
import { makeWumpuses } from '../test/fixtures'
import { server } from '../test/msw-server'
import { renderApp } from '../test/render-app'
import { signInForTest } from '../test/session'

describe('home page', () => {
  it('does not ask signed-in users whether they know what a wumpus is', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 2)).handler)
    signInForTest()
    renderApp('/')
    expect(await screen.findByRole('heading', { level: 1, name: '2 wumpus animation in 3 format' })).toBeInTheDocument()
    expect(screen.queryByText(/Don't know what is wumpus\?/)).not.toBeInTheDocument()
  })

  it('asks signed-out visitors', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 2)).handler)
    renderApp('/')
    expect(await screen.findByText(/Don't know what is wumpus\?/)).toBeInTheDocument()
  })
})

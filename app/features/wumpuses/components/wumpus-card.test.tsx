import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeWumpus } from '../../../test/fixtures'
import { renderWithRouter } from '../../../test/render-with-router'
import { WumpusCard } from './wumpus-card'

describe('WumpusCard', () => {
  const wumpus = makeWumpus(7, {
    name: 'Waving Wumpus',
    description: 'Says hello with both paws',
    u_name: 'Ada',
    u_email: 'ada@example.com',
  })

  it('shows the GIF, name, description, author link and Download link', async () => {
    renderWithRouter(<WumpusCard wumpus={wumpus} />)

    const image = await screen.findByRole('img', { name: 'Waving Wumpus, animated' })
    expect(image).toHaveAttribute('src', wumpus.gif)
    expect(image).toHaveAttribute('width', '300')
    expect(image).toHaveAttribute('height', '300')
    expect(image).toHaveAttribute('loading', 'lazy')
    expect(screen.getByRole('heading', { name: 'Waving Wumpus' })).toBeInTheDocument()
    expect(screen.getByText('Says hello with both paws')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'by Ada' })).toHaveAttribute('href', '/profile/ada@example.com')
    const download = screen.getByRole('link', { name: 'Download Waving Wumpus' })
    expect(download).toHaveAttribute('href', `/wumpus/${wumpus._id}`)
    expect(download).toHaveTextContent('Download')
  })

  it('loads the image at once when eager', async () => {
    renderWithRouter(<WumpusCard wumpus={wumpus} eager />)
    expect(await screen.findByRole('img')).toHaveAttribute('loading', 'eager')
  })
})

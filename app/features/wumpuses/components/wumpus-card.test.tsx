import { act, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { IntersectionObserverStub } from '../../../test/intersection-observer-stub'
import { makeWumpus, withPreview } from '../../../test/fixtures'
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

  it('offers the WebP previews first in a <picture>, the GIF as the sized fallback <img>', async () => {
    const previewed = withPreview(wumpus)
    renderWithRouter(<WumpusCard wumpus={previewed} />)
    const image = await screen.findByRole('img', { name: 'Waving Wumpus, animated' })
    const picture = image.parentElement!
    expect(picture.tagName).toBe('PICTURE')
    const sources = [...picture.querySelectorAll('source')]
    expect(sources.map((s) => [s.getAttribute('type'), s.getAttribute('media')])).toEqual([
      ['image/webp', '(prefers-reduced-motion: reduce)'],
      ['image/webp', null],
    ])
    expect(sources[0]).toHaveAttribute('srcset', `${previewed.preview!.still} 2x`)
    // The still until the card is half on screen, then the animation at 1x and 2x.
    expect(sources[1]).toHaveAttribute('srcset', `${previewed.preview!.still} 2x`)
    act(() => IntersectionObserverStub.intersectAll())
    expect(sources[1]).toHaveAttribute('srcset', `${previewed.preview!.webp} 1x, ${previewed.preview!.webp2x} 2x`)
    expect(picture.lastElementChild).toBe(image)
    expect(image).toHaveAttribute('src', previewed.gif)
    expect(image).toHaveAttribute('width', '300')
    expect(image).toHaveAttribute('height', '300')
  })

  it('shows the GIF alone until the server has made the previews', async () => {
    renderWithRouter(<WumpusCard wumpus={wumpus} />)
    const image = await screen.findByRole('img', { name: 'Waving Wumpus, animated' })
    expect(image.parentElement!.querySelectorAll('source')).toHaveLength(0)
    expect(IntersectionObserverStub.instances.size).toBe(0)
  })
})

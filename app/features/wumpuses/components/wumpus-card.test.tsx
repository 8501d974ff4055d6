import { act, fireEvent, screen } from '@testing-library/react'
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

    const image = await screen.findByRole('img', { name: 'Waving Wumpus: Says hello with both paws' })
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
    const image = await screen.findByRole('img', { name: 'Waving Wumpus: Says hello with both paws' })
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
    const image = await screen.findByRole('img', { name: 'Waving Wumpus: Says hello with both paws' })
    expect(image.parentElement!.querySelectorAll('source')).toHaveLength(0)
    expect(IntersectionObserverStub.instances.size).toBe(0)
  })
  it('animates for people who ask for reduced motion only while pointed at or focused', async () => {
    const previewed = withPreview(wumpus)
    renderWithRouter(<WumpusCard wumpus={previewed} />)
    const image = await screen.findByRole('img', { name: 'Waving Wumpus: Says hello with both paws' })
    const card = screen.getByRole('listitem', { name: 'Waving Wumpus' })
    const reducedMotionSource = () => image.parentElement!.querySelector('source[media="(prefers-reduced-motion: reduce)"]')
    const moving = `${previewed.preview!.webp} 1x, ${previewed.preview!.webp2x} 2x`
    expect(reducedMotionSource()).toHaveAttribute('srcset', `${previewed.preview!.still} 2x`)

    fireEvent.pointerEnter(card)
    expect(reducedMotionSource()).toBeNull()
    expect(image.parentElement!.querySelector('source')).toHaveAttribute('srcset', moving)
    fireEvent.pointerLeave(card)
    expect(reducedMotionSource()).not.toBeNull()

    act(() => screen.getByRole('link', { name: 'Download Waving Wumpus' }).focus())
    expect(reducedMotionSource()).toBeNull()
    // Focus moving within the card keeps it playing; leaving the card stops it.
    act(() => screen.getByRole('link', { name: 'by Ada' }).focus())
    expect(reducedMotionSource()).toBeNull()
    act(() => (document.activeElement as HTMLElement).blur())
    expect(reducedMotionSource()).not.toBeNull()
  })
})

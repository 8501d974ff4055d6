import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { pageRendered } from '../../lib/after-interactive'
import { IntersectionObserverStub } from '../../test/intersection-observer-stub'
import { makeWumpus, withPreview } from '../../test/fixtures'
import { renderWithProviders } from '../../test/render-with-providers'
import { server } from '../../test/msw-server'
import { WumpusCard } from './wumpus-card'
import { playedLotties } from '../../test/lottie-player-fake'
import { mockReducedMotion } from '../../test/reduced-motion'

describe('WumpusCard', () => {
  const wumpus = makeWumpus(7, {
    name: 'Waving Wumpus',
    description: 'Says hello with both paws',
    u_name: 'Ada',
    u_email: 'ada@example.com',
  })

  it('shows the GIF, name, description, author link and Download link', async () => {
    renderWithProviders(<WumpusCard wumpus={wumpus} />)

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

  it('names a maker shown without an email (a remix of someone with no public profile) without a profile link', async () => {
    const { u_email: _email, ...remix } = makeWumpus(8, { u_name: 'Remix Maker', remixOf: wumpus._id, visibility: 'link' })
    renderWithProviders(<WumpusCard wumpus={remix} />)
    expect(await screen.findByText('by Remix Maker')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'by Remix Maker' })).not.toBeInTheDocument()
  })

  it('offers Send on devices whose share sheet takes files, and hands it the GIF itself', async () => {
    const shared: File[] = []
    Object.assign(navigator, {
      canShare: (data: ShareData) => Boolean(data.files?.length),
      share: async (data: ShareData) => void shared.push(...(data.files ?? [])),
    })
    server.use(http.get(wumpus.gif, () => new HttpResponse(new Uint8Array([71, 73, 70]), { headers: { 'Content-Type': 'image/gif' } })))
    try {
      renderWithProviders(<WumpusCard wumpus={wumpus} />)
      fireEvent.click(await screen.findByRole('button', { name: 'Send Waving Wumpus as a GIF' }))
      await waitFor(() => expect(shared).toHaveLength(1))
      expect(shared[0]!.name).toBe(wumpus.gif.split('/').pop())
      expect(shared[0]!.type).toBe('image/gif')
      expect(new Uint8Array(await shared[0]!.arrayBuffer())).toEqual(new Uint8Array([71, 73, 70]))
    } finally {
      Object.assign(navigator, { canShare: undefined, share: undefined })
    }
  })

  it("offers no Send where files cannot be shared (the card's Download serves)", async () => {
    renderWithProviders(<WumpusCard wumpus={wumpus} />)
    expect(await screen.findByRole('link', { name: 'Download Waving Wumpus' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Send/ })).not.toBeInTheDocument()
  })

  it('loads the image at once when eager', async () => {
    renderWithProviders(<WumpusCard wumpus={wumpus} eager />)
    expect(await screen.findByRole('img')).toHaveAttribute('loading', 'eager')
  })

  it('shows the still first frame in a <picture>, the GIF as the sized fallback <img>', async () => {
    const previewed = withPreview(wumpus)
    renderWithProviders(<WumpusCard wumpus={previewed} />)
    const image = await screen.findByRole('img', { name: 'Waving Wumpus: Says hello with both paws' })
    const picture = image.parentElement!
    expect(picture.tagName).toBe('PICTURE')
    expect([...picture.querySelectorAll('source')].map((s) => [s.getAttribute('type'), s.getAttribute('srcset')])).toEqual([
      ['image/webp', `${previewed.preview!.still} 2x`],
    ])
    expect(picture.lastElementChild).toBe(image)
    expect(image).toHaveAttribute('src', previewed.gif)
  })

  it('plays for people who ask for reduced motion only while pointed at or focused', async () => {
    pageRendered()
    mockReducedMotion()
    renderWithProviders(<WumpusCard wumpus={withPreview(wumpus)} />)
    const card = await screen.findByRole('listitem', { name: 'Waving Wumpus' })
    const motion = () => screen.getByTestId('sticker-motion').getAttribute('data-motion')
    await waitFor(() => expect(IntersectionObserverStub.watches(screen.getByTestId('sticker-motion'))).toBe(true))
    act(() => IntersectionObserverStub.intersectAll())
    expect(motion()).toBe('still')

    fireEvent.pointerEnter(card)
    await waitFor(() => expect(playedLotties.at(-1)).toMatchObject({ playing: true }))
    expect(motion()).toBe('lottie')
    fireEvent.pointerLeave(card)
    await waitFor(() => expect(playedLotties.at(-1)).toMatchObject({ playing: false }))

    act(() => screen.getByRole('link', { name: 'Download Waving Wumpus' }).focus())
    await waitFor(() => expect(playedLotties.at(-1)).toMatchObject({ playing: true }))
    // Focus moving within the card keeps it playing; leaving the card stops it.
    act(() => screen.getByRole('link', { name: 'by Ada' }).focus())
    expect(playedLotties.at(-1)).toMatchObject({ playing: true })
    act(() => (document.activeElement as HTMLElement).blur())
    await waitFor(() => expect(playedLotties.at(-1)).toMatchObject({ playing: false }))
  })
})

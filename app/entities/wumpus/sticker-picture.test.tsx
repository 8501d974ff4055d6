import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { pageRendered } from '../../lib/after-interactive'
import { makeWumpus } from '../../test/fixtures'
import { IntersectionObserverStub } from '../../test/intersection-observer-stub'
import { server } from '../../test/msw-server'
import { useHoverOrFocus } from '../../lib/use-hover-or-focus'
import { renderWithProviders } from '../../test/render-with-providers'
import { StickerPicture } from './sticker-picture'
import { playedLotties } from '../../test/lottie-player-fake'
import { mockReducedMotion } from '../../test/reduced-motion'

const preview = {
  webp: '/api/files/0000000000000000000000a1/p.webp',
  webp2x: '/api/files/0000000000000000000000a2/p2.webp',
  still: '/api/files/0000000000000000000000a3/s.webp',
}
const wumpus = makeWumpus(1, { preview })
const LOTTIE = { v: '5.7.0', fr: 30, ip: 0, op: 60, w: 300, h: 300, layers: [{ ty: 4, ks: {} }] }

function serveLottie(body: object, status = 200) {
  const requests: string[] = []
  server.use(
    http.get(wumpus.lottie, ({ request }) => {
      requests.push(request.url)
      return HttpResponse.json(body, { status })
    }),
  )
  return requests
}

const frame = () => screen.getByTestId('sticker-motion')
const source = () => frame().querySelector('source')
const lastPlayer = () => playedLotties.at(-1)

/** A card as the gallery has it: pointing at it or focusing inside it makes the sticker active. */
function PointedCard() {
  const pointedAt = useHoverOrFocus()
  return (
    <li {...pointedAt.handlers}>
      <StickerPicture wumpus={wumpus} animateInView active={pointedAt.active} />
    </li>
  )
}

describe('StickerPicture', () => {
  // The first test runs before the page counts as interactive; pageRendered() then starts the rest.
  it('shows the still, and asks for nothing animated, until the page is interactive', async () => {
    const requests = serveLottie(LOTTIE)
    renderWithProviders(<StickerPicture wumpus={wumpus} animateInView />)

    const image = await screen.findByRole('img', { name: 'Wumpus 1: Animation number 1' })
    IntersectionObserverStub.intersectAll()
    expect(image.tagName).toBe('IMG')
    expect(source()).toHaveAttribute('srcset', `${preview.still} 2x`)
    expect(frame()).toHaveAttribute('data-motion', 'still')
    expect(requests).toHaveLength(0)
    expect(playedLotties).toHaveLength(0)
  })

  describe('once the page is interactive', () => {
    it('plays the Lottie over the still while half on screen, and pauses it when it leaves', async () => {
      pageRendered()
      const requests = serveLottie(LOTTIE)
      renderWithProviders(<StickerPicture wumpus={wumpus} animateInView />)
      // Nothing is fetched for a card that is not on screen.
      await waitFor(() => expect(IntersectionObserverStub.watches(frame())).toBe(true))
      expect(requests).toHaveLength(0)

      act(() => IntersectionObserverStub.intersectAll())
      await waitFor(() => expect(frame()).toHaveAttribute('data-motion', 'lottie'))
      expect(lastPlayer()).toMatchObject({ data: LOTTIE, playing: true })
      expect(requests).toHaveLength(1)
      // The still stays underneath, never the animated WebP.
      expect(source()).toHaveAttribute('srcset', `${preview.still} 2x`)

      act(() => IntersectionObserverStub.intersectAll(false))
      await waitFor(() => expect(lastPlayer()).toMatchObject({ playing: false }))
      act(() => IntersectionObserverStub.intersectAll())
      await waitFor(() => expect(lastPlayer()).toMatchObject({ playing: true }))
      expect(requests).toHaveLength(1)
    })

    it('pauses while the tab is in the background', async () => {
      serveLottie(LOTTIE)
      renderWithProviders(<StickerPicture wumpus={wumpus} />)
      await waitFor(() => expect(lastPlayer()).toMatchObject({ playing: true }))

      const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
      act(() => void document.dispatchEvent(new Event('visibilitychange')))
      await waitFor(() => expect(lastPlayer()).toMatchObject({ playing: false }))
      visibility.mockReturnValue('visible')
      act(() => void document.dispatchEvent(new Event('visibilitychange')))
      await waitFor(() => expect(lastPlayer()).toMatchObject({ playing: true }))
    })

    it('stays still for people who ask for reduced motion, and plays while pointed at or focused', async () => {
      mockReducedMotion()
      const requests = serveLottie(LOTTIE)
      renderWithProviders(<PointedCard />)
      await waitFor(() => expect(IntersectionObserverStub.watches(frame())).toBe(true))
      act(() => IntersectionObserverStub.intersectAll())
      expect(frame()).toHaveAttribute('data-motion', 'still')
      expect(requests).toHaveLength(0)

      fireEvent.pointerEnter(screen.getByRole('listitem'))
      await waitFor(() => expect(lastPlayer()).toMatchObject({ playing: true }))
      fireEvent.pointerLeave(screen.getByRole('listitem'))
      await waitFor(() => expect(lastPlayer()).toMatchObject({ playing: false }))
    })

    it('plays the animated WebP when the Lottie needs expressions the light player does not have', async () => {
      serveLottie({ ...LOTTIE, layers: [{ ty: 4, ks: { o: { a: 0, k: 100, x: 'wiggle(2, 30)' } } }] })
      renderWithProviders(<StickerPicture wumpus={wumpus} />)

      await waitFor(() => expect(frame()).toHaveAttribute('data-motion', 'webp'))
      expect(source()).toHaveAttribute('srcset', `${preview.webp} 1x, ${preview.webp2x} 2x`)
      expect(playedLotties).toHaveLength(0)
    })

    it('plays the animated WebP when the Lottie cannot be fetched', async () => {
      serveLottie({ error: { code: 'NOT_FOUND', message: 'gone' } }, 404)
      renderWithProviders(<StickerPicture wumpus={wumpus} />)

      await waitFor(() => expect(frame()).toHaveAttribute('data-motion', 'webp'))
      expect(source()).toHaveAttribute('srcset', `${preview.webp} 1x, ${preview.webp2x} 2x`)
      expect(playedLotties).toHaveLength(0)
    })

    it('falls back to the still when the animated WebP cannot load either (offline, not kept)', async () => {
      serveLottie({ error: { code: 'NOT_FOUND', message: 'gone' } }, 404)
      renderWithProviders(<StickerPicture wumpus={wumpus} />)

      await waitFor(() => expect(frame()).toHaveAttribute('data-motion', 'webp'))
      fireEvent.error(screen.getByRole('img', { name: 'Wumpus 1: Animation number 1' }))
      await waitFor(() => expect(frame()).toHaveAttribute('data-motion', 'still'))
      expect(source()).toHaveAttribute('srcset', `${preview.still} 2x`)
    })

    it('shows the GIF while the server has made no previews yet and the Lottie cannot play', async () => {
      serveLottie({ error: { code: 'NOT_FOUND', message: 'gone' } }, 404)
      renderWithProviders(<StickerPicture wumpus={{ ...wumpus, preview: undefined }} />)

      await waitFor(() => expect(frame()).toHaveAttribute('data-motion', 'webp'))
      expect(source()).toBeNull()
      expect(screen.getByRole('img', { name: 'Wumpus 1: Animation number 1' })).toHaveAttribute('src', wumpus.gif)
    })
  })

  it('shows a placeholder, not a broken image with its alt text, when the still cannot load offline, and tries again online', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    act(() => void window.dispatchEvent(new Event('offline')))
    renderWithProviders(<StickerPicture wumpus={wumpus} />)
    const image = await screen.findByRole('img', { name: 'Wumpus 1: Animation number 1' })
    fireEvent.error(image)

    const placeholder = (await screen.findByText('Not saved for offline')).parentElement!
    expect(placeholder).toHaveRole('img')
    expect(placeholder).toHaveAccessibleName('Wumpus 1: Animation number 1')
    expect(frame().querySelector('picture')!.className).toMatch(/hidden/)

    online.mockReturnValue(true)
    act(() => void window.dispatchEvent(new Event('online')))
    await waitFor(() => expect(screen.queryByText('Not saved for offline')).not.toBeInTheDocument())
    expect(frame().querySelector('img')).not.toBe(image)
    online.mockRestore()
  })
})

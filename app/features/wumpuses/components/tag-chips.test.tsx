import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { EmojiCount } from '../../../../contract/wumpus'
import { emojiListHandler, tagListHandler, wumpusListHandler } from '../../../test/api-handlers'
import { makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { renderWithRouter } from '../../../test/render-with-router'
import { EmojiChips, TagChips } from './tag-chips'

const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
const smile = { char: '🙂', name: 'slightly smiling face', shortcode: 'slightly_smiling_face' }
const heart = { char: '❤️', name: 'red heart', shortcode: 'heart' }
const emoji: EmojiCount[] = [
  { ...wave, count: 2 },
  { ...heart, count: 1 },
  { ...smile, count: 1 },
]

const hrefOf = (link: HTMLElement) => decodeURIComponent(link.getAttribute('href')!)

describe('emoji chips', () => {
  it('are links that search for the emoji, keep the rest of the search, and say its name and count', async () => {
    renderWithRouter(<EmojiChips emoji={emoji} search={{ tag: 'hello', fits: 'discord', sort: 'popular' }} label="Emoji" />)
    const row = await screen.findByRole('list', { name: 'Emoji' })
    const links = within(row).getAllByRole('link')
    expect(links.map((link) => link.textContent)).toEqual([
      '👋 waving hand, 2 animations',
      '❤️ red heart, 1 animation',
      '🙂 slightly smiling face, 1 animation',
    ])
    const chip = within(row).getByRole('link', { name: '👋 waving hand, 2 animations' })
    expect(hrefOf(chip)).toBe('/?tag=hello&fits=discord&sort=popular&q=👋')
    // What shows: the emoji and its count; its name is for screen readers.
    expect(within(chip).getByText('2')).not.toHaveClass('visually-hidden')
    expect(within(chip).getByText('waving hand', { exact: false })).toHaveClass('visually-hidden')
    expect(chip).not.toHaveAttribute('data-chosen')
  })

  it('show the chosen emoji (in any skin tone or with its variation selector) as chosen: choosing it again clears the search', async () => {
    renderWithRouter(<EmojiChips emoji={emoji} search={{ q: '👋🏽', tag: 'hello' }} label="Emoji" />)
    const chosen = await screen.findByRole('link', { name: '👋 waving hand, chosen: clear the search' })
    expect(chosen).toHaveAttribute('data-chosen', 'true')
    expect(chosen).toHaveAttribute('data-variant', 'filled')
    expect(hrefOf(chosen)).toBe('/?tag=hello')
    expect(screen.getAllByRole('link').filter((link) => link.hasAttribute('data-chosen'))).toHaveLength(1)
    // Another emoji replaces the words.
    expect(hrefOf(screen.getByRole('link', { name: '🙂 slightly smiling face, 1 animation' }))).toBe('/?q=🙂&tag=hello')
  })

  it('match ❤ typed without its variation selector, and not a search with more than the emoji', async () => {
    const { unmount } = renderWithRouter(<EmojiChips emoji={emoji} search={{ q: '❤' }} label="Emoji" />)
    expect(await screen.findByRole('link', { name: '❤️ red heart, chosen: clear the search' })).toBeInTheDocument()
    unmount()
    renderWithRouter(<EmojiChips emoji={emoji} search={{ q: '👋 hello' }} label="Emoji" />)
    expect(await screen.findByRole('link', { name: '👋 waving hand, 2 animations' })).not.toHaveAttribute('data-chosen')
  })

  it('show a searched emoji that is not among the most used first, chosen', async () => {
    renderWithRouter(<EmojiChips emoji={emoji} search={{ q: '🥳', fits: 'slack' }} label="Emoji" />)
    const row = await screen.findByRole('list', { name: 'Emoji' })
    const links = within(row).getAllByRole('link')
    expect(links).toHaveLength(4)
    expect(links[0]).toHaveAccessibleName('🥳, chosen: clear the search')
    expect(hrefOf(links[0]!)).toBe('/?fits=slack')
    expect(links[0]).toHaveAttribute('data-chosen', 'true')
  })

  it('say just the emoji and its name without counts, as on an animation page', async () => {
    renderWithRouter(<EmojiChips emoji={[{ ...wave, count: 0 }]} search={{}} label="Emoji" />)
    expect(await screen.findByRole('link', { name: '👋 waving hand' })).toHaveAttribute('href', '/?q=%F0%9F%91%8B')
  })

  it('say the emoji alone when its name is unknown, and show no row without emoji', async () => {
    const { unmount } = renderWithRouter(<EmojiChips emoji={[{ char: '🫨', name: '', count: 3 }]} search={{}} label="Emoji" />)
    expect(await screen.findByRole('link', { name: '🫨 3 animations' })).toBeInTheDocument()
    unmount()
    renderWithRouter(
      <>
        <h1>Page</h1>
        <EmojiChips emoji={[]} search={{}} label="Emoji" />
      </>,
    )
    await screen.findByRole('heading', { name: 'Page' })
    expect(screen.queryByRole('list', { name: 'Emoji' })).not.toBeInTheDocument()
  })

  it('share their look with the tag chips', async () => {
    renderWithRouter(
      <>
        <TagChips tags={[{ tag: 'night', count: 2 }]} search={{ tag: 'night' }} label="Tags" />
        <EmojiChips emoji={emoji} search={{ q: '👋' }} label="Emoji" />
      </>,
    )
    const tag = await screen.findByRole('link', { name: '#night, chosen: show every tag' })
    const chosenEmoji = screen.getByRole('link', { name: '👋 waving hand, chosen: clear the search' })
    const other = screen.getByRole('link', { name: '❤️ red heart, 1 animation' })
    for (const chip of [tag, chosenEmoji, other]) {
      expect(chip).toHaveAttribute('data-size', 'compact-sm')
      expect(chip).toHaveAttribute('data-radius', 'xl')
    }
    expect(tag).toHaveAttribute('data-variant', 'filled')
    expect(chosenEmoji).toHaveAttribute('data-variant', 'filled')
    expect(other).toHaveAttribute('data-variant', 'light')
  })
})

describe('emoji chips on the home page', () => {
  const gallery = [
    makeWumpus(1, { name: 'Waving Wumpus', emoji: [wave, smile] }),
    makeWumpus(2, { name: 'Love Wumpus', emoji: [heart] }),
    makeWumpus(3, { name: 'Other Waving Wumpus', emoji: [wave] }),
  ]

  it('search the gallery for the emoji, and clear it when chosen again', async () => {
    const list = wumpusListHandler(gallery)
    const emojiList = emojiListHandler(emoji)
    server.use(list.handler, emojiList.handler, tagListHandler([{ tag: 'night', count: 1 }]).handler)
    const { user, router } = renderApp('/')

    const row = await screen.findByRole('list', { name: 'Emoji' })
    expect(Object.fromEntries(emojiList.requests[0]!.searchParams)).toEqual({ limit: '8' })
    expect(screen.getByRole('list', { name: 'Tags' })).toBeInTheDocument()
    expect(await screen.findAllByRole('heading', { level: 2 })).toHaveLength(3)

    await user.click(within(row).getByRole('link', { name: '👋 waving hand, 2 animations' }))
    await waitFor(() => expect(router.state.location.search).toEqual({ q: '👋' }))
    await screen.findByRole('heading', { level: 1, name: '2 wumpus animation in 3 format' })
    expect(screen.getByRole('searchbox', { name: 'Search animations' })).toHaveValue('👋')
    expect(Object.fromEntries(list.requests.at(-1)!.searchParams)).toEqual({ limit: '24', q: '👋' })
    const cards = within(screen.getByRole('list', { name: 'Animations' })).getAllByRole('heading')
    expect(cards.map((card) => card.textContent).sort()).toEqual(['Other Waving Wumpus', 'Waving Wumpus'])

    await user.click(screen.getByRole('link', { name: '👋 waving hand, chosen: clear the search' }))
    await waitFor(() => expect(router.state.location.search).toEqual({}))
    await screen.findByRole('heading', { level: 1, name: '3 wumpus animation in 3 format' })
    // The list was read once: the chips do not ask again as the search changes.
    expect(emojiList.requests).toHaveLength(1)
  })

  it('still shows the gallery when the emoji list cannot be read', async () => {
    server.use(
      wumpusListHandler(gallery).handler,
      http.get('/api/emoji', () => HttpResponse.json({ error: { code: 'STORE_UNAVAILABLE', message: 'Try again' } }, { status: 503 })),
    )
    renderApp('/')
    expect(await screen.findByRole('heading', { level: 1, name: '3 wumpus animation in 3 format' })).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Emoji' })).not.toBeInTheDocument()
  })

  it('are suggested when nothing matches, leaving out the emoji searched for', async () => {
    server.use(wumpusListHandler(gallery).handler, emojiListHandler(emoji).handler)
    renderApp('/?q=👋&fits=slack')
    await screen.findByRole('heading', { name: 'No animations match “👋” with a Slack file' })
    const suggested = screen.getByRole('list', { name: 'Popular emoji' })
    expect(
      within(suggested)
        .getAllByRole('link')
        .map((link) => link.getAttribute('aria-label') ?? link.textContent),
    ).toEqual(['❤️ red heart, 1 animation', '🙂 slightly smiling face, 1 animation'])
    // A fresh search for the emoji, without the other filters.
    expect(hrefOf(within(suggested).getByRole('link', { name: '❤️ red heart, 1 animation' }))).toBe('/?q=❤️')
  })
})

import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { tagListHandler, wumpusListHandler } from '../../../test/api-handlers'
import { makeWumpus, makeWumpuses } from '../../../test/fixtures'
import { IntersectionObserverStub } from '../../../test/intersection-observer-stub'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'

async function cards() {
  const list = await screen.findByRole('list', { name: 'Animations' })
  return within(list).getAllByRole('listitem')
}

describe('home gallery', () => {
  it('shows the total count and one card per item with its links', async () => {
    const items = makeWumpuses(1, 3)
    const { handler } = wumpusListHandler(items)
    server.use(handler)
    renderApp('/')

    expect(await screen.findByRole('heading', { level: 1, name: '3 wumpus animation in 3 format' })).toBeInTheDocument()
    const rendered = await cards()
    expect(rendered).toHaveLength(3)
    const first = within(rendered[0]!)
    expect(first.getByRole('heading', { name: 'Wumpus 1' })).toBeInTheDocument()
    expect(first.getByRole('link', { name: 'Download Wumpus 1' })).toHaveAttribute('href', `/wumpus/${items[0]!._id}`)
    expect(first.getByRole('link', { name: 'by Artist 1' })).toHaveAttribute('href', '/profile/artist1@example.com')
    expect(within(rendered[2]!).getByRole('link', { name: 'Download Wumpus 3' })).toHaveAttribute('href', `/wumpus/${items[2]!._id}`)
    expect(document.title).toBe('Wumpus Gallery')
  })

  it('tells signed-out visitors where to learn what a wumpus is', async () => {
    server.use(wumpusListHandler(makeWumpuses(1, 1)).handler)
    renderApp('/')

    expect(await screen.findByText(/Don't know what is wumpus\?/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Read about the wumpus' })).toHaveAttribute('href', '/about')
  })

  it('loads the next page from the Link header when the sentinel comes into view', async () => {
    const { handler, requests } = wumpusListHandler(makeWumpuses(1, 30))
    server.use(handler)
    renderApp('/')

    expect(await cards()).toHaveLength(24)
    expect(requests).toHaveLength(1)
    expect(requests[0]!.searchParams.get('limit')).toBe('24')
    expect(requests[0]!.searchParams.has('cursor')).toBe(false)

    await waitFor(() => expect(IntersectionObserverStub.instances.size).toBeGreaterThan(0))
    IntersectionObserverStub.intersectAll()

    await waitFor(async () => expect(await cards()).toHaveLength(30))
    expect(requests).toHaveLength(2)
    expect(requests[1]!.searchParams.get('cursor')).toBe('24')
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('30 wumpus animation in 3 format')
    // Last page: nothing left to load, nothing left to observe but the stickers (they play while on screen).
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
    const watched = [...IntersectionObserverStub.instances].flatMap((observer) => [...observer.elements])
    expect(watched.every((element) => element.matches('[data-testid="sticker-motion"]'))).toBe(true)
  })

  it('offers a Load more button that fetches one page at a time', async () => {
    const { handler, requests } = wumpusListHandler(makeWumpuses(1, 60))
    server.use(handler)
    const { user } = renderApp('/')

    expect(await cards()).toHaveLength(24)
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(async () => expect(await cards()).toHaveLength(48))
    expect(requests.map((url) => url.searchParams.get('cursor'))).toEqual([null, '24'])
    expect(screen.getByRole('button', { name: 'Load more' })).toBeInTheDocument()
  })

  it('shows an error with a Retry button that recovers', async () => {
    // React and the router log the expected loader error.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    let fail = true
    const { handler } = wumpusListHandler(makeWumpuses(1, 2))
    server.use(
      http.get('/api/wumpuses', () =>
        fail ? HttpResponse.json({ error: { code: 'STORE_UNAVAILABLE', message: 'The store is down' } }, { status: 503 }) : undefined,
      ),
      handler,
    )
    const { user } = renderApp('/')

    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('The store is down')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))

    expect(await screen.findByRole('heading', { level: 1, name: '2 wumpus animation in 3 format' })).toBeInTheDocument()
    expect(await cards()).toHaveLength(2)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('keeps the loaded cards and offers Retry when a next page fails', async () => {
    let failNext = true
    const { handler } = wumpusListHandler(makeWumpuses(1, 30))
    server.use(
      http.get('/api/wumpuses', ({ request }) =>
        failNext && new URL(request.url).searchParams.has('cursor') ? HttpResponse.error() : undefined,
      ),
      handler,
    )
    const { user } = renderApp('/')

    expect(await cards()).toHaveLength(24)
    await user.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await screen.findByText('Could not load more animations')).toBeInTheDocument()
    expect(await cards()).toHaveLength(24)

    failNext = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(async () => expect(await cards()).toHaveLength(30))
  })
})

describe('searching the gallery', () => {
  const gallery = [
    makeWumpus(1, { name: 'Moon Wumpus', description: 'Glows all night', tags: ['night'], downloads: 3, fits: ['discord', 'slack'] }),
    makeWumpus(2, { name: 'Café Wumpus', description: 'Sips a latte', tags: ['food'], downloads: 9, fits: ['telegram', 'telegram-emoji'] }),
    makeWumpus(3, {
      name: 'Moonlight Wumpus',
      description: 'Dances under the moon',
      tags: ['night', 'dance'],
      downloads: 1,
      fits: ['discord'],
    }),
  ]
  const tags = [
    { tag: 'night', count: 2 },
    { tag: 'dance', count: 1 },
    { tag: 'food', count: 1 },
  ]
  const names = async () => (await cards()).map((card) => within(card).getByRole('heading').textContent)
  const searchBox = () => screen.getByRole('searchbox', { name: 'Search animations' })

  it('searches as you type after a pause, puts the words in the URL and counts the matches', async () => {
    const { handler, requests } = wumpusListHandler(gallery)
    server.use(handler, tagListHandler(tags).handler)
    const { user, router } = renderApp('/')
    expect(await names()).toHaveLength(3)

    // Typed quickly: one request once typing pauses, not one per letter.
    for (const typed of ['M', 'MO', 'MOO', 'MOON']) fireEvent.change(searchBox(), { target: { value: typed } })
    await waitFor(() => expect(router.state.location.search).toEqual({ q: 'MOON' }))
    expect(await screen.findByRole('heading', { level: 1, name: '2 wumpus animation in 3 format' })).toBeInTheDocument()
    expect(await names()).toEqual(['Moon Wumpus', 'Moonlight Wumpus'])
    expect(requests.map((url) => url.searchParams.get('q'))).toEqual([null, 'MOON'])
    expect(document.title).toBe('“MOON” · Wumpus Gallery')

    await user.click(screen.getByRole('link', { name: 'Clear the search box' }))
    await waitFor(() => expect(router.state.location.search).toEqual({}))
    expect(await names()).toHaveLength(3)
    expect(searchBox()).toHaveValue('')
  })

  it('opens a shared link with its words, tag and order, and offers the tags as chips', async () => {
    const { handler, requests } = wumpusListHandler(gallery)
    server.use(handler, tagListHandler(tags).handler)
    renderApp('/?q=wumpus&tag=night&sort=popular')

    expect(await names()).toEqual(['Moon Wumpus', 'Moonlight Wumpus'])
    expect(Object.fromEntries(requests[0]!.searchParams)).toEqual({ limit: '24', q: 'wumpus', tag: 'night', sort: 'popular' })
    expect(searchBox()).toHaveValue('wumpus')
    expect(screen.getByRole('combobox', { name: 'Order' })).toHaveValue('popular')
    const chips = screen.getByRole('list', { name: 'Tags' })
    expect(await within(chips).findByRole('link', { name: '#night, chosen: show every tag' })).toHaveAttribute(
      'href',
      '/?q=wumpus&sort=popular',
    )
    expect(within(chips).getByRole('link', { name: '#food 1 animation' })).toHaveAttribute('href', '/?q=wumpus&tag=food&sort=popular')
  })

  it('filters by a tag chip and orders by a sort choice, keeping the rest of the search', async () => {
    const { handler } = wumpusListHandler(gallery)
    server.use(handler, tagListHandler(tags).handler)
    const { user, router } = renderApp('/')
    expect(await names()).toHaveLength(3)
    expect(screen.queryByRole('option', { name: 'Best match' })).not.toBeInTheDocument()

    await user.click(await screen.findByRole('link', { name: '#night 2 animations' }))
    await waitFor(() => expect(router.state.location.search).toEqual({ tag: 'night' }))
    expect(await screen.findByRole('heading', { level: 1, name: '2 wumpus animation in 3 format' })).toBeInTheDocument()

    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'Popular')
    await waitFor(() => expect(router.state.location.search).toEqual({ tag: 'night', sort: 'popular' }))
    await waitFor(async () => expect(await names()).toEqual(['Moon Wumpus', 'Moonlight Wumpus']))

    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'Newest')
    await waitFor(() => expect(router.state.location.search).toEqual({ tag: 'night' }))
    await waitFor(async () => expect(await names()).toEqual(['Moonlight Wumpus', 'Moon Wumpus']))
  })

  it('says when nothing matches, and offers to clear the search or try a popular tag', async () => {
    const { handler } = wumpusListHandler(gallery)
    server.use(handler, tagListHandler(tags).handler)
    const { user, router } = renderApp('/?q=zebra&tag=food')

    expect(await screen.findByRole('heading', { name: 'No animations match “zebra” in #food' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: '0 wumpus animation in 3 format' })).toBeInTheDocument()
    const suggestions = await screen.findByRole('list', { name: 'Popular tags' })
    expect(within(suggestions).getByRole('link', { name: '#night 2 animations' })).toHaveAttribute('href', '/?tag=night')

    await user.click(screen.getByRole('link', { name: 'Clear search' }))
    await waitFor(() => expect(router.state.location.search).toEqual({ tag: 'food' }))
    expect(await names()).toEqual(['Café Wumpus'])
  })

  it('keeps the stickers that fit a chosen platform, with the rest of the search, and says when none does', async () => {
    const { handler, requests } = wumpusListHandler(gallery)
    server.use(handler, tagListHandler(tags).handler)
    const { user, router } = renderApp('/?tag=night')
    expect(await names()).toEqual(['Moonlight Wumpus', 'Moon Wumpus'])
    const fits = screen.getByRole('combobox', { name: 'Fits a platform' })
    expect(fits).toHaveValue('')
    expect(
      within(fits)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Fits: Any',
      'Fits: Discord',
      'Fits: Discord emoji',
      'Fits: Telegram',
      'Fits: Telegram emoji',
      'Fits: WhatsApp',
      'Fits: Signal',
      'Fits: LINE',
      'Fits: Slack',
    ])

    await user.selectOptions(fits, 'Fits: Slack')
    await waitFor(() => expect(router.state.location.search).toEqual({ tag: 'night', fits: 'slack' }))
    await waitFor(async () => expect(await names()).toEqual(['Moon Wumpus']))
    expect(Object.fromEntries(requests.at(-1)!.searchParams)).toEqual({ limit: '24', tag: 'night', fits: 'slack' })
    expect(fits).toHaveValue('slack')

    await user.selectOptions(fits, 'Fits: Telegram')
    expect(await screen.findByRole('heading', { name: 'No animations match #night with a Telegram file' })).toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Any platform' }))
    await waitFor(() => expect(router.state.location.search).toEqual({ tag: 'night' }))
    expect(await names()).toEqual(['Moonlight Wumpus', 'Moon Wumpus'])
  })

  it('opens a shared link with a platform', async () => {
    const { handler } = wumpusListHandler(gallery)
    server.use(handler, tagListHandler(tags).handler)
    renderApp('/?fits=telegram')
    expect(await names()).toEqual(['Café Wumpus'])
    expect(screen.getByRole('combobox', { name: 'Fits a platform' })).toHaveValue('telegram')
    expect(document.title).toBe('Fits Telegram · Wumpus Gallery')
  })

  it('filters by an emoji platform, whose id has a hyphen, from the select and from a link', async () => {
    const { handler, requests } = wumpusListHandler(gallery)
    server.use(handler, tagListHandler(tags).handler)
    const { user, router } = renderApp('/?fits=telegram-emoji')
    expect(await names()).toEqual(['Café Wumpus'])
    const fits = screen.getByRole('combobox', { name: 'Fits a platform' })
    expect(fits).toHaveValue('telegram-emoji')
    expect(document.title).toBe('Fits Telegram emoji · Wumpus Gallery')
    await user.selectOptions(fits, 'Fits: Discord emoji')
    await waitFor(() => expect(router.state.location.search).toEqual({ fits: 'discord-emoji' }))
    expect(await screen.findByRole('heading', { name: 'No animations have a Discord emoji file yet' })).toBeInTheDocument()
    expect(Object.fromEntries(requests.at(-1)!.searchParams)).toEqual({ limit: '24', fits: 'discord-emoji' })
  })

  it('drops what is not valid in a link instead of failing', async () => {
    const { handler, requests } = wumpusListHandler(gallery)
    server.use(handler)
    renderApp('/?tag=Not_A_Tag&sort=weird&q=%20%20&fits=myspace')
    expect(await names()).toHaveLength(3)
    expect(Object.fromEntries(requests[0]!.searchParams)).toEqual({ limit: '24' })
    expect(searchBox()).toHaveValue('')
    expect(screen.getByRole('combobox', { name: 'Order' })).toHaveDisplayValue('Newest')
    expect(screen.getByRole('combobox', { name: 'Fits a platform' })).toHaveValue('')
  })
})

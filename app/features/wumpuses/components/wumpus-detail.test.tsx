import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { stickersHandler, wumpusDetailHandler } from '../../../test/api-handlers'
import { makeStickers, makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { signInForTest } from '../../../test/session'

const wumpus = makeWumpus(5, {
  name: 'Spinning Wumpus',
  description: 'Round and round it goes',
  gif: '/api/files/65a0000000000000000000aa/spinning%20wumpus%20(v2).gif',
  apng: '/api/files/65a0000000000000000000bb/spinning-wumpus.png',
  lottie: '/api/files/65a0000000000000000000cc/spinning-wumpus.json',
  u_name: 'Grace',
  u_email: 'grace@example.com',
  tags: ['spin', 'happy'],
  emoji: [
    { char: '🌀', name: 'cyclone', shortcode: 'cyclone' },
    { char: '😄', name: 'grinning face with smiling eyes', shortcode: 'smile' },
  ],
  keywords: ['twirl', 'round and round'],
  downloads: 1234,
})

describe('wumpus detail page', () => {
  beforeEach(() => {
    const stickers = makeStickers(wumpus, { absent: { telegram: 'The animation runs 4 s; Telegram allows 3 s' } })
    server.use(wumpusDetailHandler([wumpus]), stickersHandler({ [wumpus._id]: stickers }))
    // The detail page is for signed-in users.
    signInForTest()
  })

  it('shows name, description, preview and the author link', async () => {
    renderApp(`/wumpus/${wumpus._id}`)

    expect(await screen.findByRole('heading', { level: 1, name: 'Spinning Wumpus' })).toBeInTheDocument()
    expect(screen.getByText('Round and round it goes')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Spinning Wumpus: Round and round it goes' })).toHaveAttribute('src', wumpus.gif)
    expect(screen.getByRole('heading', { name: 'Animation by' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Grace' })).toHaveAttribute('href', '/profile/grace@example.com')
    expect(document.title).toBe('Spinning Wumpus · Wumpus Gallery')
  })

  it('names a maker shown without an email (a remix of someone with no public profile) without a profile link', async () => {
    const { u_email: _email, ...remix } = makeWumpus(6, { u_name: 'Remix Maker', remixOf: wumpus._id, visibility: 'link' })
    server.use(wumpusDetailHandler([wumpus, remix]))
    renderApp(`/wumpus/${remix._id}`)

    expect(await screen.findByRole('heading', { name: 'Animation by' })).toBeInTheDocument()
    const author = within(screen.getByRole('region', { name: 'Animation by' }))
    expect(author.getByText('Remix Maker')).toBeInTheDocument()
    expect(author.queryByRole('link')).not.toBeInTheDocument()
    // Shared by link, anyone who opens it may report it.
    expect(screen.getByRole('button', { name: 'Report a problem' })).toBeInTheDocument()
  })

  it('offers no report on a private remix: it is its maker’s alone', async () => {
    const remix = makeWumpus(8, { name: 'My own wave', remixOf: wumpus._id, visibility: 'private' })
    server.use(wumpusDetailHandler([wumpus, remix]))
    renderApp(`/wumpus/${remix._id}`)
    expect(await screen.findByRole('heading', { name: 'Animation by' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Report a problem' })).not.toBeInTheDocument()
  })

  it('labels a sensitive animation opened by its link, and no other', async () => {
    const sensitive = makeWumpus(7, { name: 'Spicy Wumpus', sensitive: true })
    server.use(wumpusDetailHandler([wumpus, sensitive]))
    renderApp(`/wumpus/${sensitive._id}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Spicy Wumpus' })).toBeInTheDocument()
    expect(screen.getByText('Sensitive')).toBeInTheDocument()
    expect(screen.getByText(/hidden from the gallery and search unless you turn sensitive stickers on/)).toBeInTheDocument()
  })

  it('shows no sensitive label on an animation that is not', async () => {
    renderApp(`/wumpus/${wumpus._id}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Spinning Wumpus' })).toBeInTheDocument()
    expect(screen.queryByText('Sensitive')).not.toBeInTheDocument()
  })

  it('credits its maker and says under which licence it travels', async () => {
    const credited = makeWumpus(7, { u_name: 'Grace', licence: 'CC-BY-4.0', credit: 'Ana Lima' })
    server.use(wumpusDetailHandler([wumpus, credited]))
    renderApp(`/wumpus/${credited._id}`)
    const author = within(await screen.findByRole('region', { name: 'Animation by' }))
    expect(author.getByText('Made by Ana Lima')).toBeInTheDocument()
    expect(author.getByText('Licence: CC BY 4.0 (credit the maker)')).toBeInTheDocument()
    // Anyone may tell the admins about a problem with a gallery sticker.
    expect(screen.getByRole('button', { name: 'Report a problem' })).toBeInTheDocument()
  })

  it('shows how often it was downloaded, and its tags as links to the gallery', async () => {
    renderApp(`/wumpus/${wumpus._id}`)
    expect(await screen.findByText('Downloaded 1,234 times')).toBeInTheDocument()
    // Counted once per visitor and day, so one's own download may not add one: the page says so.
    expect(screen.getByText('Downloaded 1,234 times').nextElementSibling).toHaveTextContent('Downloads count once per person a day.')
    const tags = screen.getByRole('list', { name: 'Tags' })
    expect(within(tags).getByRole('link', { name: '#spin' })).toHaveAttribute('href', '/?tag=spin')
    expect(within(tags).getByRole('link', { name: '#happy' })).toHaveAttribute('href', '/?tag=happy')
  })

  it('shows its emoji as searches of the gallery, and its keywords', async () => {
    renderApp(`/wumpus/${wumpus._id}`)
    const emoji = await screen.findByRole('list', { name: 'Emoji' })
    expect(within(emoji).getByRole('link', { name: /^🌀 cyclone/ })).toHaveAttribute('href', `/?q=${encodeURIComponent('🌀')}`)
    expect(within(emoji).getAllByRole('link')).toHaveLength(2)
    expect(screen.getByText('Keywords: twirl, round and round')).toBeInTheDocument()
    // Each chat app's file says which emoji it goes with there.
    const useItIn = await screen.findByRole('region', { name: 'Use it in' })
    const whatsapp = await within(useItIn).findByRole('button', { name: /^WhatsApp: download/ })
    expect(whatsapp.parentElement).toHaveTextContent('Goes with 🌀 😄')
  })

  it('invites the first download, and shows no tags when there are none', async () => {
    const fresh = makeWumpus(6, { downloads: 0, tags: [] })
    server.use(wumpusDetailHandler([fresh]))
    renderApp(`/wumpus/${fresh._id}`)
    expect(await screen.findByText('Not downloaded yet: be the first')).toBeInTheDocument()
    expect(screen.getByText('Downloads count once per person a day.')).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Tags' })).not.toBeInTheDocument()
  })

  it('opens the three formats in a new tab', async () => {
    renderApp(`/wumpus/${wumpus._id}`)
    expect(await screen.findByRole('heading', { name: 'View in format' })).toBeInTheDocument()

    for (const [label, href] of [
      ['GIF', wumpus.gif],
      ['APNG', wumpus.apng],
      ['Lottie', wumpus.lottie],
    ] as const) {
      const link = screen.getByRole('link', { name: `${label}: view Spinning Wumpus in a new tab` })
      expect(link).toHaveTextContent(label)
      expect(link).toHaveAttribute('href', href)
      expect(link).toHaveAttribute('target', '_blank')
      expect(link.getAttribute('rel')).toContain('noopener')
    }
  })

  describe('download buttons', () => {
    const clicked: HTMLAnchorElement[] = []
    beforeEach(() => {
      clicked.length = 0
      URL.createObjectURL = vi.fn(() => 'blob:http://localhost/fake-object-url')
      URL.revokeObjectURL = vi.fn()
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push(this)
      })
    })

    it('fetch the file as a counted download and save it under its original name', async () => {
      const bytes = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])
      const asked: URL[] = []
      // A wildcard: msw would read the parentheses in the file name as pattern syntax.
      server.use(
        http.get('/api/files/65a0000000000000000000aa/*', ({ request }) => {
          asked.push(new URL(request.url))
          return new HttpResponse(bytes, { headers: { 'Content-Type': 'image/gif' } })
        }),
      )
      const { user } = renderApp(`/wumpus/${wumpus._id}`)

      await user.click(await screen.findByRole('button', { name: 'GIF: download Spinning Wumpus as GIF' }))

      await waitFor(() => expect(clicked).toHaveLength(1))
      expect(asked.map((url) => url.searchParams.get('download'))).toEqual(['1'])
      expect(clicked[0]!.download).toBe('spinning wumpus (v2).gif')
      expect(clicked[0]!.getAttribute('href')).toBe('blob:http://localhost/fake-object-url')
      const blob = vi.mocked(URL.createObjectURL).mock.calls[0]![0] as Blob
      expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes)
      expect(document.querySelector('a[download]')).toBeNull()
    })

    it("add one's own download to the count shown when the server counted it, and not when it did not", async () => {
      let counted = true
      server.use(
        http.get('/api/files/65a0000000000000000000aa/*', () => {
          const headers: Record<string, string> = { 'Content-Type': 'image/gif' }
          // The server names the animation when the download counted (once per person a day).
          if (counted) headers['X-Download-Counted'] = wumpus._id
          return new HttpResponse(new Uint8Array([0x47, 0x49, 0x46]), { headers })
        }),
      )
      const { user } = renderApp(`/wumpus/${wumpus._id}`)
      const button = await screen.findByRole('button', { name: 'GIF: download Spinning Wumpus as GIF' })
      expect(screen.getByText('Downloaded 1,234 times')).toBeInTheDocument()

      await user.click(button)
      expect(await screen.findByText('Downloaded 1,235 times')).toBeInTheDocument()

      // The same person again the same day: not counted, so the count stays.
      counted = false
      await user.click(button)
      await waitFor(() => expect(clicked).toHaveLength(2))
      expect(screen.getByText('Downloaded 1,235 times')).toBeInTheDocument()
    })

    it('save the Lottie JSON as .json and the APNG as .png', async () => {
      server.use(
        http.get(wumpus.lottie, () => HttpResponse.json({ v: '5.7.0' })),
        http.get(wumpus.apng, () => new HttpResponse(new Uint8Array([0x89, 0x50]), { headers: { 'Content-Type': 'image/apng' } })),
      )
      const { user } = renderApp(`/wumpus/${wumpus._id}`)

      await user.click(await screen.findByRole('button', { name: /^Lottie: download/ }))
      await waitFor(() => expect(clicked).toHaveLength(1))
      await user.click(screen.getByRole('button', { name: /^APNG: download/ }))
      await waitFor(() => expect(clicked).toHaveLength(2))
      expect(clicked.map((a) => a.download)).toEqual(['spinning-wumpus.json', 'spinning-wumpus.png'])
    })

    it('say so in a toast when the file cannot be fetched', async () => {
      server.use(
        http.get('/api/files/65a0000000000000000000aa/*', () =>
          HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'File not found' } }, { status: 404 }),
        ),
      )
      const { user } = renderApp(`/wumpus/${wumpus._id}`)

      await user.click(await screen.findByRole('button', { name: /^GIF: download/ }))
      expect(await screen.findByText('Download failed')).toBeInTheDocument()
      expect(screen.getByText('File not found')).toBeInTheDocument()
      expect(screen.getByRole('button', { name: 'Close notification' })).toBeInTheDocument()
      expect(clicked).toHaveLength(0)
    })
  })

  describe('Use it in', () => {
    const clicked: HTMLAnchorElement[] = []
    beforeEach(() => {
      clicked.length = 0
      URL.createObjectURL = vi.fn(() => 'blob:http://localhost/fake-object-url')
      URL.revokeObjectURL = vi.fn()
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push(this)
      })
    })

    it('offers one button per platform with its size and a short note, and says why one is missing', async () => {
      renderApp(`/wumpus/${wumpus._id}`)
      const section = await screen.findByRole('region', { name: 'Use it in' })
      const discord = await within(section).findByRole('button', { name: 'Discord: download Spinning Wumpus as 320x320 APNG, 48.8 KB' })
      expect(discord).toHaveTextContent('Discord320x320 APNG, 48.8 KB')
      const names = [
        'WhatsApp: download Spinning Wumpus as 512x512 animated WebP',
        'Signal: download',
        'LINE: download',
        'Slack: download Spinning Wumpus as 128x128 GIF',
        'Discord emoji: download Spinning Wumpus as 128x128 GIF',
        'Telegram emoji: download Spinning Wumpus as 100x100 TGS',
      ]
      for (const name of names) {
        expect(within(section).getByRole('button', { name: new RegExp(`^${name}`) })).toBeEnabled()
      }
      expect(within(section).getByText('384x384 instead of 512x512 to fit 300 KiB')).toBeInTheDocument()
      expect(within(section).getByRole('button', { name: 'Telegram: Not available' })).toBeDisabled()
      expect(within(section).getByText('The animation runs 4 s; Telegram allows 3 s')).toBeInTheDocument()
    })

    it('downloads a platform file under its clear name', async () => {
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47])
      const discord = makeStickers(wumpus)[0]!
      server.use(http.get(discord.url!, () => new HttpResponse(bytes, { headers: { 'Content-Type': 'image/apng' } })))
      const { user } = renderApp(`/wumpus/${wumpus._id}`)
      await user.click(await screen.findByRole('button', { name: /^Discord: download/ }))
      await waitFor(() => expect(clicked).toHaveLength(1))
      expect(clicked[0]!.download).toBe('spinning-wumpus.discord.png')
      const blob = vi.mocked(URL.createObjectURL).mock.calls[0]![0] as Blob
      expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes)
    })

    it('shows files being made, and the buttons once the server has made them', async () => {
      server.use(stickersHandler({ [wumpus._id]: [makeStickers(wumpus, { pending: true }), makeStickers(wumpus)] }))
      renderApp(`/wumpus/${wumpus._id}`)
      expect(await screen.findByRole('button', { name: 'Discord: Being made…' })).toBeDisabled()
      expect(await screen.findByRole('button', { name: /^Discord: download/ }, { timeout: 8000 })).toBeEnabled()
    })
  })

  it('shows a friendly not-found message for an unknown id', async () => {
    renderApp('/wumpus/ffffffffffffffffffffffff')

    expect(await screen.findByRole('heading', { name: 'Animation not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to the gallery' })).toHaveAttribute('href', '/')
    expect(document.title).toBe('Not found · Wumpus Gallery')
  })

  it('treats a malformed id as not found without asking the server', async () => {
    // msw fails the test on any request without a handler; none is set for this id.
    server.resetHandlers()
    renderApp('/wumpus/not-an-id')
    expect(await screen.findByRole('heading', { name: 'Animation not found' })).toBeInTheDocument()
  })
})

import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { wumpusDetailHandler } from '../../../test/api-handlers'
import { makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { signInForTest } from '../../../test/session'

const original = makeWumpus(7, { name: 'Happy Wumpus', remixes: 3 })
const remix = makeWumpus(8, {
  name: 'Happy Wumpus',
  remixOf: original._id,
  recipe: { colours: { '8c9eff': '#ff0000' }, caption: { text: 'Hi', position: 'top' } },
  visibility: 'private',
  u_email: 'ada@example.com',
  u_name: 'Ada Lovelace',
})

describe('remixes on the detail page', () => {
  beforeEach(() => {
    server.use(
      wumpusDetailHandler([original, remix]),
      http.get('/api/me/favourite-ids', () => HttpResponse.json([])),
      // My animation asks whether the user is an admin (for its menu).
      http.get('/api/admin/:email', () => HttpResponse.json({ admin: false })),
    )
  })

  it('an original counts its remixes and offers Make it yours to a verified user', async () => {
    signInForTest()
    renderApp(`/wumpus/${original._id}`)
    const section = await screen.findByRole('region', { name: 'Your own version' })
    expect(within(section).getByText('3 remixes made of it')).toBeInTheDocument()
    expect(within(section).getByRole('link', { name: 'Make it yours' })).toHaveAttribute('href', `/wumpus/${original._id}/remix`)
  })

  it('an unverified user is told to verify first', async () => {
    signInForTest({ email_verified: false })
    renderApp(`/wumpus/${original._id}`)
    const section = await screen.findByRole('region', { name: 'Your own version' })
    expect(within(section).queryByRole('link', { name: 'Make it yours' })).not.toBeInTheDocument()
    expect(within(section).getByRole('link', { name: 'Verify it' })).toHaveAttribute(
      'href',
      `/emailVerification?from=${encodeURIComponent(`/wumpus/${original._id}/remix`)}`,
    )
  })

  it('a remix says whose version of what it is; its owner shares it by link, copies the link and makes it private again', async () => {
    signInForTest()
    const sent: unknown[] = []
    server.use(
      http.put(`/api/wumpus/${remix._id}/sharing`, async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json({ id: remix._id, visibility: (sent[sent.length - 1] as { visibility: string }).visibility })
      }),
    )
    const { user } = renderApp(`/wumpus/${remix._id}`)
    // After userEvent.setup(), which puts its own clipboard on navigator.
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })

    await waitFor(() => expect(screen.getByText(/^Your version of/)).toHaveTextContent('Your version of Happy Wumpus'))
    expect(screen.getByRole('link', { name: 'Happy Wumpus' })).toHaveAttribute('href', `/wumpus/${original._id}`)
    expect(screen.getByText('1 colour changed, caption “Hi” at the top')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Your own version' })).not.toBeInTheDocument()
    expect(screen.getByText('Private: only you can see it.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Copy link' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Share by link' }))
    expect(await screen.findByText('Shared by link: anyone with the link can see it.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Copy link' }))
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/wumpus/${remix._id}`)
    await user.click(screen.getByRole('button', { name: 'Make private' }))
    expect(await screen.findByText('Private: only you can see it.')).toBeInTheDocument()
    expect(sent).toEqual([{ visibility: 'link' }, { visibility: 'private' }])
  })

  it('its owner renames it, checked while typing, and the page shows the new name', async () => {
    signInForTest()
    const sent: unknown[] = []
    server.use(
      http.put(`/api/wumpuses/${remix._id}`, async ({ request }) => {
        const body = (await request.json()) as { name: string }
        sent.push(body)
        return HttpResponse.json({ ...remix, name: body.name, gif: `/api/files/${'f'.repeat(24)}/waving-back-in-pink.gif` })
      }),
    )
    const { user } = renderApp(`/wumpus/${remix._id}`)
    await user.click(await screen.findByRole('button', { name: 'Rename' }))
    const name = screen.getByRole('textbox', { name: 'Name of your version' })
    expect(name).toHaveValue('Happy Wumpus')
    await user.clear(name)
    await user.type(name, 'ab')
    expect(screen.getByText('A name has at least 3 characters')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save name' })).toBeDisabled()
    await user.type(name, 'c, in pink')
    await user.click(screen.getByRole('button', { name: 'Save name' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'abc, in pink' })).toBeInTheDocument()
    expect(sent).toEqual([{ name: 'abc, in pink' }])
    expect(screen.queryByRole('textbox', { name: 'Name of your version' })).not.toBeInTheDocument()
  })

  it('someone else is offered no Rename', async () => {
    signInForTest({ email: 'grace@example.com' })
    server.use(wumpusDetailHandler([original, { ...remix, visibility: 'link' }]))
    renderApp(`/wumpus/${remix._id}`)
    await screen.findByText(/version of/)
    expect(screen.queryByRole('button', { name: 'Rename' })).not.toBeInTheDocument()
  })

  it('its owner deletes it and lands on My animation', async () => {
    signInForTest()
    const deleted: string[] = []
    server.use(
      http.delete('/api/wumpus/:id', ({ params }) => {
        deleted.push(String(params.id))
        return HttpResponse.json({ deletedCount: 1 })
      }),
      http.get('/api/wumpus', () => HttpResponse.json([], { headers: { 'X-Total-Count': '0' } })),
    )
    const { user, router } = renderApp(`/wumpus/${remix._id}`)
    await user.click(await screen.findByRole('button', { name: 'Delete' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete Happy Wumpus?' })
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/own'))
    expect(deleted).toEqual([remix._id])
  })

  it('someone else sees a shared remix as its owner’s version, without its owner’s buttons', async () => {
    signInForTest({ email: 'grace@example.com' })
    server.use(wumpusDetailHandler([original, { ...remix, visibility: 'link' }]))
    renderApp(`/wumpus/${remix._id}`)
    await waitFor(() => expect(screen.getByText(/version of/)).toHaveTextContent('Ada Lovelace’s version of Happy Wumpus'))
    expect(screen.queryByRole('button', { name: 'Make private' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
  })
})

describe('My remixes', () => {
  beforeEach(() => {
    server.use(
      http.get('/api/admin/:email', () => HttpResponse.json({ admin: false })),
      http.get('/api/me/favourite-ids', () => HttpResponse.json([])),
    )
  })

  it('says how to make one when there are none', async () => {
    signInForTest()
    server.use(http.get('/api/wumpus', () => HttpResponse.json([], { headers: { 'X-Total-Count': '0' } })))
    renderApp('/dashboard/own')
    const section = await screen.findByRole('region', { name: 'My remixes' })
    expect(section).toHaveTextContent('No remixes yet. Open any sticker in the gallery and choose “Make it yours”')
  })

  it('lists one’s remixes, newest first, beside one’s uploads', async () => {
    signInForTest()
    const older = makeWumpus(9, { name: 'Older remix', remixOf: original._id })
    server.use(
      http.get('/api/wumpus', () => HttpResponse.json([], { headers: { 'X-Total-Count': '0' } })),
      http.get('/api/me/remixes', () => HttpResponse.json([remix, older], { headers: { 'X-Total-Count': '2' } })),
    )
    renderApp('/dashboard/own')
    const list = await screen.findByRole('list', { name: 'My remixes' })
    expect(
      within(list)
        .getAllByRole('heading')
        .map((heading) => heading.textContent),
    ).toEqual(['Happy Wumpus', 'Older remix'])
  })
})

import 'fake-indexeddb/auto'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PackDetail } from '../../../../contract/pack'
import { wumpusListHandler } from '../../../test/api-handlers'
import { makeWumpus, makeWumpuses } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { signInForTest } from '../../../test/session'
import { goOffline } from '../../../test/offline-data'
import { forgetQueuedWrites, pendingWrites, sendQueuedWrites } from '../../../lib/local-data/outbox'
import { PackEditor, type PackOwner } from './pack-editor'

const gallery = [
  makeWumpus(1, { name: 'Waving Wumpus' }),
  makeWumpus(2, { name: 'Sleepy Wumpus' }),
  makeWumpus(3, { name: 'Dancing Wumpus' }),
  ...makeWumpuses(4, 3).map((w, i) => ({ ...w, name: `Robot ${i}` })),
]
const PACK_ID = 'f'.repeat(24)

function packWriteHandlers() {
  const bodies: { method: string; body: unknown }[] = []
  const answer = async ({ request }: { request: Request }) => {
    if (!navigator.onLine) return HttpResponse.error()
    const body = (await request.json()) as { name: string; wumpusIds: string[] }
    bodies.push({ method: request.method, body })
    if (body.name === 'Taken Name') {
      return HttpResponse.json(
        {
          error: {
            code: 'BAD_REQUEST',
            message: 'One sticker does not exist (any more): 000000000000000000000009',
            details: { field: 'wumpusIds' },
          },
        },
        { status: 400 },
      )
    }
    return HttpResponse.json({
      id: PACK_ID,
      ...body,
      description: '',
      coverWumpusId: body.wumpusIds[0],
      cover: null,
      createdBy: 'boss@example.com',
      createdAt: '',
      updatedAt: '',
    })
  }
  return {
    bodies,
    handlers: [http.post('/api/packs', answer), http.post('/api/me/packs', answer), http.put(`/api/packs/${PACK_ID}`, answer)],
  }
}

async function setup(pack?: PackDetail, owner?: PackOwner) {
  const writes = packWriteHandlers()
  server.use(wumpusListHandler(gallery).handler, ...writes.handlers)
  const onSaved = vi.fn()
  const view = renderWithProviders(<PackEditor pack={pack} owner={owner} onSaved={onSaved} />, { path: '/dashboard/packs/new' })
  await screen.findByRole('list', { name: 'Search results' })
  return { ...view, onSaved, bodies: writes.bodies }
}

const packList = () => screen.queryByRole('list', { name: 'Stickers in this pack' })
const packNames = () =>
  within(packList()!)
    .getAllByRole('listitem')
    .map((item) =>
      item.textContent
        ?.replace(/^\d+/, '')
        .replace(/Cover.*$/, '')
        .trim(),
    )

describe('PackEditor', () => {
  it('makes a pack: name, stickers added from the gallery search, reordered, one removed, a cover chosen', async () => {
    const { user, bodies, onSaved } = await setup()
    await user.click(screen.getByLabelText(/Name/))
    await user.paste('Greeting Wumpuses')
    await user.click(screen.getByLabelText(/Description/))
    await user.paste('Hello and goodnight')

    // The gallery's own search finds stickers to add.
    await user.type(screen.getByRole('searchbox', { name: 'Search the gallery for stickers' }), 'wump')
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Search results' })).getAllByRole('listitem')).toHaveLength(3))
    const results = screen.getByRole('list', { name: 'Search results' })
    await user.click(within(results).getByRole('button', { name: 'Add Waving Wumpus' }))
    await user.click(within(results).getByRole('button', { name: 'Add Sleepy Wumpus' }))
    await user.click(within(results).getByRole('button', { name: 'Add Dancing Wumpus' }))
    expect(within(results).getByRole('button', { name: 'Add Waving Wumpus' })).toBeDisabled()
    expect(packNames()).toEqual(['Waving Wumpus', 'Sleepy Wumpus', 'Dancing Wumpus'])

    await user.click(screen.getByRole('button', { name: 'Move Dancing Wumpus up' }))
    expect(packNames()).toEqual(['Waving Wumpus', 'Dancing Wumpus', 'Sleepy Wumpus'])
    await user.click(screen.getByRole('button', { name: 'Move Waving Wumpus down' }))
    expect(packNames()).toEqual(['Dancing Wumpus', 'Waving Wumpus', 'Sleepy Wumpus'])
    expect(screen.getByRole('button', { name: 'Move Dancing Wumpus up' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Move Sleepy Wumpus down' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Remove Waving Wumpus from the pack' }))
    expect(packNames()).toEqual(['Dancing Wumpus', 'Sleepy Wumpus'])
    // The first sticker is the cover until another is chosen.
    expect(screen.getByRole('radio', { name: 'Use Dancing Wumpus as the cover' })).toBeChecked()
    await user.click(screen.getByRole('radio', { name: 'Use Sleepy Wumpus as the cover' }))

    await user.click(screen.getByRole('button', { name: 'Create pack' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce())
    expect(bodies).toEqual([
      {
        method: 'POST',
        body: {
          name: 'Greeting Wumpuses',
          description: 'Hello and goodnight',
          wumpusIds: [gallery[2]!._id, gallery[1]!._id],
          coverWumpusId: gallery[1]!._id,
        },
      },
    ])
    expect(await screen.findByText('Pack created')).toBeInTheDocument()
  })

  it('checks before sending: a name and at least one sticker', async () => {
    const { user, bodies } = await setup()
    await user.click(screen.getByRole('button', { name: 'Create pack' }))
    expect(await screen.findByText('Name should be at least 3 characters')).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('Add at least one sticker')
    expect(bodies).toEqual([])
  })

  it('says beside the button why an empty pack was not created, and takes each message back as the field is fixed', async () => {
    const { user, bodies } = await setup()
    const create = screen.getByRole('button', { name: 'Create pack' })
    await user.click(create)
    expect(create).toHaveAccessibleDescription('Not created yet: Name should be at least 3 characters. Add at least one sticker.')

    await user.type(screen.getByLabelText(/Name/), 'Hel')
    expect(screen.queryByText('Name should be at least 3 characters')).not.toBeInTheDocument()
    expect(create).toHaveAccessibleDescription('Not created yet: Add at least one sticker.')
    await user.clear(screen.getByLabelText(/Name/))
    expect(screen.getByText('Name should be at least 3 characters')).toBeInTheDocument()
    await user.type(screen.getByLabelText(/Name/), 'Hello pack')

    await user.click(within(screen.getByRole('list', { name: 'Search results' })).getAllByRole('button', { name: /^Add / })[0]!)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(create).not.toHaveAccessibleDescription()
    expect(bodies).toEqual([])
  })

  it('edits an existing pack from its stored values and shows what the server refused', async () => {
    const items = [gallery[0]!, gallery[1]!]
    const pack: PackDetail = {
      id: PACK_ID,
      name: 'Old Name',
      description: 'Kept',
      coverWumpusId: items[1]!._id,
      visibility: 'public',
      wumpusIds: items.map((w) => w._id),
      cover: items[1]!,
      createdBy: 'boss@example.com',
      createdAt: '',
      updatedAt: '',
      items,
      downloads: [],
    }
    const { user, bodies, onSaved } = await setup(pack)
    expect(screen.getByLabelText(/Name/)).toHaveValue('Old Name')
    expect(packNames()).toEqual(['Waving Wumpus', 'Sleepy Wumpus'])
    expect(screen.getByRole('radio', { name: 'Use Sleepy Wumpus as the cover' })).toBeChecked()

    await user.clear(screen.getByLabelText(/Name/))
    await user.paste('Taken Name')
    await user.click(screen.getByRole('button', { name: 'Save pack' }))
    expect(await screen.findByText('Could not save the pack')).toBeInTheDocument()
    expect(onSaved).not.toHaveBeenCalled()

    await user.clear(screen.getByLabelText(/Name/))
    await user.paste('New Name')
    await user.click(screen.getByRole('button', { name: 'Remove Sleepy Wumpus from the pack' }))
    expect(screen.getByRole('radio', { name: 'Use Waving Wumpus as the cover' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Save pack' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce())
    expect(bodies.at(-1)).toEqual({
      method: 'PUT',
      body: { name: 'New Name', description: 'Kept', wumpusIds: [items[0]!._id], coverWumpusId: items[0]!._id },
    })
  })
})

describe('PackEditor for a personal pack', () => {
  const ADA: PackOwner = { email: 'ada@example.com', emailVerified: true }
  const items = [gallery[0]!, gallery[1]!, gallery[2]!]
  const mine: PackDetail = {
    id: PACK_ID,
    name: 'Night pack',
    description: 'Sleepy ones',
    coverWumpusId: items[0]!._id,
    visibility: 'private',
    wumpusIds: items.map((w) => w._id),
    cover: items[0]!,
    createdBy: ADA.email,
    createdAt: '',
    updatedAt: '',
    items,
    downloads: [],
  }

  beforeEach(async () => {
    signInForTest({ email: ADA.email })
    await forgetQueuedWrites()
  })
  afterEach(() => vi.restoreAllMocks())

  it('makes a private pack unless shared by link: POST /api/me/packs with the visibility', async () => {
    const { user, bodies, onSaved } = await setup(undefined, ADA)
    expect(screen.getByRole('radio', { name: /^Private/ })).toBeChecked()
    expect(screen.queryByRole('button', { name: 'Copy link' })).not.toBeInTheDocument()
    await user.click(screen.getByLabelText(/Name/))
    await user.paste('Night pack')
    await user.click(screen.getByRole('button', { name: 'Add Sleepy Wumpus' }))
    await user.click(screen.getByRole('radio', { name: /^Anyone with the link/ }))
    await user.click(screen.getByRole('button', { name: 'Create pack' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce())
    expect(bodies).toEqual([
      {
        method: 'POST',
        body: { name: 'Night pack', description: '', wumpusIds: [gallery[1]!._id], coverWumpusId: gallery[1]!._id, visibility: 'link' },
      },
    ])
  })

  it('sends an edit as a PUT of the changed fields only, with the time of the edit', async () => {
    const { user, bodies, onSaved } = await setup(mine, ADA)
    await user.clear(screen.getByLabelText(/Name/))
    await user.paste('Moon pack')
    await user.click(screen.getByRole('button', { name: 'Move Dancing Wumpus up' }))
    await user.click(screen.getByRole('radio', { name: /^Anyone with the link/ }))
    const before = Date.now()
    await user.click(screen.getByRole('button', { name: 'Save pack' }))
    await waitFor(() => expect(bodies).toHaveLength(1))
    expect(bodies[0]).toEqual({
      method: 'PUT',
      body: {
        name: 'Moon pack',
        wumpusIds: [items[0]!._id, items[2]!._id, items[1]!._id],
        visibility: 'link',
        editedAt: expect.any(String),
      },
    })
    const editedAt = Date.parse((bodies[0]!.body as { editedAt: string }).editedAt)
    expect(editedAt).toBeGreaterThanOrEqual(before)
    expect(editedAt).toBeLessThanOrEqual(Date.now())
    expect(onSaved).toHaveBeenCalledOnce()
    expect(await screen.findByText('Pack saved')).toBeInTheDocument()
  })

  it('keeps an edit made offline on the device and sends it when the connection returns', async () => {
    goOffline()
    const { user, bodies, onSaved } = await setup(mine, ADA)
    expect(screen.queryByText('You are offline: this needs the network')).not.toBeInTheDocument()
    await user.clear(screen.getByLabelText(/Description/))
    await user.paste('Moonlit ones')
    await user.click(screen.getByRole('button', { name: 'Save pack' }))
    expect(await screen.findByText('Pack saved on this device')).toBeInTheDocument()
    expect(onSaved).toHaveBeenCalledOnce()
    expect((await pendingWrites(ADA.email)).map((write) => write.body)).toEqual([
      { description: 'Moonlit ones', editedAt: expect.any(String) },
    ])
    expect(bodies).toEqual([])

    goOffline(false)
    await sendQueuedWrites(ADA.email)
    expect(bodies).toEqual([{ method: 'PUT', body: { description: 'Moonlit ones', editedAt: expect.any(String) } }])
  })

  it('offers Copy link for a pack shared by link', async () => {
    const { user } = await setup({ ...mine, visibility: 'link' }, ADA)
    expect(screen.getByRole('radio', { name: /^Anyone with the link/ })).toBeChecked()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    await user.click(screen.getByRole('button', { name: 'Copy link' }))
    expect(await screen.findByText('Link copied')).toBeInTheDocument()
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/packs/${PACK_ID}`)
    await user.click(screen.getByRole('radio', { name: /^Private/ }))
    expect(screen.queryByRole('button', { name: 'Copy link' })).not.toBeInTheDocument()
  })

  it('says that making packs needs a verified email', async () => {
    await setup(undefined, { ...ADA, emailVerified: false })
    expect(screen.getByText('Verify your email address first')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create pack' })).toBeDisabled()
  })
})

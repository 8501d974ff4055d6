import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import type { PackDetail } from '../../../../contract/pack'
import { wumpusListHandler } from '../../../test/api-handlers'
import { makeWumpus, makeWumpuses } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { PackEditor } from './pack-editor'

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
  return { bodies, handlers: [http.post('/api/packs', answer), http.put(`/api/packs/${PACK_ID}`, answer)] }
}

async function setup(pack?: PackDetail) {
  const writes = packWriteHandlers()
  server.use(wumpusListHandler(gallery).handler, ...writes.handlers)
  const onSaved = vi.fn()
  const view = renderWithProviders(<PackEditor pack={pack} onSaved={onSaved} />, { path: '/dashboard/packs/new' })
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

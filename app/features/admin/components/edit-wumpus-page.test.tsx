import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { animationUploadHandler, apiError, makeUploadedFile, updateWumpusHandler } from '../../../test/admin-handlers'
import { stickersHandler, wumpusDetailHandler } from '../../../test/api-handlers'
import { makeStickers, makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { EditWumpusPage } from './edit-wumpus-page'

const OWNER = 'ana@example.com'
const LINE_REASON = 'The animation runs 6 s; LINE allows 4 s in all'
const wumpus = makeWumpus(7, {
  name: 'Sleepy Wumpus',
  description: 'Yawns and stretches',
  u_email: OWNER,
  u_name: 'Ana',
  tags: ['sleepy', 'night'],
})

async function setup({ email = OWNER, isAdmin = false, answer }: { email?: string; isAdmin?: boolean; answer?: Response } = {}) {
  const update = updateWumpusHandler(wumpus, { answer })
  const stickers = makeStickers(wumpus, { absent: { line: LINE_REASON } })
  server.use(wumpusDetailHandler([wumpus]), update.handler, stickersHandler({ [wumpus._id]: stickers }))
  const view = renderWithProviders(<EditWumpusPage id={wumpus._id} email={email} isAdmin={isAdmin} />, {
    path: `/editWumpus/${wumpus._id}`,
  })
  await screen.findByRole('heading', { level: 1, name: 'Edit animation' })
  return { ...view, bodies: update.bodies }
}

const save = () => screen.getByRole('button', { name: 'Save changes' })

describe('EditWumpusPage', () => {
  it('lets the uploader edit: the fields start with the current values and all are optional', async () => {
    await setup()

    expect(screen.getByLabelText('Animation name')).toHaveValue('Sleepy Wumpus')
    expect(screen.getByLabelText('Animation description')).toHaveValue('Yawns and stretches')
    expect(screen.getByLabelText('Lottie link')).toHaveValue('')
    expect(screen.getByRole('button', { name: 'Upload .png file' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Upload .gif file' })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Sleepy Wumpus: Yawns and stretches (current GIF)' })).toHaveAttribute('src', wumpus.gif)
  })

  it('sends only the changed fields, then says so and stays, with the platform exports below', async () => {
    const { user, bodies, router } = await setup()
    const exports = screen.getByRole('region', { name: 'Platform exports' })
    expect(await within(exports).findByRole('listitem', { name: 'LINE: Missing' })).toHaveTextContent(LINE_REASON)

    await user.clear(screen.getByLabelText('Animation name'))
    await user.type(screen.getByLabelText('Animation name'), 'Very Sleepy Wumpus')
    await user.click(save())

    expect(await screen.findByText('Animation updated')).toBeInTheDocument()
    expect(bodies).toEqual([{ name: 'Very Sleepy Wumpus' }])
    expect(await screen.findByText('Changes saved')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'View animation' })).toHaveAttribute('href', `/wumpus/${wumpus._id}`)
    expect(router.state.location.pathname).toBe(`/editWumpus/${wumpus._id}`)
    const exportsAfter = screen.getByRole('region', { name: 'Platform exports' })
    expect(within(exportsAfter).getByRole('listitem', { name: 'Discord: Made' })).toBeInTheDocument()
  })

  it('shows the current tags and sends the new list when they change', async () => {
    const { user, bodies } = await setup()
    const tags = screen.getByRole('combobox', { name: 'Tags' })
    expect(screen.getByText('sleepy')).toBeInTheDocument()
    expect(screen.getByText('night')).toBeInTheDocument()

    // Backspace in the empty input removes the last tag; a new one is normalized as it is added.
    await user.type(tags, '{Backspace}Tired Out{Enter}')
    await user.click(save())

    expect(await screen.findByText('Animation updated')).toBeInTheDocument()
    expect(bodies).toEqual([{ tags: ['sleepy', 'tired-out'] }])
  })

  it('says when the animation has no emoji, and sends the emoji and keywords picked', async () => {
    const { user, bodies } = await setup()
    expect(screen.getByText('No emoji yet')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Add emoji' }))
    await user.type(await screen.findByRole('textbox', { name: 'Search emoji' }), 'sleeping')
    await user.click(within(screen.getByRole('group', { name: 'Matching emoji' })).getByRole('button', { name: 'sleeping face' }))
    // One already chosen cannot be picked twice.
    expect(within(screen.getByRole('group', { name: 'Matching emoji' })).getByRole('button', { name: 'sleeping face' })).toBeDisabled()
    await user.keyboard('{Escape}')
    await user.type(screen.getByRole('combobox', { name: 'Keywords' }), 'Bedtime{Enter}')
    await user.click(save())

    expect(await screen.findByText('Animation updated')).toBeInTheDocument()
    expect(bodies).toEqual([{ emoji: ['😴'], keywords: ['bedtime'] }])
  })

  it('sends a newly uploaded file by its id, and an emptied field falls back to the current value', async () => {
    const gif = makeUploadedFile('gif')
    server.use(animationUploadHandler({ gif }).handler)
    const { user, bodies } = await setup()

    await user.clear(screen.getByLabelText('Animation description'))
    await user.upload(screen.getByTestId('gif-file'), new File([new Uint8Array([1])], 'new.gif', { type: 'image/gif' }))
    expect(await screen.findByRole('group', { name: 'GIF preview' })).toBeInTheDocument()
    await user.click(save())

    await waitFor(() => expect(bodies).toEqual([{ files: { gif: gif.id } }]))
  })

  it('marks the animation sensitive with its checkbox, sending only that', async () => {
    const { user, bodies } = await setup({ isAdmin: true, email: 'admin@example.com' })
    const sensitive = screen.getByRole('checkbox', { name: /^Sensitive/ })
    expect(sensitive).not.toBeChecked()
    await user.click(sensitive)
    await user.click(save())
    expect(await screen.findByText('Animation updated')).toBeInTheDocument()
    expect(bodies).toEqual([{ sensitive: true }])
  })

  it('sends nothing when nothing changed', async () => {
    const { user, bodies } = await setup()

    await user.click(save())

    expect(await screen.findByText('Nothing to update: no field was changed')).toBeInTheDocument()
    expect(bodies).toEqual([])
  })

  it('checks changed fields with the add form rules', async () => {
    const { user, bodies } = await setup()

    await user.clear(screen.getByLabelText('Animation name'))
    await user.type(screen.getByLabelText('Animation name'), 'ab')
    await user.click(save())

    expect(await screen.findByText('Name should be at least 3 characters')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Animation name'), 'c')
    await waitFor(() => expect(screen.queryByText('Name should be at least 3 characters')).not.toBeInTheDocument())
    expect(bodies).toEqual([])
  })

  it('lets an admin edit an animation someone else uploaded', async () => {
    await setup({ email: 'root@example.com', isAdmin: true })
    expect(save()).toBeInTheDocument()
  })

  it('refuses anyone else, without the form', async () => {
    await setup({ email: 'mallory@example.com', isAdmin: false })

    expect(screen.getByRole('alert')).toHaveTextContent('Only admins and the uploader can edit this animation')
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Animation name')).not.toBeInTheDocument()
  })

  it('says so when the server refuses the change', async () => {
    const { user } = await setup({ answer: apiError(403, 'FORBIDDEN', 'Not yours') })

    await user.type(screen.getByLabelText('Animation name'), ' II')
    await user.click(save())

    expect(await screen.findByText('Only admins and the uploader can edit this animation')).toBeInTheDocument()
  })
})

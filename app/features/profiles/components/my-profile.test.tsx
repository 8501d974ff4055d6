import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { QueryClient } from '@tanstack/react-query'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { ACCESS_TOKEN_KEY } from '../../../lib/api-client'
import { createSessionStore } from '../../../lib/session'
import { makeUser } from '../../../test/profile-fixtures'
import { profileHandler, updateProfileHandler } from '../../../test/profile-handlers'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { makeSessionToken } from '../../../test/session'
import { DEFAULT_AVATAR } from '../api'
import { tagKeys, wumpusKeys } from '../../../entities/wumpus/api'
import { MyProfile } from './my-profile'

const UPLOADED = '/api/files/0123456789abcdef01234567/me.png'

function setup(
  overrides: Parameters<typeof makeUser>[0] = {},
  props: { onTokenRenewed?: (token: string) => void; emailVerified?: boolean } = {},
) {
  const user = makeUser(overrides)
  const profile = profileHandler([user])
  const update = updateProfileHandler(user)
  server.use(profile.handler, update.handler)
  const view = renderWithProviders(<MyProfile email={user.email} onTokenRenewed={vi.fn()} {...props} />)
  return { ...view, account: user, profileRequests: profile.requests, bodies: update.bodies }
}

async function summary() {
  return within(await screen.findByRole('region', { name: 'Your profile' }))
}

function pngFile(name = 'me.png') {
  return new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' })
}

/** POST /api/uploads/image that answers only when the test says so. */
function controlledUpload() {
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  let requests = 0
  server.use(
    http.post('/api/uploads/image', async () => {
      requests += 1
      await gate
      return HttpResponse.json({ url: UPLOADED }, { status: 201 })
    }),
  )
  return { release, requests: () => requests }
}

describe('MyProfile', () => {
  it('asks to verify the email first, and sends nothing, while the email is not verified', async () => {
    const { bodies } = setup({}, { emailVerified: false })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Verify your email address first')
    expect(within(alert).getByRole('link', { name: 'Verify it or send the email again' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/emailVerification\?from=%2F/),
    )
    expect(screen.getByRole('button', { name: 'Update Profile' })).toBeDisabled()
    expect(bodies).toHaveLength(0)
  })

  it('shows the default avatar, name, masked email and N/A for what is not filled in', async () => {
    setup()
    const card = await summary()

    expect(card.getByRole('img', { name: 'Your photo' })).toHaveAttribute('src', DEFAULT_AVATAR)
    expect(card.getByRole('heading', { name: 'Ana Smith' })).toBeInTheDocument()
    expect(card.getByText('ana...@example.com')).toBeInTheDocument()
    expect(card.queryByText('ana.smith@example.com')).not.toBeInTheDocument()
    expect(card.getByText('About').nextElementSibling).toHaveTextContent('N/A')
    expect(card.getByText('Job').nextElementSibling).toHaveTextContent('N/A')
  })

  it('shows the stored photo, description and job', async () => {
    setup({ photo: UPLOADED, description: 'I draw mascots', job: 'Illustrator' })
    const card = await summary()

    expect(card.getByRole('img', { name: 'Your photo' })).toHaveAttribute('src', UPLOADED)
    expect(card.getByText('About').nextElementSibling).toHaveTextContent('I draw mascots')
    expect(card.getByText('Job').nextElementSibling).toHaveTextContent('Illustrator')
    expect(card.queryByText('N/A')).not.toBeInTheDocument()
  })

  it('has the profile fields, prefilled, and no note about waiting for an image before one is chosen', async () => {
    setup({ job: 'Illustrator' })

    expect(await screen.findByLabelText('Name')).toHaveValue('Ana Smith')
    expect(screen.getByLabelText('Custom Url')).toHaveValue('')
    expect(screen.getByLabelText('About you')).toHaveValue('')
    expect(screen.getByLabelText('Job')).toHaveValue('Illustrator')
    expect(screen.getByRole('button', { name: 'Photo' })).toBeInTheDocument()
    expect(screen.getByTestId('photo-file')).toHaveAttribute('type', 'file')
    expect(screen.queryByText(/wait for the uploaded image to load/i)).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Update Profile' })).toBeEnabled()
  })

  it('sends only the changed fields, hands the renewed token to the session and shows the new values', async () => {
    const onTokenRenewed = vi.fn()
    const { user, bodies, profileRequests } = setup({ job: 'Illustrator' }, { onTokenRenewed })

    const job = await screen.findByLabelText('Job')
    await user.clear(job)
    await user.type(job, 'Animator')
    await user.type(screen.getByLabelText('About you'), 'Makes wumpuses dance')
    // Emptied: falls back to the stored name, so it is not sent.
    await user.clear(screen.getByLabelText('Name'))
    await user.click(screen.getByRole('button', { name: 'Update Profile' }))

    expect(await screen.findByText('Profile updated')).toBeInTheDocument()
    expect(bodies).toEqual([{ job: 'Animator', description: 'Makes wumpuses dance' }])
    expect(onTokenRenewed).toHaveBeenCalledWith('renewed.session.token')
    // Only the session writes the token.
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull()

    const card = await summary()
    await waitFor(() => expect(card.getByText('Job').nextElementSibling).toHaveTextContent('Animator'))
    expect(card.getByText('About').nextElementSibling).toHaveTextContent('Makes wumpuses dance')
    // Fetched once on load, then again after the update.
    await waitFor(() => expect(profileRequests).toHaveLength(2))
    expect(screen.getByLabelText('Name')).toHaveValue('Ana Smith')
  })

  it('with the session store: the renewed token is stored and the session carries the new name', async () => {
    const account = makeUser({ user_name: 'Ana Smith' })
    const renewed = makeSessionToken({ email: account.email, name: 'Ana Painter' })
    const profile = profileHandler([account])
    const update = updateProfileHandler(account, { token: renewed })
    server.use(profile.handler, update.handler)
    const session = createSessionStore({ queryClient: new QueryClient() })
    const { user } = renderWithProviders(<MyProfile email={account.email} onTokenRenewed={session.setToken} />)

    await user.type(await screen.findByLabelText('Job'), 'Painter')
    await user.click(screen.getByRole('button', { name: 'Update Profile' }))

    expect(await screen.findByText('Profile updated')).toBeInTheDocument()
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe(renewed)
    expect(session.getSnapshot()).toMatchObject({ status: 'signed-in', user: { name: 'Ana Painter' } })
  })

  it("says 'Profile not updated' when the server changed nothing", async () => {
    const account = makeUser()
    server.use(
      profileHandler([account]).handler,
      http.put('/api/user/:email', () => HttpResponse.json({ modifiedCount: 0, user: account, token: 't.o.k' })),
    )
    const { user } = renderWithProviders(<MyProfile email={account.email} onTokenRenewed={vi.fn()} />)

    await user.type(await screen.findByLabelText('Job'), 'Painter')
    await user.click(screen.getByRole('button', { name: 'Update Profile' }))

    expect(await screen.findByText('Profile not updated')).toBeInTheDocument()
    expect(screen.queryByText('Profile updated')).not.toBeInTheDocument()
  })

  it("does not call the server when nothing changed, and says 'Profile not updated'", async () => {
    const { user, bodies } = setup()

    await user.click(await screen.findByRole('button', { name: 'Update Profile' }))

    expect(await screen.findByText('Profile not updated')).toBeInTheDocument()
    expect(bodies).toHaveLength(0)
  })

  it("shows the server's message in a toast when the update fails", async () => {
    const account = makeUser()
    server.use(
      profileHandler([account]).handler,
      http.put('/api/user/:email', () =>
        HttpResponse.json({ error: { code: 'STORE_UNAVAILABLE', message: 'The store is resting' } }, { status: 503 }),
      ),
    )
    const { user } = renderWithProviders(<MyProfile email={account.email} onTokenRenewed={vi.fn()} />)

    await user.type(await screen.findByLabelText('Job'), 'Painter')
    await user.click(screen.getByRole('button', { name: 'Update Profile' }))

    expect(await screen.findByText('The store is resting')).toBeInTheDocument()
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull()
  })

  it('checks the changed fields with the contract rules before sending', async () => {
    const { user, bodies } = setup()

    await user.type(await screen.findByLabelText('Custom Url'), 'not a link')
    await user.click(screen.getByRole('button', { name: 'Update Profile' }))

    expect(await screen.findByText('Must be an http(s) link')).toBeInTheDocument()
    expect(bodies).toHaveLength(0)
  })

  it('uploads the photo on selection, waits for it to load, then sends its url', async () => {
    const upload = controlledUpload()
    const { user, bodies } = setup()
    const updateButton = await screen.findByRole('button', { name: 'Update Profile' })

    await user.upload(screen.getByTestId('photo-file'), pngFile())

    // Uploading: progress shown, update disabled.
    expect(await screen.findByRole('progressbar', { name: 'Uploading photo' })).toBeInTheDocument()
    expect(updateButton).toBeDisabled()
    // The spec's red note says why, while it has to be waited for.
    expect(screen.getByText('Please wait for the uploaded image to load before you click Update Profile.')).toBeInTheDocument()
    // Sent once the upload code (loaded on first use) is there.
    await waitFor(() => expect(upload.requests()).toBe(1))

    upload.release()
    // Uploaded, preview still loading: still disabled.
    const preview = await screen.findByRole('img', { name: 'Photo preview' })
    expect(preview).toHaveAttribute('src', UPLOADED)
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    expect(screen.getByText('Loading the uploaded image…')).toBeInTheDocument()
    expect(updateButton).toBeDisabled()

    fireEvent.load(preview)
    await waitFor(() => expect(updateButton).toBeEnabled())
    expect(screen.getByText('Image ready')).toBeInTheDocument()
    expect(screen.queryByText(/wait for the uploaded image to load/i)).not.toBeInTheDocument()

    await user.click(updateButton)
    expect(await screen.findByText('Profile updated')).toBeInTheDocument()
    expect(bodies).toEqual([{ photo: UPLOADED }])
    const card = await summary()
    await waitFor(() => expect(card.getByRole('img', { name: 'Your photo' })).toHaveAttribute('src', UPLOADED))
  })

  it('refuses a file that is not an image without uploading it', async () => {
    const upload = controlledUpload()
    setup()
    await screen.findByRole('button', { name: 'Update Profile' })

    // The picker filters by `accept`, but a user can still choose "All files".
    fireEvent.change(screen.getByTestId('photo-file'), {
      target: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] },
    })

    expect(await screen.findByText('Choose a png, gif, jpeg or webp image.')).toBeInTheDocument()
    expect(upload.requests()).toBe(0)
    expect(screen.getByRole('button', { name: 'Update Profile' })).toBeEnabled()
  })

  it("shows the server's message when the upload is refused and lets the form go on", async () => {
    server.use(
      http.post('/api/uploads/image', () =>
        HttpResponse.json({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Images can be at most 4 MB' } }, { status: 413 }),
      ),
    )
    const { user, bodies } = setup()
    await screen.findByRole('button', { name: 'Update Profile' })

    await user.upload(screen.getByTestId('photo-file'), pngFile())

    expect(await screen.findByText('Upload failed')).toBeInTheDocument()
    expect(screen.getAllByText('Images can be at most 4 MB').length).toBeGreaterThan(0)
    await user.type(screen.getByLabelText('Job'), 'Painter')
    await user.click(screen.getByRole('button', { name: 'Update Profile' }))
    expect(await screen.findByText('Profile updated')).toBeInTheDocument()
    expect(bodies).toEqual([{ job: 'Painter' }])
  })

  it('can upload a cover too', async () => {
    server.use(http.post('/api/uploads/image', () => HttpResponse.json({ url: UPLOADED }, { status: 201 })))
    const { user, bodies } = setup()
    await screen.findByRole('button', { name: 'Update Profile' })

    await user.upload(screen.getByTestId('cover-file'), pngFile('cover.png'))
    fireEvent.load(await screen.findByRole('img', { name: 'Cover preview' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Update Profile' })).toBeEnabled())
    await user.click(screen.getByRole('button', { name: 'Update Profile' }))

    expect(await screen.findByText('Profile updated')).toBeInTheDocument()
    expect(bodies).toEqual([{ cover: UPLOADED }])
  })

  it('turns sensitive stickers on and off at once, and asks the gallery again each time', async () => {
    const { user, bodies, queryClient } = setup()
    // A gallery page and tag counts the app holds: stale after each change, so they are fetched again.
    queryClient.setQueryData(wumpusKeys.list({}), [])
    queryClient.setQueryData(tagKeys.top(12), [])
    await screen.findByRole('button', { name: 'Update Profile' })
    const toggle = await screen.findByRole('switch', { name: /^Show sensitive stickers/ })
    expect(toggle).not.toBeChecked()
    expect(screen.getByText(/stay out of the gallery and search unless you turn this on/)).toBeInTheDocument()

    await user.click(toggle)
    expect(await screen.findByText('Sensitive stickers are shown')).toBeInTheDocument()
    expect(bodies).toEqual([{ showSensitive: true }])
    await waitFor(() => expect(screen.getByRole('switch', { name: /^Show sensitive stickers/ })).toBeChecked())
    expect(queryClient.getQueryState(wumpusKeys.list({}))?.isInvalidated).toBe(true)
    expect(queryClient.getQueryState(tagKeys.top(12))?.isInvalidated).toBe(true)

    queryClient.setQueryData(wumpusKeys.list({}), [])
    await user.click(screen.getByRole('switch', { name: /^Show sensitive stickers/ }))
    expect(await screen.findByText('Sensitive stickers are hidden')).toBeInTheDocument()
    expect(bodies).toEqual([{ showSensitive: true }, { showSensitive: false }])
    await waitFor(() => expect(screen.getByRole('switch', { name: /^Show sensitive stickers/ })).not.toBeChecked())
    expect(queryClient.getQueryState(wumpusKeys.list({}))?.isInvalidated).toBe(true)
  })

  it('shows the choice as saved, and keeps it locked until the email is verified', async () => {
    setup({ showSensitive: true }, { emailVerified: false })
    await screen.findByRole('button', { name: 'Update Profile' })
    const toggle = await screen.findByRole('switch', { name: /^Show sensitive stickers/ })
    expect(toggle).toBeChecked()
    expect(toggle).toBeDisabled()
  })
})

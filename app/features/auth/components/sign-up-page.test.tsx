import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as firebase from '../../../lib/firebase'
import { accountHandlers } from '../../../test/account-handlers'
import { wumpusListHandler } from '../../../test/api-handlers'
import { fakeAccount, firebaseError } from '../../../test/firebase-fake'
import { makeWumpuses } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'

vi.mock('../../../lib/firebase', () => import('../../../test/firebase-fake'))

beforeEach(() => {
  vi.resetAllMocks()
  vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount())
})

const field = (label: string) => screen.getByLabelText(label)
const submit = () => screen.getByRole('button', { name: 'Sign Up' })

async function fillIn(user: ReturnType<typeof renderApp>['user'], values: { name: string; email: string; password: string }) {
  await user.type(field('Name*'), values.name)
  await user.type(field('Email Address*'), values.email)
  await user.type(field('Password*'), values.password)
}

describe('sign-up page', () => {
  it('has a title, Google sign-up, the form fields and a link to sign in', async () => {
    renderApp('/signUp')
    expect(await screen.findByRole('heading', { level: 1, name: 'Create your account' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Sign up with Google' })).toBeInTheDocument()
    expect(field('Name*')).toBeInTheDocument()
    expect(field('Email Address*')).toHaveAttribute('type', 'email')
    expect(field('Password*')).toHaveAttribute('type', 'password')
    expect(document.querySelector('input[type="file"]')).toHaveAttribute('accept', '.png,.gif,.jpeg,.jpg')
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signIn')
  })

  it('checks every field on submit and again on change, with the messages of the product rules', async () => {
    const { user } = renderApp('/signUp')
    await screen.findByRole('heading', { name: 'Create your account' })

    await user.click(submit())
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Email is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()

    await user.type(field('Name*'), 'Ada!')
    expect(await screen.findByText('Provide a valid name')).toBeInTheDocument()
    await user.clear(field('Name*'))
    await user.type(field('Name*'), 'Ada')
    expect(await screen.findByText('Name should be at least 5 characters')).toBeInTheDocument()
    await user.type(field('Name*'), ' Lovelace')
    await waitFor(() => expect(screen.queryByText('Name should be at least 5 characters')).not.toBeInTheDocument())

    await user.type(field('Email Address*'), 'ada@example')
    expect(await screen.findByText('Provide a valid email address')).toBeInTheDocument()
    await user.type(field('Email Address*'), '.com')
    await waitFor(() => expect(screen.queryByText('Provide a valid email address')).not.toBeInTheDocument())

    await user.type(field('Password*'), '12345')
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument()
    await user.type(field('Password*'), '6')
    await waitFor(() => expect(screen.queryByText('Password must be at least 6 characters')).not.toBeInTheDocument())
    expect(firebase.signUpWithEmail).not.toHaveBeenCalled()
  })

  it('refuses a photo that is not png, gif, jpeg or jpg', async () => {
    const { user } = renderApp('/signUp')
    await screen.findByRole('heading', { name: 'Create your account' })
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!
    // The file picker honours accept; a browser without it (or a drop) could still hand over a PDF.
    await userEvent.setup({ applyAccept: false }).upload(input, new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }))
    await fillIn(user, { name: 'Ada Lovelace', email: 'ada@example.com', password: 'secret1' })
    await user.click(submit())
    expect(await screen.findByText('Photo must be a png, gif, jpeg or jpg image')).toBeInTheDocument()
    expect(firebase.signUpWithEmail).not.toHaveBeenCalled()
  })

  it('creates the account, uploads the photo, sets name and photo, sends the verification email', async () => {
    const { handlers, requests } = accountHandlers()
    server.use(...handlers)
    const account = fakeAccount({ email: 'ada@example.com' })
    vi.mocked(firebase.signUpWithEmail).mockResolvedValue(account)
    // Like the SDK: the signed-in account object takes the new name and photo.
    vi.mocked(firebase.updateAccountProfile).mockImplementation(async (changes) => void Object.assign(account, changes))
    const { user, router } = renderApp('/signUp')
    await screen.findByRole('heading', { name: 'Create your account' })

    await fillIn(user, { name: 'Ada Lovelace', email: 'ada@example.com', password: 'secret1' })
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['png'], 'me.png', { type: 'image/png' }))
    await user.click(submit())

    expect(await screen.findByText('Sign up success')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/emailVerification'))
    expect(firebase.signUpWithEmail).toHaveBeenCalledWith('ada@example.com', 'secret1')
    const photo = '/api/files/0123456789abcdef01234567/photo.png'
    // Name and photo go on the Firebase account (the name before the exchange, so the session has it);
    // the server takes them into the profile once the email is verified.
    expect(vi.mocked(firebase.updateAccountProfile).mock.calls).toEqual([
      [{ displayName: 'Ada Lovelace' }],
      [{ photoURL: `${window.location.origin}${photo}` }],
    ])
    expect(firebase.sendVerificationEmail).toHaveBeenCalledTimes(1)
    expect(requests.map((request) => `${request.method} ${request.url.pathname}`)).toEqual([
      'PUT /api/user/ada%40example.com', // Firebase ID token for our session token
      'POST /api/uploads/image',
    ])
    expect(requests[0]!.authorization).toBe('Bearer firebase-id-token:ada@example.com')
    expect(requests[0]!.body).toMatchObject({ email: 'ada@example.com', user_name: 'Ada Lovelace' })
    expect(requests[1]!.authorization).toMatch(/^Bearer ey/)
    expect(within(screen.getByRole('banner')).getByText('Ada Lovelace')).toBeInTheDocument()
  })

  it('still lets the user in when the photo is refused', async () => {
    const { handlers, requests } = accountHandlers()
    server.use(
      http.post('/api/uploads/image', () =>
        HttpResponse.json({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Not an image we can use.' } }, { status: 415 }),
      ),
      ...handlers,
    )
    vi.mocked(firebase.signUpWithEmail).mockResolvedValue(fakeAccount({ email: 'ada@example.com' }))
    const { user, router } = renderApp('/signUp')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fillIn(user, { name: 'Ada Lovelace', email: 'ada@example.com', password: 'secret1' })
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['?'], 'me.png', { type: 'image/png' }))
    await user.click(submit())

    expect(await screen.findByText(/Your photo could not be saved: Not an image we can use\./)).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/emailVerification'))
    expect(vi.mocked(firebase.updateAccountProfile).mock.calls).toEqual([[{ displayName: 'Ada Lovelace' }]])
    expect(requests.map((request) => request.method)).toEqual(['PUT'])
    expect(firebase.sendVerificationEmail).toHaveBeenCalledTimes(1)
  })

  it.each([
    [
      'auth/email-already-in-use',
      'Firebase: Error (auth/email-already-in-use).',
      'An account with this email address already exists. Sign in instead.',
    ],
    ['auth/some-new-code', 'Firebase: The provider said no (auth/some-new-code).', 'The provider said no'],
  ])('shows %s in a red card, trimmed to the human part', async (code, providerMessage, shown) => {
    vi.mocked(firebase.signUpWithEmail).mockRejectedValue(firebaseError(code, providerMessage))
    const { user, router } = renderApp('/signUp')
    await screen.findByRole('heading', { name: 'Create your account' })
    await fillIn(user, { name: 'Ada Lovelace', email: 'ada@example.com', password: 'secret1' })
    await user.click(submit())

    expect(await screen.findByRole('alert')).toHaveTextContent(shown)
    expect(screen.getByRole('alert')).not.toHaveTextContent('Firebase')
    expect(router.state.location.pathname).toBe('/signUp')
  })

  it('signs up with Google and goes home', async () => {
    server.use(...accountHandlers().handlers, wumpusListHandler(makeWumpuses(1, 1)).handler)
    vi.mocked(firebase.signInWithGoogle).mockResolvedValue(fakeAccount({ email: 'grace@example.com', displayName: 'Grace Hopper' }))
    const { user, router } = renderApp('/signUp')
    await user.click(await screen.findByRole('button', { name: 'Sign up with Google' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(within(screen.getByRole('banner')).getByText('Grace Hopper')).toBeInTheDocument()
  })
})

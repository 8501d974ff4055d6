import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as firebase from '../../../lib/firebase'
import { accountHandlers } from '../../../test/account-handlers'
import { wumpusDetailHandler, wumpusListHandler } from '../../../test/api-handlers'
import { fakeAccount, firebaseError } from '../../../test/firebase-fake'
import { makeWumpuses } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'

vi.mock('../../../lib/firebase', () => import('../../../test/firebase-fake'))
// lottie-web cannot draw in jsdom: the player shows which animation it was given.
vi.mock('./mascot-player', () => ({
  default: ({ src }: { src: string }) => <div data-testid="mascot" data-src={src} />,
}))

const mascots = makeWumpuses(1, 2)

beforeEach(() => {
  vi.resetAllMocks()
  server.use(wumpusListHandler(mascots).handler, ...accountHandlers().handlers)
})

const emailInput = () => screen.getByLabelText('Email Address*')
const passwordInput = () => screen.getByLabelText('Password*')
const submit = () => screen.getByRole('button', { name: 'Sign In' })

describe('sign-in page', () => {
  it('offers Google, the email form and the links to reset the password and sign up', async () => {
    renderApp('/signIn')

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument()
    expect(emailInput()).toHaveAttribute('type', 'email')
    expect(passwordInput()).toHaveAttribute('type', 'password')
    expect(screen.getByRole('link', { name: 'Forget Password?' })).toHaveAttribute('href', '/forgetPassword')
    expect(screen.getByRole('link', { name: 'sign up' })).toHaveAttribute('href', '/signUp')
    expect(document.title).toBe('Sign in · Wumpus Gallery')
  })

  it('checks the form on submit, then again on every change, with the messages of the product rules', async () => {
    const { user } = renderApp('/signIn')
    await screen.findByRole('heading', { name: 'Sign in' })

    // Nothing is said while typing before the first submit.
    await user.type(emailInput(), 'ada')
    expect(screen.queryByText('Provide a valid email address')).not.toBeInTheDocument()
    await user.clear(emailInput())

    await user.click(submit())
    expect(await screen.findByText('Email is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true')
    expect(firebase.signInWithEmail).not.toHaveBeenCalled()

    await user.type(emailInput(), 'ada')
    expect(await screen.findByText('Provide a valid email address')).toBeInTheDocument()
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument()
    await user.type(emailInput(), '@example.com')
    await waitFor(() => expect(screen.queryByText('Provide a valid email address')).not.toBeInTheDocument())

    await user.type(passwordInput(), '123')
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument()
    await user.type(passwordInput(), '456')
    await waitFor(() => expect(screen.queryByText('Password must be at least 6 characters')).not.toBeInTheDocument())
    expect(emailInput()).not.toHaveAttribute('aria-invalid', 'true')
    expect(firebase.signInWithEmail).not.toHaveBeenCalled()
  })

  it.each([
    ['auth/invalid-credential', 'The email or password is incorrect.'],
    ['auth/too-many-requests', 'Too many attempts. Wait a few minutes and try again, or reset your password.'],
  ])('shows %s as a human sentence in a red card', async (code, message) => {
    vi.mocked(firebase.signInWithEmail).mockRejectedValue(firebaseError(code))
    const { user } = renderApp('/signIn')
    await screen.findByRole('heading', { name: 'Sign in' })

    await user.type(emailInput(), 'ada@example.com')
    await user.type(passwordInput(), 'wrong-password')
    await user.click(submit())

    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    expect(window.localStorage.getItem('accessToken')).toBeNull()
  })

  it('signs in, stores the session token and goes back where the user came from, replacing history', async () => {
    const [wumpus] = makeWumpuses(7, 1)
    const { handlers, requests } = accountHandlers()
    server.use(...handlers, wumpusDetailHandler([wumpus!]))
    vi.mocked(firebase.signInWithEmail).mockResolvedValue(fakeAccount({ email: 'ada@example.com', displayName: 'Ada Lovelace' }))
    const { user, router } = renderApp(`/signIn?from=${encodeURIComponent(`/wumpus/${wumpus!._id}`)}`)
    await screen.findByRole('heading', { name: 'Sign in' })

    await user.type(emailInput(), 'ada@example.com')
    await user.type(passwordInput(), 'secret1')
    await user.click(submit())

    expect(await screen.findByRole('heading', { level: 1, name: wumpus!.name })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(`/wumpus/${wumpus!._id}`)
    expect(router.history.length).toBe(1) // replaced, so Back does not return to the sign-in form
    expect(firebase.signInWithEmail).toHaveBeenCalledWith('ada@example.com', 'secret1')
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      authorization: 'Bearer firebase-id-token:ada@example.com',
      body: { email: 'ada@example.com', user_name: 'Ada Lovelace', photo: '' },
    })
    expect(window.localStorage.getItem('accessToken')).toMatch(/^ey/)
    expect(within(screen.getByRole('banner')).getByText('Ada Lovelace')).toBeInTheDocument()
  })

  it('never sends the user off-site: a foreign "from" goes home', async () => {
    vi.mocked(firebase.signInWithEmail).mockResolvedValue(fakeAccount())
    const { user, router } = renderApp('/signIn?from=%2F%2Fevil.example.com%2F')
    await screen.findByRole('heading', { name: 'Sign in' })
    await user.type(emailInput(), 'ada@example.com')
    await user.type(passwordInput(), 'secret1')
    await user.click(submit())
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
  })

  it('signs in with the Google popup and goes home', async () => {
    vi.mocked(firebase.signInWithGoogle).mockResolvedValue(
      fakeAccount({ email: 'grace@example.com', displayName: 'Grace Hopper', emailVerified: true }),
    )
    const { user, router } = renderApp('/signIn')
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(within(screen.getByRole('banner')).getByText('Grace Hopper')).toBeInTheDocument()
  })

  it('says so when the Google window was closed', async () => {
    vi.mocked(firebase.signInWithGoogle).mockRejectedValue(firebaseError('auth/popup-closed-by-user'))
    const { user } = renderApp('/signIn')
    await user.click(await screen.findByRole('button', { name: 'Sign in with Google' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The Google window was closed before signing in finished.')
  })

  it('shows a mascot beside the form, another one and a busy button while signing in', async () => {
    let finish!: () => void
    vi.mocked(firebase.signInWithEmail).mockReturnValue(new Promise((resolve) => (finish = () => resolve(fakeAccount()))))
    const { user, router } = renderApp('/signIn')
    expect(await screen.findByTestId('mascot')).toHaveAttribute('data-src', mascots[0]!.lottie)

    await user.type(emailInput(), 'ada@example.com')
    await user.type(passwordInput(), 'secret1')
    await user.click(submit())

    await waitFor(() => expect(screen.getByTestId('mascot')).toHaveAttribute('data-src', mascots[1]!.lottie))
    expect(submit()).toHaveAttribute('data-loading', 'true')
    finish()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
  })
})

import { fireEvent, screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as firebase from '../../../lib/firebase'
import { accountHandlers } from '../../../test/account-handlers'
import { fakeAccount, firebaseError } from '../../../test/firebase-fake'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { signInForTest } from '../../../test/session'

vi.mock('../../../lib/firebase', () => import('../../../test/firebase-fake'))

beforeEach(() => {
  vi.resetAllMocks()
  // The dashboard, where a verified user moves on to, lists their animations.
  server.use(http.get('/api/wumpus', () => HttpResponse.json([], { headers: { 'X-Total-Count': '0' } })))
})

describe('email verification page', () => {
  it('asks a signed-out visitor to sign in first', async () => {
    renderApp('/emailVerification')
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Verification' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signIn?from=%2FemailVerification')
    expect(firebase.reloadAccount).not.toHaveBeenCalled()
  })

  it('opened with the email verified already: says so and links home, with nothing to renew', async () => {
    signInForTest({ email: 'ada@example.com', email_verified: true })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount({ email: 'ada@example.com', emailVerified: true }))
    const { handlers, requests } = accountHandlers({ emailVerified: true })
    server.use(...handlers)
    renderApp('/emailVerification')

    expect(await screen.findByText('You signed up successfully and your email is verified.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ok' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('button', { name: 'Send Again' })).not.toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('back from the link (its continue URL): renews the session so its claim is verified too, says so and moves on to the dashboard', async () => {
    signInForTest({ email: 'ada@example.com', email_verified: false })
    const account = fakeAccount({ email: 'ada@example.com', emailVerified: true })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(account)
    vi.mocked(firebase.currentAccount).mockResolvedValue(account)
    const { handlers, requests } = accountHandlers({ emailVerified: true })
    server.use(...handlers)
    const { session, router } = renderApp('/emailVerification')

    expect(await screen.findByText('Your email is verified.')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(account.getIdToken).toHaveBeenCalledWith(true)
    // One renewal (the dashboard then asks GET /api/admin/{email}).
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(1)
    expect(session.getSnapshot()).toMatchObject({ status: 'signed-in', user: { emailVerified: true } })
  })

  it('moves on to where the user was going', async () => {
    signInForTest({ email: 'ada@example.com', email_verified: false })
    const account = fakeAccount({ email: 'ada@example.com', emailVerified: true })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(account)
    vi.mocked(firebase.currentAccount).mockResolvedValue(account)
    server.use(...accountHandlers({ emailVerified: true }).handlers)
    const { router } = renderApp(`/emailVerification?from=${encodeURIComponent('/about')}`)

    await waitFor(() => expect(router.state.location.pathname).toBe('/about'))
    expect(await screen.findByText('Your email is verified.')).toBeInTheDocument()
  })

  it('notices the verification when the user comes back to the page (focus, or the tab shown again)', async () => {
    signInForTest({ email: 'ada@example.com', email_verified: false })
    const verified = fakeAccount({ email: 'ada@example.com', emailVerified: true })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount({ emailVerified: false }))
    vi.mocked(firebase.currentAccount).mockResolvedValue(verified)
    server.use(...accountHandlers({ emailVerified: true }).handlers)
    const { router } = renderApp('/emailVerification')

    expect(await screen.findByText(/Please check your email/)).toBeInTheDocument()
    expect(firebase.reloadAccount).toHaveBeenCalledTimes(1)
    fireEvent(document, new Event('visibilitychange'))
    await waitFor(() => expect(firebase.reloadAccount).toHaveBeenCalledTimes(2))
    expect(screen.getByRole('button', { name: 'Send Again' })).toBeInTheDocument()

    vi.mocked(firebase.reloadAccount).mockResolvedValue(verified)
    fireEvent.focus(window)
    expect(await screen.findByText('Your email is verified.')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(screen.queryByRole('button', { name: 'Send Again' })).not.toBeInTheDocument()
  })

  it('checks again on a timer while the page waits, and stops once verified', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      signInForTest({ email: 'ada@example.com', email_verified: false })
      const verified = fakeAccount({ email: 'ada@example.com', emailVerified: true })
      vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount({ emailVerified: false }))
      vi.mocked(firebase.currentAccount).mockResolvedValue(verified)
      server.use(...accountHandlers({ emailVerified: true }).handlers)
      const { router } = renderApp('/emailVerification')

      expect(await screen.findByText(/Please check your email/)).toBeInTheDocument()
      expect(firebase.reloadAccount).toHaveBeenCalledTimes(1)
      await vi.advanceTimersByTimeAsync(5_000)
      await waitFor(() => expect(firebase.reloadAccount).toHaveBeenCalledTimes(2))

      vi.mocked(firebase.reloadAccount).mockResolvedValue(verified)
      await vi.advanceTimersByTimeAsync(5_000)
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
      expect(firebase.reloadAccount).toHaveBeenCalledTimes(3)
      await vi.advanceTimersByTimeAsync(15_000)
      expect(firebase.reloadAccount).toHaveBeenCalledTimes(3)
    } finally {
      vi.useRealTimers()
    }
  })

  it('not yet verified: asks to check the email and sends it again on request', async () => {
    signInForTest({ email: 'ada@example.com', email_verified: false })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount({ emailVerified: false }))
    vi.mocked(firebase.sendVerificationEmail).mockResolvedValue()
    const { user } = renderApp('/emailVerification')

    expect(await screen.findByText(/Please check your email/)).toHaveTextContent('ada@example.com')
    expect(screen.getByText('This page moves on by itself once your email is verified.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Send Again' }))
    expect(await screen.findByText('Email sent!')).toBeInTheDocument()
    expect(firebase.sendVerificationEmail).toHaveBeenCalledTimes(1)
  })

  it('sends the link again leading back here, on to where the user was going', async () => {
    signInForTest({ email: 'ada@example.com', email_verified: false })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount({ emailVerified: false }))
    vi.mocked(firebase.sendVerificationEmail).mockResolvedValue()
    const { user } = renderApp(`/emailVerification?from=${encodeURIComponent('/wumpus/abc/remix')}`)

    await user.click(await screen.findByRole('button', { name: 'Send Again' }))
    expect(await screen.findByText('Email sent!')).toBeInTheDocument()
    expect(firebase.sendVerificationEmail).toHaveBeenCalledWith(`/emailVerification?from=${encodeURIComponent('/wumpus/abc/remix')}`)
  })

  it('shows errors as a toast', async () => {
    signInForTest({ email_verified: false })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount({ emailVerified: false }))
    vi.mocked(firebase.sendVerificationEmail).mockRejectedValue(firebaseError('auth/too-many-requests'))
    const { user } = renderApp('/emailVerification')

    await user.click(await screen.findByRole('button', { name: 'Send Again' }))
    expect(await screen.findByText('Too many attempts. Wait a few minutes and try again, or reset your password.')).toBeInTheDocument()
  })

  it('shows a failed check as a toast and offers to check again', async () => {
    signInForTest({ email_verified: false })
    vi.mocked(firebase.reloadAccount).mockRejectedValueOnce(firebaseError('auth/network-request-failed'))
    const { user } = renderApp('/emailVerification')

    expect(await screen.findByText('Could not reach the sign-in service. Check your connection and try again.')).toBeInTheDocument()
    vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount({ emailVerified: false }))
    await user.click(screen.getByRole('button', { name: 'Check again' }))
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Check again' })).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Send Again' })).toBeInTheDocument()
  })
})

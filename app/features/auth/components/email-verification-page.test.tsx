import { screen, waitFor } from '@testing-library/react'
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
})

describe('email verification page', () => {
  it('asks a signed-out visitor to sign in first', async () => {
    renderApp('/emailVerification')
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Verification' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signIn?from=%2FemailVerification')
    expect(firebase.reloadAccount).not.toHaveBeenCalled()
  })

  it('once verified: says so, links home, and renews the session so its claim is verified too', async () => {
    signInForTest({ email: 'ada@example.com', email_verified: false })
    const account = fakeAccount({ email: 'ada@example.com', emailVerified: true })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(account)
    vi.mocked(firebase.currentAccount).mockResolvedValue(account)
    const { handlers, requests } = accountHandlers({ emailVerified: true })
    server.use(...handlers)
    const { session } = renderApp('/emailVerification')

    expect(await screen.findByText('You signed up successfully and your email is verified.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ok' })).toHaveAttribute('href', '/')
    expect(account.getIdToken).toHaveBeenCalledWith(true)
    expect(requests).toHaveLength(1)
    expect(session.getSnapshot()).toMatchObject({ status: 'signed-in', user: { emailVerified: true } })
  })

  it('not yet verified: asks to check the email and sends it again on request', async () => {
    signInForTest({ email: 'ada@example.com', email_verified: false })
    vi.mocked(firebase.reloadAccount).mockResolvedValue(fakeAccount({ emailVerified: false }))
    vi.mocked(firebase.sendVerificationEmail).mockResolvedValue()
    const { user } = renderApp('/emailVerification')

    expect(await screen.findByText(/Please check your email/)).toHaveTextContent('ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Send Again' }))
    expect(await screen.findByText('Email sent!')).toBeInTheDocument()
    expect(firebase.sendVerificationEmail).toHaveBeenCalledTimes(1)
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

import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as firebase from '../../../lib/firebase'
import { firebaseError } from '../../../test/firebase-fake'
import { renderApp } from '../../../test/render-app'

vi.mock('../../../lib/firebase', () => import('../../../test/firebase-fake'))

beforeEach(() => {
  vi.resetAllMocks()
})

describe('forgot password page', () => {
  it('sends the reset email and says so', async () => {
    vi.mocked(firebase.sendPasswordReset).mockResolvedValue()
    const { user } = renderApp('/forgetPassword')

    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot password?' })).toBeInTheDocument()
    const email = screen.getByLabelText(/Email Address/)
    expect(email).toHaveAttribute('type', 'email')
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/signIn')

    await user.type(email, 'ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Reset password' }))
    expect(await screen.findByText('Email sent')).toBeInTheDocument()
    expect(firebase.sendPasswordReset).toHaveBeenCalledWith('ada@example.com')
  })

  it('shows the provider error as a toast', async () => {
    vi.mocked(firebase.sendPasswordReset).mockRejectedValue(firebaseError('auth/invalid-email'))
    const { user } = renderApp('/forgetPassword')
    await user.type(await screen.findByLabelText(/Email Address/), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: 'Reset password' }))
    expect(await screen.findByText('This email address is not valid.')).toBeInTheDocument()
  })
})

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

  it('checks the address itself, without the browser’s bubble, and again as it is fixed', async () => {
    const { user } = renderApp('/forgetPassword')
    const email = await screen.findByLabelText(/Email Address/)
    expect(email.closest('form')).toHaveAttribute('novalidate')
    expect(email).not.toBeRequired()

    await user.click(screen.getByRole('button', { name: 'Reset password' }))
    expect(await screen.findByText('Email is required')).toBeInTheDocument()
    await user.type(email, 'ada@')
    expect(screen.getByText('Provide a valid email address')).toBeInTheDocument()
    await user.type(email, 'example.com')
    expect(screen.queryByText('Provide a valid email address')).not.toBeInTheDocument()
    expect(firebase.sendPasswordReset).not.toHaveBeenCalled()
  })

  it('answers the same whether the address has an account or not', async () => {
    const answers: string[] = []
    for (const outcome of ['sent', 'no account'] as const) {
      if (outcome === 'sent') vi.mocked(firebase.sendPasswordReset).mockResolvedValue()
      else vi.mocked(firebase.sendPasswordReset).mockRejectedValue(firebaseError('auth/user-not-found'))
      const { user, unmount } = renderApp('/forgetPassword')
      await user.type(await screen.findByLabelText(/Email Address/), 'ada@example.com')
      await user.click(screen.getByRole('button', { name: 'Reset password' }))
      const said = await screen.findByRole('status')
      expect(said).toHaveTextContent('If an account uses ada@example.com, a link to choose a new password is on its way.')
      expect(await screen.findByText('Email sent')).toBeInTheDocument()
      expect(screen.queryByText(/no account/i)).not.toBeInTheDocument()
      answers.push(said.textContent ?? '')
      unmount()
    }
    expect(answers[0]).toBe(answers[1])
  })
})

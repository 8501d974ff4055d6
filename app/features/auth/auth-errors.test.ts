import { describe, expect, it } from 'vitest'
import { ApiError } from '../../lib/api-client'
import { firebaseError } from '../../test/firebase-fake'
import { authErrorMessage, trimProviderMessage } from './auth-errors'

describe('authErrorMessage', () => {
  it.each([
    ['auth/invalid-credential', 'The email or password is incorrect.'],
    ['auth/wrong-password', 'The password is incorrect.'],
    ['auth/user-not-found', 'There is no account with this email address. Check it, or sign up.'],
    ['auth/too-many-requests', 'Too many attempts. Wait a few minutes and try again, or reset your password.'],
    ['auth/network-request-failed', 'Could not reach the sign-in service. Check your connection and try again.'],
    ['auth/popup-closed-by-user', 'The Google window was closed before signing in finished.'],
    ['auth/popup-blocked', 'Your browser blocked the Google window. Allow pop-ups for this site and try again.'],
    ['auth/unauthorized-domain', 'Google sign-in is not enabled for this web address.'],
    ['auth/user-disabled', 'This account has been disabled.'],
    ['auth/email-already-in-use', 'An account with this email address already exists. Sign in instead.'],
  ])('says %s for people', (code, message) => {
    expect(authErrorMessage(firebaseError(code))).toBe(message)
  })

  it('falls back to the provider message without its wrapper for codes it does not know', () => {
    expect(authErrorMessage(firebaseError('auth/quota-exceeded', 'Firebase: Exceeded quota for this project (auth/quota-exceeded).'))).toBe(
      'Exceeded quota for this project',
    )
  })

  it('names the code when the provider message says nothing but the code', () => {
    expect(authErrorMessage(firebaseError('auth/internal-error'))).toBe('Something went wrong. Please try again. (auth/internal-error)')
  })

  it('shows our server’s message, and a generic sentence for anything else', () => {
    expect(authErrorMessage(new ApiError(403, 'FORBIDDEN', 'You may only sign in as yourself.'))).toBe('You may only sign in as yourself.')
    expect(authErrorMessage('boom')).toBe('Something went wrong. Please try again.')
  })
})

describe('trimProviderMessage', () => {
  it('removes the "Firebase: " prefix and the "(auth/...)." suffix', () => {
    expect(trimProviderMessage('Firebase: Password should be at least 6 characters (auth/weak-password).')).toBe(
      'Password should be at least 6 characters',
    )
    expect(trimProviderMessage('Firebase: Error (auth/user-not-found).')).toBe('Error')
    expect(trimProviderMessage('Plain message')).toBe('Plain message')
  })
})

import { isApiError } from '../../lib/api-client'

// Firebase's own messages read like 'Firebase: Error (auth/wrong-password).': these say it for people.
const MESSAGES: Record<string, string> = {
  'auth/invalid-credential': 'The email or password is incorrect.',
  'auth/invalid-login-credentials': 'The email or password is incorrect.',
  'auth/wrong-password': 'The password is incorrect.',
  'auth/user-not-found': 'There is no account with this email address. Check it, or sign up.',
  'auth/invalid-email': 'This email address is not valid.',
  'auth/missing-email': 'Enter your email address.',
  'auth/missing-password': 'Enter your password.',
  'auth/email-already-in-use': 'An account with this email address already exists. Sign in instead.',
  'auth/weak-password': 'This password is too weak: use at least 6 characters.',
  'auth/too-many-requests': 'Too many attempts. Wait a few minutes and try again, or reset your password.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection and try again.',
  'auth/popup-closed-by-user': 'The Google window was closed before signing in finished.',
  'auth/cancelled-popup-request': 'The Google window was closed before signing in finished.',
  'auth/popup-blocked': 'Your browser blocked the Google window. Allow pop-ups for this site and try again.',
  'auth/unauthorized-domain': 'Google sign-in is not enabled for this web address.',
  'auth/operation-not-allowed': 'This way of signing in is not enabled.',
  'auth/user-disabled': 'This account has been disabled.',
  'auth/account-exists-with-different-credential':
    'An account with this email address already exists. Sign in with its email and password.',
  'auth/requires-recent-login': 'For your safety, sign in again and retry.',
  'auth/user-token-expired': 'Your sign-in has expired. Sign in again.',
  'auth/expired-action-code': 'This link has expired. Ask for a new one.',
  'auth/invalid-action-code': 'This link is not valid any more. Ask for a new one.',
}

const GENERIC = 'Something went wrong. Please try again.'

/** A sentence for people from whatever a sign-in, sign-up or account call threw. */
export function authErrorMessage(error: unknown): string {
  if (isApiError(error)) return error.message
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && code in MESSAGES) return MESSAGES[code]!
  if (error instanceof Error) {
    const trimmed = trimProviderMessage(error.message)
    if (trimmed && trimmed !== 'Error') return trimmed
    if (typeof code === 'string') return `${GENERIC} (${code})`
  }
  return GENERIC
}

/** 'Firebase: Password should be at least 6 characters (auth/weak-password).' → 'Password should be at least 6 characters'. */
export function trimProviderMessage(message: string): string {
  return message
    .replace(/^Firebase:\s*/, '')
    .replace(/\s*\(auth\/[^)]*\)\.?\s*$/, '')
    .trim()
}

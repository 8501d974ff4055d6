import { vi } from 'vitest'
import type * as Firebase from '../lib/firebase'
import type { FirebaseAccount } from '../lib/firebase'

// Stand-in for app/lib/firebase.ts in component tests (the Firebase SDK cannot run in jsdom):
//   vi.mock('<path>/lib/firebase', () => import('<path>/test/firebase-fake'))
// then drive the functions with vi.mocked(...) in each test.

export const currentAccount = vi.fn<typeof Firebase.currentAccount>()
export const signInWithGoogle = vi.fn<typeof Firebase.signInWithGoogle>()
export const signInWithEmail = vi.fn<typeof Firebase.signInWithEmail>()
export const signUpWithEmail = vi.fn<typeof Firebase.signUpWithEmail>()
export const updateAccountProfile = vi.fn<typeof Firebase.updateAccountProfile>()
export const sendVerificationEmail = vi.fn<typeof Firebase.sendVerificationEmail>()
export const reloadAccount = vi.fn<typeof Firebase.reloadAccount>()
export const sendPasswordReset = vi.fn<typeof Firebase.sendPasswordReset>()
export const signOutOfFirebase = vi.fn<typeof Firebase.signOutOfFirebase>()

/** A Firebase account whose ID token is `firebase-id-token:<email>`. */
export function fakeAccount(overrides: Partial<Omit<FirebaseAccount, 'getIdToken'>> = {}): FirebaseAccount & {
  getIdToken: ReturnType<typeof vi.fn<FirebaseAccount['getIdToken']>>
} {
  const email = overrides.email ?? 'ada@example.com'
  return {
    email,
    displayName: null,
    photoURL: null,
    emailVerified: false,
    ...overrides,
    getIdToken: vi.fn<FirebaseAccount['getIdToken']>(async () => `firebase-id-token:${email}`),
  }
}

/** An error shaped like the SDK's FirebaseError. */
export function firebaseError(code: string, message = `Firebase: Error (${code}).`): Error & { code: string } {
  return Object.assign(new Error(message), { code, name: 'FirebaseError' })
}

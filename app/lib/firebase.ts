import type { Auth, User } from 'firebase/auth'
import { API_PATHS } from '../../contract/api-paths'
import { clientConfigSchema } from '../../contract/client-config'
import { apiRequest } from './api-client'

// The only module that touches the Firebase SDK, and only through import(): the SDK is a lazy chunk
// fetched by the auth screens, session renewal and sign-out, never by the home page.

/** The part of a Firebase user the app reads (a Firebase `User` is one). */
export interface FirebaseAccount {
  readonly email: string | null
  readonly displayName: string | null
  readonly photoURL: string | null
  readonly emailVerified: boolean
  getIdToken(forceRefresh?: boolean): Promise<string>
}

type AuthSdk = typeof import('firebase/auth')

let ready: Promise<{ auth: Auth; sdk: AuthSdk }> | null = null

/** Loads the SDK and initialises it once from GET /api/config; waits until Firebase restored its session. */
function loadAuth(): Promise<{ auth: Auth; sdk: AuthSdk }> {
  ready ??= initialise().catch((error: unknown) => {
    ready = null // a failed load (offline) may be retried later
    throw error
  })
  return ready
}

async function initialise() {
  const [{ initializeApp }, sdk, config] = await Promise.all([
    import('firebase/app'),
    import('firebase/auth'),
    apiRequest(API_PATHS.config, clientConfigSchema),
    // The session exchange comes with the SDK: an account just created must not wait for code that may not load.
    import('./session-exchange'),
  ])
  const { authEmulatorUrl, ...options } = config.firebase
  const auth = sdk.initializeAuth(initializeApp(options), {
    // Firebase keeps its own session (for renewal) beside our access token.
    persistence: [sdk.indexedDBLocalPersistence, sdk.browserLocalPersistence],
    popupRedirectResolver: sdk.browserPopupRedirectResolver,
  })
  if (authEmulatorUrl) sdk.connectAuthEmulator(auth, authEmulatorUrl, { disableWarnings: true })
  await auth.authStateReady()
  return { auth, sdk }
}

async function requireUser(): Promise<{ user: User; sdk: AuthSdk }> {
  const { auth, sdk } = await loadAuth()
  if (!auth.currentUser) throw new Error('You are not signed in. Sign in and try again.')
  return { user: auth.currentUser, sdk }
}

/** The account Firebase remembers, or null. */
export async function currentAccount(): Promise<FirebaseAccount | null> {
  const { auth } = await loadAuth()
  return auth.currentUser
}

export async function signInWithGoogle(): Promise<FirebaseAccount> {
  const { auth, sdk } = await loadAuth()
  return (await sdk.signInWithPopup(auth, new sdk.GoogleAuthProvider())).user
}

export async function signInWithEmail(email: string, password: string): Promise<FirebaseAccount> {
  const { auth, sdk } = await loadAuth()
  return (await sdk.signInWithEmailAndPassword(auth, email, password)).user
}

export async function signUpWithEmail(email: string, password: string): Promise<FirebaseAccount> {
  const { auth, sdk } = await loadAuth()
  return (await sdk.createUserWithEmailAndPassword(auth, email, password)).user
}

/** Sets the name and photo on the signed-in Firebase account. */
export async function updateAccountProfile(profile: { displayName?: string; photoURL?: string }): Promise<void> {
  const { user, sdk } = await requireUser()
  await sdk.updateProfile(user, profile)
}

/** Firebase's answers to a continue URL on a domain its project does not allow. */
const REFUSED_CONTINUE_URL = new Set(['auth/unauthorized-continue-uri', 'auth/invalid-continue-uri'])

/**
 * Sends the verification link. Its page leads back to `returnTo` (a path of this app, by default the
 * waiting page, which notices the verification and moves on). Where Firebase refuses this origin as a
 * continue URL (a domain not in the project's authorized domains), the email goes without the way back.
 */
export async function sendVerificationEmail(returnTo = '/emailVerification'): Promise<void> {
  const { user, sdk } = await requireUser()
  const settings = { url: new URL(returnTo, window.location.origin).href, handleCodeInApp: false }
  try {
    await sdk.sendEmailVerification(user, settings)
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if (typeof code !== 'string' || !REFUSED_CONTINUE_URL.has(code)) throw error
    await sdk.sendEmailVerification(user)
  }
}

/** Reloads the signed-in account from Firebase (e.g. for a fresh emailVerified); null when signed out. */
export async function reloadAccount(): Promise<FirebaseAccount | null> {
  const { auth, sdk } = await loadAuth()
  if (!auth.currentUser) return null
  await sdk.reload(auth.currentUser)
  return auth.currentUser
}

export async function sendPasswordReset(email: string): Promise<void> {
  const { auth, sdk } = await loadAuth()
  await sdk.sendPasswordResetEmail(auth, email)
}

export async function signOutOfFirebase(): Promise<void> {
  const { auth, sdk } = await loadAuth()
  await sdk.signOut(auth)
}

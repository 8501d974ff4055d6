import type { QueryClient } from '@tanstack/react-query'
import { API_PATHS } from '../../contract/api-paths'
import type { SessionClaims, SessionResponse } from '../../contract/user'
import { ACCESS_TOKEN_KEY, apiSend, getAccessToken, isApiError, setUnauthorizedHandler } from './api-client'
import type { FirebaseAccount } from './firebase'
import { isKeptOnSignOut } from './query-client'

/** Who is signed in, read from the claims of our session token (the server checks its signature). */
export interface SessionUser {
  email: string
  name: string
  emailVerified: boolean
  token: string
  /** Expiry of the token, in ms since the epoch. */
  expiresAt: number
}

export type Session = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; user: SessionUser }

/**
 * The one signed-out session: what the server renders for, and what the store holds for a visitor. The same
 * object, so hydration sees an unchanged session and does not re-render everything that reads it at once.
 */
export const SIGNED_OUT: Session = Object.freeze({ status: 'signed-out' })

export interface SessionStore {
  getSnapshot(): Session
  subscribe(listener: () => void): () => void
  /** The session once it is no longer loading. */
  ready(): Promise<Session>
  /** After any Firebase sign-in: trades the Firebase ID token for our session token and stores it. */
  exchange(account: FirebaseAccount): Promise<SessionResponse>
  /** Stores a session token the server handed out (e.g. after a profile update). */
  setToken(token: string): void
  /**
   * Fresh Firebase ID token, exchanged for a new token of the same session. Single-flight. Resolves
   * to the new token, or null when renewal is impossible (then the session is signed out, unless
   * only the network failed).
   */
  renew(): Promise<string | null>
  /**
   * Signs out here at once, and ends the session on the server too when it can be reached (unless
   * `endedOnServer`: it already ended there, e.g. by signing out everywhere).
   */
  signOut(options?: { endedOnServer?: boolean }): Promise<void>
  /**
   * Runs after every sign-out, whatever ended the session (the user, a failed renewal, another tab):
   * the one place that forgets personal data. Answers the function that stops listening.
   */
  onSignOut(listener: () => void): () => void
  /** Follows the token another tab wrote or removed (`storage` event). */
  syncFromStorage(): void
}

/** A token this close to its expiry counts as expired. */
const EXPIRY_MARGIN_MS = 30_000

export function decodeSessionToken(token: string): SessionUser | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as Partial<SessionClaims>
    const { email, name, email_verified, exp } = claims
    // Checked by hand, not with the contract's zod schema: this runs on every page, zod is kept out of it.
    if (typeof email !== 'string' || typeof name !== 'string' || typeof email_verified !== 'boolean' || typeof exp !== 'number') return null
    return { email, name, emailVerified: email_verified, token, expiresAt: exp * 1000 }
  } catch {
    return null
  }
}

export function isExpired(user: SessionUser, now = Date.now()): boolean {
  return user.expiresAt - EXPIRY_MARGIN_MS <= now
}

/** Failures that say nothing about the account: the session is kept (offline use). */
function isNetworkFailure(error: unknown): boolean {
  if (isApiError(error)) return error.code === 'NETWORK_ERROR'
  if (error instanceof TypeError) return true // fetch or a lazy chunk could not load
  return (error as { code?: unknown } | null)?.code === 'auth/network-request-failed'
}

function readToken(): string | null {
  return getAccessToken()
}

function writeToken(token: string | null): void {
  try {
    if (token === null) window.localStorage.removeItem(ACCESS_TOKEN_KEY)
    else window.localStorage.setItem(ACCESS_TOKEN_KEY, token)
  } catch {
    // Storage may be unavailable (private mode); the session then lasts for this page only.
  }
}

export function createSessionStore({ queryClient }: { queryClient: QueryClient }): SessionStore {
  let state: Session = { status: 'loading' }
  const listeners = new Set<() => void>()
  const signOutListeners = new Set<() => void>()
  let renewal: Promise<string | null> | null = null
  // Bumped by every sign-out, so a renewal that started before it cannot sign the user back in.
  let generation = 0

  function set(next: Session) {
    state = next
    for (const listener of [...listeners]) listener()
  }

  function subscribe(listener: () => void) {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }

  /** Every sign-out ends here: forgets the token (unless another tab already did) and personal data. */
  function endSession({ removeToken = true } = {}) {
    generation++
    if (removeToken) writeToken(null)
    const wasSignedOut = state.status === 'signed-out'
    if (!wasSignedOut) set(SIGNED_OUT)
    queryClient.removeQueries({ predicate: (query) => !isKeptOnSignOut(query.queryKey, query.state.data) })
    if (!wasSignedOut) for (const listener of [...signOutListeners]) listener()
  }

  function setToken(token: string) {
    const user = decodeSessionToken(token)
    if (!user) throw new Error('The server sent a session token this app cannot read.')
    writeToken(token)
    set({ status: 'signed-in', user })
  }

  /** The stored token as a session; an unreadable token is dropped. */
  function storedSession(): Session {
    const token = readToken()
    const user = token ? decodeSessionToken(token) : null
    if (user) return { status: 'signed-in', user }
    if (token) writeToken(null)
    return SIGNED_OUT
  }

  function renew(): Promise<string | null> {
    renewal ??= (async () => {
      const startedAt = generation
      try {
        const [firebase, { requestSessionToken }] = await Promise.all([import('./firebase'), import('./session-exchange')])
        const account = await firebase.currentAccount()
        if (generation !== startedAt) return null
        if (!account) {
          endSession()
          return null
        }
        const { token } = await requestSessionToken(account, true, readToken() ?? undefined)
        if (generation !== startedAt) return null
        setToken(token)
        return token
      } catch (error) {
        if (generation !== startedAt) return null
        if (isNetworkFailure(error)) {
          // Keep the old claims: signed in, so the app still works offline; a later call renews again.
          if (state.status === 'loading') set(storedSession())
          return null
        }
        endSession()
        void import('./firebase').then((firebase) => firebase.signOutOfFirebase()).catch(() => {})
        return null
      } finally {
        renewal = null
      }
    })()
    return renewal
  }

  // Start: a valid token signs in at once, without Firebase; an expired one is renewed first.
  const initial = storedSession()
  if (initial.status === 'signed-in' && isExpired(initial.user)) void renew()
  else state = initial
  setUnauthorizedHandler(renew)

  return {
    getSnapshot: () => state,
    subscribe,
    ready() {
      if (state.status !== 'loading') return Promise.resolve(state)
      return new Promise((resolve) => {
        const unsubscribe = subscribe(() => {
          if (state.status === 'loading') return
          unsubscribe()
          resolve(state)
        })
      })
    },
    async exchange(account) {
      const { requestSessionToken } = await import('./session-exchange')
      const response = await requestSessionToken(account)
      setToken(response.token)
      return response
    },
    setToken,
    renew,
    async signOut({ endedOnServer = false } = {}) {
      const token = endedOnServer ? null : readToken()
      endSession()
      // Best effort: offline, the token is gone from here and the session ends at its expiry.
      if (token) void apiSend(API_PATHS.session, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } }).catch(() => {})
      try {
        const firebase = await import('./firebase')
        await firebase.signOutOfFirebase()
      } catch {
        // Our token is gone either way; without it the app counts the user as signed out.
      }
    },
    onSignOut(listener) {
      signOutListeners.add(listener)
      return () => {
        signOutListeners.delete(listener)
      }
    },
    syncFromStorage() {
      const next = storedSession()
      if (next.status === 'signed-in') {
        if (state.status !== 'signed-in' || state.user.token !== next.user.token) set(next)
      } else if (state.status === 'signed-in') {
        endSession({ removeToken: false })
      }
    },
  }
}

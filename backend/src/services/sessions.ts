import type { KeyObject } from 'node:crypto'
import type { SessionClaims } from '../../../contract/user'
import { sessionIdToRenew, sessionKey, signSessionToken, verifySessionToken } from '../auth/session-token'
import { unauthenticated } from '../domain/errors'
import type { SessionRecord, Store } from '../store/port'

/** Who signed in with Firebase, as far as a session needs to know. */
export interface SessionIdentity {
  email: string
  uid: string
  name: string
  emailVerified: boolean
  /** When the user last proved who they are to Firebase (password, Google), in seconds since the epoch. */
  authTime: number
}

export interface SessionService {
  /** A new session for a Firebase sign-in, or the session of `previous` renewed; answers its token. */
  signIn(identity: SessionIdentity, previous?: string): Promise<string>
  /** The claims of a token whose session is still open. Runs on every signed-in request. */
  check(token: string): Promise<SessionClaims>
  /** The same session and expiry with a new display name (after a profile update): never longer. */
  reissue(claims: SessionClaims, name: string): string
  /** Ends the session: its token, and every token renewed from it, are refused afterwards. */
  end(claims: SessionClaims): Promise<void>
  /**
   * Ends every session of this email but the one `current` (a token of this Firebase account, being
   * renewed) names: when an account is first bound, sessions that unverified sign-ins got for its email end.
   */
  endOthers(email: string, uid: string, current?: string): Promise<void>
  /** Ends every session of this email ("sign out everywhere", or an admin's doing); answers how many. */
  endAll(email: string): Promise<number>
}

export interface SessionServiceOptions {
  store: Store
  secret: string
  /** Lifetime of one token. */
  ttlSeconds: number
  /** Absolute lifetime of a session, from the Firebase sign-in. */
  maxAgeSeconds: number
  /** A session not used (checked or renewed) for this long ends. */
  idleSeconds: number
  now?: () => number
}

const ended = (reason = 'session-ended') => unauthenticated('Your session has ended, sign in again', { reason })

/**
 * Sessions live on the server (store.sessions) and the token only names one, so a session can end
 * before its token expires: on sign-out (here or everywhere), when the account is bound to another
 * Firebase account, after `idleSeconds` unused, and at its absolute end, counted from the Firebase
 * sign-in so that renewing cannot stretch it.
 */
export function createSessionService(options: SessionServiceOptions): SessionService {
  const { store, ttlSeconds, maxAgeSeconds } = options
  const key: KeyObject = sessionKey(options.secret)
  const nowMs = () => (options.now ?? Date.now)()
  const nowSeconds = () => Math.floor(nowMs() / 1000)
  const idleMs = options.idleSeconds * 1000
  // lastUsedAt is written only once it is this stale, not on every request (one store write per
  // session every 1/100 of the idle time): a session may so end up to 1% before its full idle time.
  const touchAfterMs = idleMs / 100

  const issue = (session: SessionRecord, identity: Pick<SessionIdentity, 'email' | 'name' | 'emailVerified'>) =>
    signSessionToken(
      {
        sid: session.id,
        email: identity.email,
        name: identity.name,
        emailVerified: identity.emailVerified,
        exp: Math.min(nowSeconds() + ttlSeconds, Math.floor(session.expiresAt.getTime() / 1000)),
      },
      key,
      nowSeconds(),
    )

  /** The open session (checked or renewed now, which counts as a use), or the "session ended" error. */
  async function liveSession(sid: string, email: string): Promise<SessionRecord> {
    const session = await store.sessions.get(sid)
    const now = nowMs()
    if (!session || session.email !== email || session.expiresAt.getTime() <= now) throw ended()
    const unused = now - session.lastUsedAt.getTime()
    if (unused >= idleMs) throw ended('session-idle')
    if (unused >= touchAfterMs) await store.sessions.touch(sid, new Date(now))
    return session
  }

  return {
    async signIn(identity, previous) {
      const previousId = previous === undefined ? undefined : sessionIdToRenew(previous, key)
      if (previousId !== undefined) {
        const session = await liveSession(previousId, identity.email)
        if (session.uid !== identity.uid) throw ended()
        return issue(session, identity)
      }
      const end = (identity.authTime + maxAgeSeconds) * 1000
      if (end <= nowSeconds() * 1000) {
        throw unauthenticated('You signed in too long ago; sign in again', { reason: 'sign-in-too-old' })
      }
      const session = await store.sessions.create({
        email: identity.email,
        uid: identity.uid,
        expiresAt: new Date(end),
        lastUsedAt: new Date(nowMs()),
      })
      return issue(session, identity)
    },

    async check(token) {
      const claims = verifySessionToken(token, key, nowSeconds())
      await liveSession(claims.sid, claims.email)
      return claims
    },

    reissue(claims, name) {
      return signSessionToken(
        { sid: claims.sid, email: claims.email, name, emailVerified: claims.email_verified, exp: claims.exp },
        key,
        nowSeconds(),
      )
    },

    async end(claims) {
      await store.sessions.delete(claims.sid)
    },

    async endOthers(email, uid, current) {
      const currentId = current === undefined ? undefined : sessionIdToRenew(current, key)
      const kept = currentId === undefined ? undefined : await store.sessions.get(currentId)
      await store.sessions.deleteForUser(email, { exceptId: kept?.uid === uid ? kept.id : undefined })
    },

    endAll(email) {
      return store.sessions.deleteForUser(email)
    },
  }
}

import type { SessionClaims } from '../../../contract/user'
import type { Viewer } from '../domain/viewer'
import type { Store } from '../store/port'

/** Whether the user is an admin now: read from the store, so a promotion counts at once. */
export async function isAdmin(store: Store, email: string): Promise<boolean> {
  return (await store.users.get(email))?.role === 'admin'
}

/** Whether this session holds admin power: an admin who proved their email. */
export async function isVerifiedAdmin(store: Store, session: SessionClaims): Promise<boolean> {
  return session.email_verified && (await isAdmin(store, session.email))
}

/** The caller of a session, as a Viewer (undefined: nobody signed in). */
export async function viewerOfSession(store: Store, claims: SessionClaims | undefined): Promise<Viewer> {
  if (!claims) return undefined
  return { email: claims.email, role: (await isVerifiedAdmin(store, claims)) ? 'admin' : 'user' }
}

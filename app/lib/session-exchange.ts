// The sign-in exchange, loaded by the session store only when it signs in or renews (never on a page's
// first load: a valid stored token signs in without it).
import { userPath } from '../../contract/api-paths'
import type { SessionResponse } from '../../contract/user'
import { apiRequestWithHeaders, trusted } from './api-client'
import type { FirebaseAccount } from './firebase'

/** Our stored photo paths are relative; Firebase keeps absolute URLs. The server takes the relative form. */
function toServerPhoto(photoURL: string | null): string {
  if (!photoURL) return ''
  const origin = `${window.location.origin}/`
  return photoURL.startsWith(origin) ? photoURL.slice(origin.length - 1) : photoURL
}

/**
 * The sign-in exchange: the Firebase ID token for our session token. With `previous` (the session
 * token about to expire) the server renews that session rather than starting another.
 */
export async function requestSessionToken(account: FirebaseAccount, forceRefresh = false, previous?: string): Promise<SessionResponse> {
  if (!account.email) throw new Error('This account has no email address, so it cannot sign in here.')
  const idToken = await account.getIdToken(forceRefresh)
  const { data } = await apiRequestWithHeaders(userPath(account.email), trusted<SessionResponse>(), {
    method: 'PUT',
    headers: { Authorization: `Bearer ${idToken}` },
    body: {
      email: account.email,
      user_name: account.displayName ?? '',
      photo: toServerPhoto(account.photoURL),
      ...(previous ? { session: previous } : {}),
    },
  })
  return data
}

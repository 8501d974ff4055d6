import type { SessionClaims } from '../../contract/user'
import { ACCESS_TOKEN_KEY } from '../lib/api-client'

/** base64url of the UTF-8 JSON, as a JWT encodes it. */
const base64url = (value: object) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

/** A session token shaped like the server's (the client never checks the signature). */
export function makeSessionToken(claims: Partial<SessionClaims> & { expiresInSeconds?: number } = {}): string {
  const { expiresInSeconds = 3600, ...rest } = claims
  const now = Math.floor(Date.now() / 1000)
  const payload: SessionClaims = {
    sid: 'session-1',
    sub: 'user-1',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    email_verified: true,
    iat: now,
    exp: now + expiresInSeconds,
    ...rest,
  }
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(payload)}.signature`
}

/** Stores a session token as the signed-in browser would have it; returns the token. */
export function signInForTest(claims?: Parameters<typeof makeSessionToken>[0]): string {
  const token = makeSessionToken(claims)
  window.localStorage.setItem(ACCESS_TOKEN_KEY, token)
  return token
}

import { createSecretKey, type KeyObject } from 'node:crypto'
import jwt from 'jsonwebtoken'
import { sessionClaimsSchema, type SessionClaims } from '../../../contract/user'
import { unauthenticated } from '../domain/errors'

const ISSUER = 'wumpus-gallery'

export interface SessionSubject {
  /** The server-side session this token belongs to. */
  sid: string
  email: string
  name: string
  emailVerified: boolean
  /** Expiry, in seconds since the epoch. */
  exp: number
}

/**
 * The signing key as a KeyObject, made once: given a string, jsonwebtoken first tries to parse it as
 * a PEM public or private key on every sign and verify, which cost more than the HMAC itself.
 */
export function sessionKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'))
}

/** Our own short-lived session token (HS256), given out in exchange for a Firebase ID token. */
export function signSessionToken(subject: SessionSubject, key: KeyObject, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const payload = {
    sid: subject.sid,
    email: subject.email,
    name: subject.name,
    email_verified: subject.emailVerified,
    iat: nowSeconds,
    exp: subject.exp,
  }
  return jwt.sign(payload, key, { algorithm: 'HS256', issuer: ISSUER, audience: ISSUER, subject: subject.email })
}

/** The claims of a token we signed and that has not expired. */
export function verifySessionToken(token: string, key: KeyObject, nowSeconds = Math.floor(Date.now() / 1000)): SessionClaims {
  let payload: unknown
  try {
    payload = jwt.verify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: ISSUER, clockTimestamp: nowSeconds })
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) {
      throw unauthenticated('Your session has expired', { reason: 'expired' })
    }
    throw unauthenticated('Not a valid session', { reason: 'invalid' })
  }
  const claims = sessionClaimsSchema.safeParse(payload)
  if (!claims.success) throw unauthenticated('Not a valid session', { reason: 'invalid' })
  return claims.data
}

/**
 * The session a token to renew belongs to: its signature must be ours (expiry aside). Tokens from
 * before server-side sessions name none: undefined.
 */
export function sessionIdToRenew(token: string, key: KeyObject): string | undefined {
  let payload: unknown
  try {
    payload = jwt.verify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: ISSUER, ignoreExpiration: true })
  } catch {
    throw unauthenticated('The session to renew is not valid', { reason: 'invalid' })
  }
  const sid = (payload as { sid?: unknown }).sid
  return typeof sid === 'string' ? sid : undefined
}

/** Whether a bearer token is one of ours (and not a Firebase ID token), judged by its issuer. */
export function isSessionToken(token: string): boolean {
  const payload = jwt.decode(token)
  return typeof payload === 'object' && payload !== null && payload.iss === ISSUER
}

export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization ?? '')
  return match?.[1]
}

import jwt from 'jsonwebtoken'
import { sessionClaimsSchema, type SessionClaims } from '../../../contract/user'
import { HttpError } from '../http/http-error'

const ISSUER = 'wumpus-gallery'

export interface SessionSubject {
  email: string
  name: string
  emailVerified: boolean
}

/** Our own short-lived session token (HS256), given out in exchange for a Firebase ID token. */
export function signSessionToken(subject: SessionSubject, secret: string, ttlSeconds: number): string {
  return jwt.sign({ email: subject.email, name: subject.name, email_verified: subject.emailVerified }, secret, {
    algorithm: 'HS256',
    expiresIn: ttlSeconds,
    issuer: ISSUER,
    audience: ISSUER,
    subject: subject.email,
  })
}

export function verifySessionToken(token: string, secret: string): SessionClaims {
  let payload: unknown
  try {
    payload = jwt.verify(token, secret, { algorithms: ['HS256'], issuer: ISSUER, audience: ISSUER })
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) {
      throw new HttpError('UNAUTHENTICATED', 'Your session has expired', { reason: 'expired' })
    }
    throw new HttpError('UNAUTHENTICATED', 'Not a valid session', { reason: 'invalid' })
  }
  const claims = sessionClaimsSchema.safeParse(payload)
  if (!claims.success) throw new HttpError('UNAUTHENTICATED', 'Not a valid session', { reason: 'invalid' })
  return claims.data
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

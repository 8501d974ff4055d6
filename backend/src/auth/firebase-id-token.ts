import jwt, { type JwtPayload } from 'jsonwebtoken'
import { DomainError, unauthenticated, unavailable } from '../domain/errors'

/** Who a verified Firebase ID token speaks for. */
export interface FirebaseIdentity {
  uid: string
  email: string
  emailVerified: boolean
  name?: string
  picture?: string
  /** Seconds since the epoch when the user signed in. */
  authTime: number
}

/** kid -> PEM certificate of the keys Google signs ID tokens with. */
export type SigningKeys = () => Promise<Record<string, string>>

/** The identity provider's record of an account. */
export interface ProviderAccount {
  disabled: boolean
  tokensValidAfterTime?: string
  email?: string
  emailVerified?: boolean
}

/** Looks a user up with the identity provider, for the revocation and disabled checks. */
export type AccountLookup = (uid: string) => Promise<ProviderAccount | undefined>

export interface IdTokenVerifierOptions {
  projectId: string
  /**
   * The Auth emulator signs nothing (alg "none"); only then are unsigned tokens accepted, and since
   * anyone can write such a token, the email and its verified flag are then taken from the
   * emulator's record of the account, never from the token.
   */
  emulator: boolean
  signingKeys: SigningKeys
  lookupAccount: AccountLookup
  /** Allowed clock skew in seconds. */
  clockTolerance?: number
}

const refused = (message: string, reason: string) => unauthenticated(message, { reason })

/**
 * Verifies a Firebase ID token as firebase-admin does (RS256 against Google's keys, audience, issuer,
 * times, subject) and then checks revocation and disabled accounts with the provider.
 */
export function createIdTokenVerifier(options: IdTokenVerifierOptions) {
  const issuer = `https://securetoken.google.com/${options.projectId}`
  const clockTolerance = options.clockTolerance ?? 5

  return async function verifyIdToken(token: string): Promise<FirebaseIdentity> {
    const decoded = jwt.decode(token, { complete: true })
    if (!decoded || typeof decoded.payload !== 'object') throw refused('Not a valid sign-in token', 'malformed')
    const { alg, kid } = decoded.header

    let payload: JwtPayload
    try {
      const verifyOptions = { audience: options.projectId, issuer, clockTolerance }
      if (options.emulator) {
        if (alg !== 'none') throw refused('Not a valid sign-in token', 'algorithm')
        payload = jwt.verify(token, '', { ...verifyOptions, algorithms: ['none'] }) as JwtPayload
      } else {
        if (alg !== 'RS256' || !kid) throw refused('Not a valid sign-in token', 'algorithm')
        const key = (await options.signingKeys())[kid]
        if (!key) throw refused('Not a valid sign-in token', 'unknown-key')
        payload = jwt.verify(token, key, { ...verifyOptions, algorithms: ['RS256'] }) as JwtPayload
      }
    } catch (error) {
      if (error instanceof DomainError) throw error
      if (error instanceof jwt.TokenExpiredError) throw refused('Your sign-in has expired, sign in again', 'expired')
      throw refused('Not a valid sign-in token', 'invalid')
    }

    const now = Date.now() / 1000
    const authTime = typeof payload.auth_time === 'number' ? payload.auth_time : NaN
    if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 128) {
      throw refused('Not a valid sign-in token', 'subject')
    }
    if (!(authTime <= now + clockTolerance) || typeof payload.iat !== 'number' || payload.iat > now + clockTolerance) {
      throw refused('Not a valid sign-in token', 'time')
    }
    if (typeof payload.email !== 'string' || payload.email.length === 0) {
      throw refused('This account has no email address', 'no-email')
    }

    const account = await options.lookupAccount(payload.sub)
    if (!account) throw refused('This account no longer exists', 'no-account')
    if (account.disabled) throw refused('This account has been disabled', 'disabled')
    if (account.tokensValidAfterTime && authTime * 1000 < Date.parse(account.tokensValidAfterTime)) {
      throw refused('Your sign-in was revoked, sign in again', 'revoked')
    }

    let email = payload.email
    let emailVerified = payload.email_verified === true
    if (options.emulator) {
      if (typeof account.email !== 'string' || account.email.length === 0) throw refused('This account has no email address', 'no-email')
      email = account.email
      emailVerified = account.emailVerified === true
    }

    return {
      uid: payload.sub,
      email: email.toLowerCase(),
      emailVerified,
      name: typeof payload.name === 'string' ? payload.name : undefined,
      picture: typeof payload.picture === 'string' ? payload.picture : undefined,
      authTime,
    }
  }
}

export type VerifyIdToken = ReturnType<typeof createIdTokenVerifier>

const GOOGLE_CERTS_URL = 'https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com'

/** Google's ID-token signing certificates, cached for as long as Google's Cache-Control allows. */
export function googleSigningKeys(fetchImpl: typeof fetch = fetch): SigningKeys {
  let cached: { keys: Record<string, string>; until: number } | undefined
  return async () => {
    if (cached && Date.now() < cached.until) return cached.keys
    const res = await fetchImpl(GOOGLE_CERTS_URL)
    if (!res.ok) throw unavailable('Sign-in cannot be checked right now, try again shortly')
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1] ?? 0)
    cached = { keys: (await res.json()) as Record<string, string>, until: Date.now() + maxAge * 1000 }
    return cached.keys
  }
}

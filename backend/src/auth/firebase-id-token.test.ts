import { generateKeyPairSync } from 'node:crypto'
import jwt from 'jsonwebtoken'
import { describe, expect, it } from 'vitest'
import { DomainError } from '../domain/errors'
import { createIdTokenVerifier, type AccountLookup } from './firebase-id-token'

// Production mode: tokens must be RS256-signed by one of the provider's keys. The keys here are local.
const PROJECT = 'wumpus-prod'
const trusted = generateKeyPairSync('rsa', { modulusLength: 2048 })
const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 })
const pem = (key: typeof trusted.privateKey) => key.export({ type: 'pkcs1', format: 'pem' }).toString()
const KID = 'key-1'

const now = () => Math.floor(Date.now() / 1000)
const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: `https://securetoken.google.com/${PROJECT}`,
  aud: PROJECT,
  sub: 'uid-123',
  auth_time: now() - 60,
  iat: now() - 60,
  exp: now() + 3000,
  email: 'Ana@Example.com',
  email_verified: true,
  name: 'Ana',
  ...overrides,
})
const sign = (payload = claims(), key = pem(trusted.privateKey), header: Record<string, unknown> = { kid: KID }) =>
  jwt.sign(payload, key, { algorithm: 'RS256', header: { alg: 'RS256', ...header } })

function verifier(lookupAccount: AccountLookup = async () => ({ disabled: false })) {
  return createIdTokenVerifier({
    projectId: PROJECT,
    emulator: false,
    signingKeys: async () => ({ [KID]: trusted.publicKey.export({ type: 'spki', format: 'pem' }).toString() }),
    lookupAccount,
  })
}

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError)
    expect((error as DomainError).kind).toBe('unauthenticated')
    return ((error as DomainError).details as { reason: string }).reason
  }
  throw new Error('the token was accepted')
}

describe('verifying Firebase ID tokens (production mode)', () => {
  it('accepts a token signed by a provider key and reads the identity (email in lower case)', async () => {
    expect(await verifier()(sign())).toMatchObject({ uid: 'uid-123', email: 'ana@example.com', emailVerified: true, name: 'Ana' })
  })

  it('refuses a forged token signed by another key under a known key id', async () => {
    expect(await reason(verifier()(sign(claims(), pem(attacker.privateKey))))).toBe('invalid')
  })

  it('refuses a token with an unknown key id', async () => {
    expect(await reason(verifier()(sign(claims(), pem(trusted.privateKey), { kid: 'other' })))).toBe('unknown-key')
  })

  it('refuses an unsigned token (alg: none)', async () => {
    const unsigned = jwt.sign(claims(), '', { algorithm: 'none' })
    expect(await reason(verifier()(unsigned))).toBe('algorithm')
  })

  it('refuses HS256 signed with the public key (algorithm confusion)', async () => {
    const publicPem = trusted.publicKey.export({ type: 'spki', format: 'pem' }).toString()
    const confused = jwt.sign(claims(), publicPem, { algorithm: 'HS256', header: { alg: 'HS256', kid: KID } })
    expect(await reason(verifier()(confused))).toBe('algorithm')
  })

  it('refuses an expired token', async () => {
    expect(await reason(verifier()(sign(claims({ iat: now() - 7200, exp: now() - 3600 }))))).toBe('expired')
  })

  it.each([
    ['another project', { aud: 'someone-else' }, 'invalid'],
    ['another issuer', { iss: 'https://evil.example.com' }, 'invalid'],
    ['an empty subject', { sub: '' }, 'subject'],
    ['a sign-in time in the future', { auth_time: now() + 3600 }, 'time'],
    ['no email', { email: undefined }, 'no-email'],
  ])('refuses a token for %s', async (_, overrides, expected) => {
    expect(await reason(verifier()(sign(claims(overrides))))).toBe(expected)
  })

  it('refuses garbage', async () => {
    expect(await reason(verifier()('not.a.token'))).toBe('malformed')
  })

  it('refuses a token issued before the account was revoked', async () => {
    const revokedAt = new Date((now() - 30) * 1000).toUTCString()
    expect(await reason(verifier(async () => ({ disabled: false, tokensValidAfterTime: revokedAt }))(sign()))).toBe('revoked')
  })

  it('accepts a token issued after a revocation', async () => {
    const revokedAt = new Date((now() - 120) * 1000).toUTCString()
    await expect(verifier(async () => ({ disabled: false, tokensValidAfterTime: revokedAt }))(sign())).resolves.toBeTruthy()
  })

  it('refuses disabled and deleted accounts', async () => {
    expect(await reason(verifier(async () => ({ disabled: true }))(sign()))).toBe('disabled')
    expect(await reason(verifier(async () => undefined)(sign()))).toBe('no-account')
  })
})

describe('verifying Firebase ID tokens (emulator mode)', () => {
  const emulatorVerifier = (
    account: Awaited<ReturnType<AccountLookup>> = { disabled: false, email: 'ana@example.com', emailVerified: true },
  ) => createIdTokenVerifier({ projectId: PROJECT, emulator: true, signingKeys: async () => ({}), lookupAccount: async () => account })
  const unsigned = (overrides: Record<string, unknown> = {}) => jwt.sign(claims(overrides), '', { algorithm: 'none' })

  it('takes only the unsigned tokens the emulator issues', async () => {
    await expect(emulatorVerifier()(unsigned())).resolves.toMatchObject({ uid: 'uid-123' })
    expect(await reason(emulatorVerifier()(sign()))).toBe('algorithm')
  })

  it("takes the email and its verified flag from the emulator's account, not from the unsigned token", async () => {
    const forged = unsigned({ email: 'boss@example.com', email_verified: true })
    expect(await emulatorVerifier({ disabled: false, email: 'Mallory@Example.com', emailVerified: false })(forged)).toMatchObject({
      email: 'mallory@example.com',
      emailVerified: false,
    })
    expect(await reason(emulatorVerifier({ disabled: false })(forged))).toBe('no-email')
  })
})

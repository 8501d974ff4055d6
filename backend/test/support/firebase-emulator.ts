import { inject } from 'vitest'

/** REST calls to the real Auth emulator the backend tests share (see auth-emulator-setup.ts). */
const base = () => `http://${inject('authEmulatorHost')}`
const KEY = 'demo-api-key'

async function call<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${base()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as T & { error?: { message: string } }
  if (!res.ok) throw new Error(`${path}: ${res.status} ${json.error?.message}`)
  return json
}

export interface EmulatorAccount {
  uid: string
  email: string
  idToken: string
}

let counter = 0
/** A unique address per call, so tests never collide on accounts. */
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`

export async function createAccount(options: { email?: string; password?: string; displayName?: string } = {}): Promise<EmulatorAccount> {
  const email = options.email ?? uniqueEmail()
  const res = await call<{ localId: string; idToken: string }>(`/identitytoolkit.googleapis.com/v1/accounts:signUp?key=${KEY}`, {
    email,
    password: options.password ?? 'secret-pass-1',
    displayName: options.displayName,
    returnSecureToken: true,
  })
  return { uid: res.localId, email, idToken: res.idToken }
}

/** A fresh ID token for an existing account. */
export async function signIn(email: string, password = 'secret-pass-1'): Promise<string> {
  const res = await call<{ idToken: string }>(`/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${KEY}`, {
    email,
    password,
    returnSecureToken: true,
  })
  return res.idToken
}

/** Admin-side update of an account (the emulator accepts the "owner" bearer). */
export async function updateAccount(uid: string, fields: Record<string, unknown>): Promise<void> {
  await call(
    `/identitytoolkit.googleapis.com/v1/projects/demo-wumpus/accounts:update`,
    { localId: uid, ...fields },
    { authorization: 'Bearer owner' },
  )
}

/** Marks the account's email verified, as following the emailed link does; answers a fresh ID token. */
export async function verifyEmail(account: EmulatorAccount, password = 'secret-pass-1'): Promise<string> {
  await updateAccount(account.uid, { emailVerified: true })
  return signIn(account.email, password)
}

/** Deletes the account (its email can then be signed up again, as a new Firebase account). */
export async function deleteAccount(uid: string): Promise<void> {
  await call(`/identitytoolkit.googleapis.com/v1/projects/demo-wumpus/accounts:delete`, { localId: uid }, { authorization: 'Bearer owner' })
}

/** An unsigned token as the emulator issues them, with any claims: what a forger could send. */
export function forgedIdToken(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000)
  const payload = {
    iss: 'https://securetoken.google.com/demo-wumpus',
    aud: 'demo-wumpus',
    auth_time: now,
    iat: now,
    exp: now + 3600,
    ...claims,
  }
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`
}

import { expect, inject, vi } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'

let counter = 0
/** A fresh address per call so tests never share accounts. */
export const uniqueEmail = (prefix = 'user') => `${prefix}${Date.now().toString(36)}${++counter}@example.com`

type OobType = 'VERIFY_EMAIL' | 'PASSWORD_RESET'

/** The emulator sends no mail; it lists the links it would have sent. Waits for the newest one. */
export async function oobLink(email: string, requestType: OobType): Promise<string> {
  const url = `${inject('authEmulatorURL')}/emulator/v1/projects/demo-wumpus/oobCodes`
  let link: string | undefined
  await vi.waitFor(
    async () => {
      const { oobCodes } = (await (await fetch(url)).json()) as { oobCodes: { email: string; requestType: string; oobLink: string }[] }
      link = oobCodes.filter((c) => c.email === email && c.requestType === requestType).at(-1)?.oobLink
      expect(link).toBeTruthy()
    },
    { timeout: 15_000, interval: 200 },
  )
  return link!
}

/**
 * Creates an email/password account straight in the emulator (for tests that are not about sign-up).
 * `verified` marks its email verified, as following the emailed link does: profile changes and admin
 * power need it.
 */
export async function createAccount(email: string, password: string, displayName?: string, { verified = false } = {}): Promise<void> {
  const res = await fetch(`${inject('authEmulatorURL')}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, displayName, returnSecureToken: true }),
  })
  expect(res.status).toBe(200)
  if (!verified) return
  const { localId } = (await res.json()) as { localId: string }
  const update = await fetch(`${inject('authEmulatorURL')}/identitytoolkit.googleapis.com/v1/projects/demo-wumpus/accounts:update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId, emailVerified: true }),
  })
  expect(update.status).toBe(200)
}

export async function signInWithEmail(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email Address*').fill(email)
  await page.getByLabel('Password*').fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

/**
 * The toast text, once it shows. A sign-up on a busy 2-core machine (Firebase SDK, emulator, upload,
 * email) can take longer than 15 s; when the toast never comes, the error says what the page showed.
 */
export async function expectToast(page: Page, text: string): Promise<void> {
  try {
    await page.getByText(text, { exact: true }).first().waitFor({ timeout: 45_000 })
  } catch (cause) {
    const shown = await page
      .getByRole('alert')
      .allInnerTexts()
      .catch(() => [])
    throw new Error(`no toast '${text}' at ${page.url()}; alerts shown: ${JSON.stringify(shown)}`, { cause })
  }
}

export const accessToken = (page: Page) => page.evaluate(() => localStorage.getItem('accessToken'))

/**
 * Signs an account in the way the app does after a Firebase sign-in (ID token exchanged for our
 * session token) and answers the token, for tests that are not about signing in.
 */
export async function sessionToken(email = uniqueEmail(), password = 'session-pass-1', displayName = 'Test Visitor'): Promise<string> {
  const res = await fetch(`${inject('authEmulatorURL')}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, displayName, returnSecureToken: true }),
  })
  const { idToken } = (await res.json()) as { idToken: string }
  const exchange = await fetch(`${inject('baseURL')}/api/user/${email}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ email, user_name: displayName, photo: '' }),
  })
  expect(exchange.status).toBe(200)
  return ((await exchange.json()) as { token: string }).token
}

/** Makes every page of the context start signed in with this session token. */
export async function startSignedIn(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript((value) => {
    if (!sessionStorage.getItem('signed-in-once')) {
      localStorage.setItem('accessToken', value)
      sessionStorage.setItem('signed-in-once', '1')
    }
  }, token)
}

/** The demo admin that `npm start` prepares in the local emulator. */
export const DEMO_ADMIN = { email: 'admin@wumpus.gallery', password: 'wumpus-admin' }

/** Our session token for an existing email/password account, as the app gets it after sign-in. */
export async function signInToken(email: string, password: string): Promise<string> {
  const res = await fetch(`${inject('authEmulatorURL')}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  })
  expect(res.status).toBe(200)
  const { idToken } = (await res.json()) as { idToken: string }
  const exchange = await fetch(`${inject('baseURL')}/api/user/${email}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ email, user_name: '', photo: '' }),
  })
  expect(exchange.status).toBe(200)
  return ((await exchange.json()) as { token: string }).token
}

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import jwt from 'jsonwebtoken'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { stillPng } from '../backend/test/fixtures/png'
import { accessToken, createAccount, expectToast, oobLink, signInWithEmail, uniqueEmail } from './support/accounts'
import { launchBrowser, newContext, PHONE } from './support/browser'
import { installGoogleStandIn, signInWithGoogle } from './support/google-sign-in'

const baseURL = inject('baseURL')
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

async function openPage(pathname: string, options: Parameters<typeof newContext>[2] = {}): Promise<Page> {
  const context = await newContext(browser, baseURL, options)
  contexts.push(context)
  await installGoogleStandIn(context)
  const page = await context.newPage()
  await page.goto(pathname)
  return page
}

const nav = (page: Page) => page.getByRole('banner')

describe('sign-up, email verification and sign-in', () => {
  const email = uniqueEmail('ada')
  const password = 'first-pass-1'
  let page: Page

  it('signs up with a photo: name and photo set on the account, verification email sent, toast shown', async () => {
    page = await openPage('/signUp')
    const photoDir = mkdtempSync(path.join(tmpdir(), 'wumpus-photo-'))
    const photo = path.join(photoDir, 'ada.png')
    writeFileSync(photo, stillPng(8, 8))

    await page.getByLabel('Name*').fill('Ada Lovelace')
    await page.getByLabel('Email Address*').fill(email)
    await page.getByLabel('Password*').fill(password)
    await page.locator('input[type=file]').setInputFiles(photo)
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click()

    await expectToast(page, 'Sign up success')
    await page.waitForURL('**/emailVerification')
    await page.getByRole('heading', { name: 'Email Verification' }).waitFor()
    await page.getByRole('button', { name: 'Send Again' }).waitFor()

    // Until the email is verified the server keeps only a bare record: name and photo wait on the account.
    const token = await accessToken(page)
    const profile = await (await fetch(`${baseURL}/api/profile/${email}`, { headers: { authorization: `Bearer ${token}` } })).json()
    expect(profile).toMatchObject({ email, user_name: '', photo: '' })
    expect(await oobLink(email, 'VERIFY_EMAIL')).toContain('mode=verifyEmail')
  })

  it('notices the email verified once the link from the email is opened, moves on, and the profile takes name and photo', async () => {
    const link = await oobLink(email, 'VERIFY_EMAIL')
    // The link's page leads back to the app's waiting page.
    expect(new URL(new URL(link).searchParams.get('continueUrl')!).pathname).toBe('/emailVerification')
    const mail = await page.context().newPage()
    await mail.goto(link)
    await mail.close()
    // The waiting page, still open, checks again by itself (on focus, or its timer) and moves on.
    await expectToast(page, 'Your email is verified.')
    await page.waitForURL('**/dashboard')

    // The page renewed the session with the verified email: the server took the name and the photo,
    // an image stored on our own server, from the account.
    await expect
      .poll(async () => JSON.parse(Buffer.from((await accessToken(page))!.split('.')[1]!, 'base64url').toString()).email_verified)
      .toBe(true)
    const profile = await (
      await fetch(`${baseURL}/api/profile/${email}`, { headers: { authorization: `Bearer ${await accessToken(page)}` } })
    ).json()
    expect(profile).toMatchObject({ email, user_name: 'Ada Lovelace' })
    expect(profile.photo).toMatch(/\/api\/files\/[0-9a-f]{24}\/ada\.png$/)
    expect((await fetch(new URL(profile.photo, baseURL))).headers.get('content-type')).toBe('image/png')
  })

  it('shows the display name in the navigation, and signs out', async () => {
    await page.goto('/')
    await nav(page).getByText('Ada Lovelace').waitFor()
    expect(await nav(page).getByRole('link', { name: 'Dashboard' }).count()).toBeGreaterThan(0)
    // The server renders the home page for a signed-out visitor; the hint goes once the page has hydrated.
    await expect.poll(() => page.getByText("Don't know what is wumpus?").count()).toBe(0)
    const token = await accessToken(page)
    await nav(page).getByRole('button', { name: 'SignOut' }).click()
    await nav(page).getByRole('link', { name: 'Sign In' }).waitFor()
    expect(await accessToken(page)).toBeNull()
    // Signed out on the server too: the old token is refused.
    await expect
      .poll(async () => (await fetch(`${baseURL}/api/profile/${email}`, { headers: { authorization: `Bearer ${token}` } })).status)
      .toBe(401)
    await page.getByText("Don't know what is wumpus?").waitFor()
  })

  it('shows a red card for a wrong password, then signs in with the right one', async () => {
    await page.goto('/signIn')
    await signInWithEmail(page, email, 'wrong-pass-9')
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).not.toMatch(/auth\/|Firebase:/)
    await signInWithEmail(page, email, password)
    await page.waitForURL(baseURL + '/')
    await nav(page).getByText('Ada Lovelace').waitFor()
    expect(await accessToken(page)).toBeTruthy()
  })
})

describe('forgotten password', () => {
  it('sends a reset email, the link sets a new password, and the new password signs in', async () => {
    const email = uniqueEmail('forgot')
    await createAccount(email, 'old-pass-1', 'Forgetful User')
    const page = await openPage('/signIn')
    await page.getByRole('link', { name: 'Forget Password?' }).click()
    await page.waitForURL('**/forgetPassword')
    await page.getByText('Forgot password?').waitFor()
    expect(await page.getByLabel(/email/i).getAttribute('type')).toBe('email')
    await page.getByLabel(/email/i).fill(email)
    await page.getByRole('button', { name: 'Reset password' }).click()
    await expectToast(page, 'Email sent')

    const reset = await page.context().newPage()
    const res = await reset.goto(`${await oobLink(email, 'PASSWORD_RESET')}&newPassword=new-pass-2`)
    expect(res?.ok()).toBe(true)
    await reset.close()

    await page.goto('/signIn')
    await signInWithEmail(page, email, 'new-pass-2')
    await page.waitForURL(baseURL + '/')
    await nav(page).getByText('Forgetful User').waitFor()
  })
})

describe('Google sign-in', () => {
  it('signs in through the popup and shows the account in the navigation', async () => {
    const email = uniqueEmail('grace')
    const page = await openPage('/signIn')
    await signInWithGoogle(page, page.getByRole('button', { name: 'Sign in with Google' }), { email, name: 'Grace Hopper' })
    await page.waitForURL(baseURL + '/')
    await nav(page).getByText('Grace Hopper').waitFor()
    expect(await accessToken(page)).toBeTruthy()
  })
})

describe('protected pages', () => {
  it('redirect to /signIn and come back after sign-in', async () => {
    const email = uniqueEmail('back')
    await createAccount(email, 'back-pass-1', 'Returning User')
    const page = await openPage('/dashboard/profile')
    await page.waitForURL(/\/signIn/)
    await signInWithEmail(page, email, 'back-pass-1')
    await page.waitForURL('**/dashboard/profile')
  })
})

describe('session renewal', () => {
  it('renews an expired session silently through Firebase and keeps the user signed in', async () => {
    const email = uniqueEmail('renew')
    await createAccount(email, 'renew-pass-1', 'Renewing User')
    const page = await openPage('/signIn')
    await signInWithEmail(page, email, 'renew-pass-1')
    await page.waitForURL(baseURL + '/')

    // Our session token runs out (signed with the server's own secret, expired an hour ago).
    const secret = readFileSync(path.join(inject('dataDir'), 'jwt-secret'), 'utf8').trim()
    const expired = jwt.sign({ email, name: 'Renewing User', email_verified: false }, secret, {
      algorithm: 'HS256',
      issuer: 'wumpus-gallery',
      audience: 'wumpus-gallery',
      subject: email,
      expiresIn: -3600,
    })
    await page.evaluate((token) => localStorage.setItem('accessToken', token), expired)
    await page.goto('/dashboard/profile')
    await page.getByRole('heading', { name: 'My profile' }).waitFor()
    const renewed = await accessToken(page)
    expect(renewed).not.toBe(expired)
    expect(renewed).not.toBeNull()
    expect(JSON.parse(Buffer.from(renewed!.split('.')[1]!, 'base64url').toString()).exp).toBeGreaterThan(Date.now() / 1000)
  })

  it('renews an expired session in the middle of an image upload, which then succeeds', async () => {
    const email = uniqueEmail('renewup')
    await createAccount(email, 'renew-pass-2', 'Uploading User', { verified: true })
    const page = await openPage('/signIn?from=/dashboard/profile')
    await signInWithEmail(page, email, 'renew-pass-2')
    await page.waitForURL('**/dashboard/profile')
    await page.getByRole('heading', { name: 'My profile' }).waitFor()

    // The token runs out while the page stays open: the upload is the first request to meet the 401.
    const secret = readFileSync(path.join(inject('dataDir'), 'jwt-secret'), 'utf8').trim()
    const expired = jwt.sign({ email, name: 'Uploading User', email_verified: true }, secret, {
      algorithm: 'HS256',
      issuer: 'wumpus-gallery',
      audience: 'wumpus-gallery',
      subject: email,
      expiresIn: -3600,
    })
    await page.evaluate((token) => localStorage.setItem('accessToken', token), expired)
    const photo = path.join(mkdtempSync(path.join(tmpdir(), 'wumpus-photo-')), 'me.png')
    writeFileSync(photo, stillPng(8, 8))
    await page.getByTestId('photo-file').setInputFiles(photo)

    await page.getByText('Image ready').waitFor()
    const renewed = await accessToken(page)
    expect(renewed).not.toBe(expired)
    expect(JSON.parse(Buffer.from(renewed!.split('.')[1]!, 'base64url').toString()).exp).toBeGreaterThan(Date.now() / 1000)
  })
})

describe('my profile', () => {
  it('masks the email and keeps edits across a reload', async () => {
    const email = uniqueEmail('prof')
    await createAccount(email, 'prof-pass-1', 'Profile Person', { verified: true })
    const page = await openPage('/signIn?from=/dashboard/profile')
    await signInWithEmail(page, email, 'prof-pass-1')
    await page.waitForURL('**/dashboard/profile')
    await page.getByText(`${email.slice(0, 3)}...@example.com`).waitFor()

    await page.getByLabel('Job').fill('Sticker animator')
    await page.getByLabel('About you').fill('I draw round friendly creatures.')
    await page.getByRole('button', { name: 'Update Profile' }).click()
    await expectToast(page, 'Profile updated')
    await page.reload()
    await expect.poll(() => page.getByLabel('Job').inputValue(), { timeout: 15_000 }).toBe('Sticker animator')
    await page.getByText('I draw round friendly creatures.').first().waitFor()
  })
})

describe('validation messages (docs/pages.md#validation-messages)', () => {
  const messageShown = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 5000 })

  it('sign-in: required, email pattern and password length, checked on submit and again on change', async () => {
    const page = await openPage('/signIn')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await messageShown(page, 'Email is required')
    await messageShown(page, 'Password is required')
    await page.getByLabel('Email Address*').fill('not-an-email')
    await messageShown(page, 'Provide a valid email address')
    await page.getByLabel('Password*').fill('12345')
    await messageShown(page, 'Password must be at least 6 characters')
    await page.getByLabel('Email Address*').fill('fine@example.com')
    await page.getByLabel('Password*').fill('123456')
    await expect.poll(() => page.getByText('Provide a valid email address').count()).toBe(0)
    await expect.poll(() => page.getByText('Password must be at least 6 characters').count()).toBe(0)
  })

  it('sign-up: name, email and password messages', async () => {
    const page = await openPage('/signUp', { viewport: PHONE })
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click()
    await messageShown(page, 'Name is required')
    await messageShown(page, 'Email is required')
    await messageShown(page, 'Password is required')
    await page.getByLabel('Name*').fill('Bad$Name')
    await messageShown(page, 'Provide a valid name')
    await page.getByLabel('Name*').fill('Abc')
    await messageShown(page, 'Name should be at least 5 characters')
    await page.getByLabel('Email Address*').fill('nope@')
    await messageShown(page, 'Provide a valid email address')
    await page.getByLabel('Password*').fill('abc')
    await messageShown(page, 'Password must be at least 6 characters')
  })
})

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => {})))
})

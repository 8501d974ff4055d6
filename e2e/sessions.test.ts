import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { accessToken, createAccount, DEMO_ADMIN, expectToast, signInToken, startSignedIn, uniqueEmail } from './support/accounts'
import { browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

/** A browser of its own (one device), signed in with this session token. */
async function openAs(token: string, pathname: string): Promise<Page> {
  const context = await openContext()
  await startSignedIn(context, token)
  const page = await context.newPage()
  await page.goto(pathname)
  return page
}

const profileStatus = async (email: string, token: string) =>
  (await fetch(`${baseURL}/api/profile/${email}`, { headers: { authorization: `Bearer ${token}` } })).status

/** A verified account signed in on two devices (two sessions). */
async function userOnTwoDevices(prefix: string, name: string) {
  const email = uniqueEmail(prefix)
  await createAccount(email, 'session-pass-1', name, { verified: true })
  return { email, phone: await signInToken(email, 'session-pass-1'), laptop: await signInToken(email, 'session-pass-1') }
}

describe('ending sessions', () => {
  it('My profile → Sign out everywhere signs out this device and the other one', async () => {
    const { email, phone, laptop } = await userOnTwoDevices('everywhere', 'Everywhere User')
    const other = await openAs(laptop, '/dashboard/profile')
    await other.getByRole('heading', { name: 'My profile' }).waitFor()

    const page = await openAs(phone, '/dashboard/profile')
    await page.getByRole('button', { name: 'Sign out everywhere' }).click()
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' })
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click()
    await expectToast(page, 'Signed out everywhere')
    await page.waitForURL(baseURL + '/')
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).first().waitFor()
    expect(await accessToken(page)).toBeNull()

    // Both sessions ended on the server; the other device is signed out at its next request.
    expect(await profileStatus(email, phone)).toBe(401)
    expect(await profileStatus(email, laptop)).toBe(401)
    await other.reload()
    await other.waitForURL(/\/signIn/)
    expect(await accessToken(other)).toBeNull()
  })

  it('All users → an admin signs a user out everywhere, and the Activity page says so', async () => {
    const { email, phone, laptop } = await userOnTwoDevices('kicked', 'Kicked User')
    const adminToken = await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password)
    const admin = await openAs(adminToken, '/dashboard/users')
    await admin.getByLabel('Search users').fill(email)
    await admin.getByRole('button', { name: 'Sign Kicked User out everywhere' }).click()
    await admin
      .getByRole('dialog', { name: 'Sign Kicked User out everywhere?' })
      .getByRole('button', { name: 'Sign out everywhere' })
      .click()
    await expectToast(admin, 'Signed Kicked User out everywhere')
    expect(await profileStatus(email, phone)).toBe(401)
    expect(await profileStatus(email, laptop)).toBe(401)
    expect(await profileStatus(DEMO_ADMIN.email, adminToken)).toBe(200)

    await admin.getByRole('link', { name: 'Activity' }).first().click()
    const latest = admin.getByRole('table', { name: 'Admin activity' }).getByRole('row').nth(1)
    await latest.getByText('Signed out everywhere').waitFor()
    expect(await latest.getByRole('link', { name: 'Kicked User' }).getAttribute('href')).toBe(`/profile/${email}`)
    expect(await latest.textContent()).toContain('Open sessions')
  })
})

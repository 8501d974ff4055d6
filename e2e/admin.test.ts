import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { backupListSchema } from '../contract/backups'
import { wumpusSchema } from '../contract/wumpus'
import { inspectMedia } from '../backend/src/media/inspect/inspect'
import { checkBackup } from '../backend/src/store/sqlite/backup'
import { createAccount, DEMO_ADMIN, expectToast, signInToken, signInWithEmail, startSignedIn, uniqueEmail } from './support/accounts'
import { browserForTests } from './support/browser'
import { FIXTURE_FILES, publishAnimation } from './support/publish'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)
let adminToken: string
const FILES = FIXTURE_FILES

beforeAll(async () => {
  adminToken = await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password)
})

async function openAs(token: string | undefined, pathname: string): Promise<Page> {
  const context = await openContext()
  if (token) await startSignedIn(context, token)
  const page = await context.newPage()
  await page.goto(pathname)
  return page
}

const total = async () => Number((await fetch(`${baseURL}/api/wumpuses?limit=1`)).headers.get('x-total-count'))
const api = (pathname: string, token?: string, init: RequestInit = {}) =>
  fetch(baseURL + pathname, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers } })

async function chooseFile(page: Page, button: string, file: string) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: button }).click()])
  await chooser.setFiles(file)
}

async function fillNameAndDescription(page: Page, name: string) {
  await page.getByLabel('Animation name*').fill(name)
  await page.getByLabel('Animation description*').fill('Made in a browser test, with care.')
  // The emoji picker: found by name, picked, closed.
  await page.getByRole('button', { name: 'Add emoji' }).click()
  await page.getByRole('textbox', { name: 'Search emoji' }).fill('wave')
  await page.getByRole('group', { name: 'Matching emoji' }).getByRole('button', { name: 'waving hand', exact: true }).click()
  await page.keyboard.press('Escape')
  await page.getByRole('group', { name: 'Emoji*' }).getByRole('img', { name: 'waving hand' }).waitFor()
}

describe('adding animations as the demo admin', () => {
  it('publishes an animation from three files and the home count grows', async () => {
    const before = await total()
    const page = await openAs(adminToken, '/dashboard/addNew')
    await fillNameAndDescription(page, 'Three File Wumpus')
    await chooseFile(page, 'or upload a Lottie .json file', FILES.lottie)
    await chooseFile(page, 'Upload .png file', FILES.apng)
    await chooseFile(page, 'Upload .gif file', FILES.gif)
    // What the server checked shows before publishing.
    await page
      .getByText(/32\s*[×x]\s*32/)
      .first()
      .waitFor()
    await page.getByRole('button', { name: 'Publish' }).click()
    await expectToast(page, 'Animation added')
    await expect.poll(total).toBe(before + 1)
    // The page stays and follows the platform exports the server makes in the background.
    await page.getByText('Three File Wumpus is published').waitFor()
    await page
      .getByRole('region', { name: 'Platform exports' })
      .getByRole('listitem', { name: /^Discord: / })
      .waitFor()
    const [newest] = await (await api('/api/wumpuses?limit=1')).json()
    expect(newest).toMatchObject({ name: 'Three File Wumpus', u_email: DEMO_ADMIN.email, emoji: [{ char: '👋', name: 'waving hand' }] })
  })

  it('publishes from a Lottie alone: the server renders GIF and APNG, which download as valid files', async () => {
    const page = await openAs(adminToken, '/dashboard/addNew')
    await fillNameAndDescription(page, 'Lottie Only Wumpus')
    await chooseFile(page, 'or upload a Lottie .json file', FILES.lottie)
    await page.getByRole('button', { name: /^Generate/ }).click()
    const publish = page.getByRole('button', { name: 'Publish' })
    await expect.poll(() => publish.isEnabled(), { timeout: 30_000 }).toBe(true)
    await publish.click()
    await expectToast(page, 'Animation added')
    const [newest] = await (await api('/api/wumpuses?limit=1')).json()
    expect(newest.name).toBe('Lottie Only Wumpus')

    await page.goto(`/wumpus/${newest._id}`)
    for (const [label, format] of [
      ['GIF', 'gif'],
      ['APNG', 'apng'],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: new RegExp(`^${label}: download`) }).click(),
      ])
      const bytes = new Uint8Array(readFileSync(await download.path()))
      expect(inspectMedia(bytes, format)).toMatchObject({ width: 320, height: 320 })
    }
  })

  it('shows every add-form validation message', async () => {
    const page = await openAs(adminToken, '/dashboard/addNew')
    await page.getByRole('button', { name: 'Publish' }).click()
    for (const message of [
      'Name is required',
      'Description is required',
      'Enter lottie json link',
      '.png file is required',
      '.gif file is required',
      'Pick at least one emoji',
    ]) {
      await page.getByText(message, { exact: true }).first().waitFor()
    }
    await page.getByLabel('Animation name*').fill('A$')
    await page.getByText('Provide a valid name', { exact: true }).waitFor()
    await page.getByLabel('Animation name*').fill('Ab')
    await page.getByText('Name should be at least 3 characters', { exact: true }).waitFor()
    await page.getByLabel('Animation description*').fill('short')
    await page.getByText('Description should be at least 10 characters', { exact: true }).waitFor()
    await page.getByLabel(/^Lottie link/).fill('not a link')
    await page.getByText('Enter a valid URL', { exact: true }).waitFor()
  })
})

describe('editing and deleting', () => {
  it('edits only the name and keeps everything else', async () => {
    const wumpus = await publishAnimation(adminToken, 'Before Rename')
    const page = await openAs(adminToken, `/editWumpus/${wumpus._id}`)
    const name = page.getByLabel(/^Animation name/)
    await name.fill('After Rename')
    await page.getByRole('button', { name: /update|save|submit/i }).click()
    await expectToast(page, 'Animation updated')
    // The page stays, with the platform exports below the form.
    await page.getByText('Changes saved').waitFor()
    await page.getByRole('region', { name: 'Platform exports' }).waitFor()
    // The card previews and platform exports (and so `fits`) may have been made meanwhile, and only the
    // detail counts remixes; everything else is as it was.
    const detail = wumpusSchema.parse(await (await api(`/api/wumpus/${wumpus._id}`)).json())
    expect(detail.remixes).toBe(0)
    const { preview: _preview, fits: _fits, remixes: _remixes, ...after } = detail
    const { preview: _previewBefore, fits: _fitsBefore, ...before } = wumpus
    expect(after).toEqual({ ...before, name: 'After Rename' })
  })

  it('deletes from the manage table after confirmation, and its files are gone', async () => {
    const wumpus = await publishAnimation(adminToken, 'Doomed Wumpus')
    const page = await openAs(adminToken, '/dashboard/manage')
    await page.getByRole('button', { name: 'Delete Doomed Wumpus' }).click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /delete/i })
      .click()
    await expectToast(page, 'Wumpus deleted successfully')
    await expect.poll(() => page.getByRole('button', { name: 'Delete Doomed Wumpus' }).count()).toBe(0)
    for (const url of [wumpus.gif, wumpus.apng, wumpus.lottie]) expect((await fetch(baseURL + url)).status).toBe(404)
    expect((await api(`/api/wumpus/${wumpus._id}`)).status).toBe(404)
  })

  it('lists the edit and the delete, with who did them, on the Activity page', async () => {
    const wumpus = await publishAnimation(adminToken, 'Logged Wumpus')
    expect(
      (
        await api(`/api/wumpuses/${wumpus._id}`, adminToken, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Renamed Logged Wumpus' }),
        })
      ).status,
    ).toBe(200)
    expect((await api(`/api/wumpus/${wumpus._id}`, adminToken, { method: 'DELETE' })).status).toBe(200)
    const page = await openAs(adminToken, '/dashboard')
    await page.getByRole('link', { name: 'Activity' }).first().click()
    const table = page.getByRole('table', { name: 'Admin activity' })
    const rows = table.getByRole('row')
    await rows.nth(1).getByText('Deleted').waitFor()
    expect(await rows.nth(1).textContent()).toContain('Renamed Logged Wumpus')
    expect(await rows.nth(2).textContent()).toMatch(/Edited.*Renamed Logged Wumpus/)
    expect(await rows.nth(2).textContent()).toContain('Logged Wumpus')
    expect(await rows.nth(3).textContent()).toContain('Published')
    expect(await rows.nth(1).getByRole('link', { name: DEMO_ADMIN.email }).first().getAttribute('href')).toBe(
      `/profile/${DEMO_ADMIN.email}`,
    )
  })
})

describe('backups', () => {
  it('makes a backup from the Backups page while the gallery serves, and the backup is whole', async () => {
    const page = await openAs(adminToken, '/dashboard')
    await page.getByRole('link', { name: 'Backups' }).first().click()
    await page.getByRole('heading', { name: 'Backups', level: 1 }).waitFor()
    const rows = page.getByRole('table', { name: 'Backups' }).getByRole('row')
    const before = (await page.getByText('No backups yet.').count()) > 0 ? 0 : (await rows.count()) - 1
    await page.getByRole('button', { name: 'Back up now' }).click()
    await page
      .getByText(/^Backed up \d+ files as of /)
      .first()
      .waitFor({ timeout: 45_000 })
    await expect.poll(async () => (await rows.count()) - 1, { timeout: 30_000 }).toBe(before + 1)
    const { backups } = backupListSchema.parse(await (await api('/api/backups', adminToken)).json())
    expect(await rows.nth(1).textContent()).toContain(backups[0]!.name)
    // The newest backup holds the database and every file it lists.
    const report = await checkBackup(path.join(inject('dataDir'), 'backups', backups[0]!.name))
    expect(report.files).toBeGreaterThan(0)
  })
})

describe('roles', () => {
  it('makes a user admin; after signing in again they see the admin items', async () => {
    const email = uniqueEmail('promoted')
    // Admin power needs a verified email.
    await createAccount(email, 'promo-pass-1', 'Promoted User', { verified: true })
    const userToken = await signInToken(email, 'promo-pass-1')

    const before = await openAs(userToken, '/dashboard')
    await before.getByRole('link', { name: 'My profile' }).first().waitFor()
    expect(await before.getByRole('link', { name: 'Add animation' }).count()).toBe(0)

    const admin = await openAs(adminToken, '/dashboard/users')
    await admin.getByLabel('Search users').fill(email)
    await admin.getByRole('button', { name: 'Make Promoted User an admin' }).click()
    await admin.getByRole('dialog').getByRole('button', { name: 'Make admin' }).click()
    await expectToast(admin, 'Made admin successfully')

    const after = await openAs(undefined, '/signIn')
    await signInWithEmail(after, email, 'promo-pass-1')
    await after.waitForURL(baseURL + '/')
    await after.goto('/dashboard')
    for (const item of ['Add animation', 'Manage animation', 'All users']) await after.getByRole('link', { name: item }).first().waitFor()
  })

  it('keeps normal users out of admin screens and the admin API', async () => {
    const email = uniqueEmail('normal')
    await createAccount(email, 'normal-pass-1', 'Normal User')
    const token = await signInToken(email, 'normal-pass-1')
    for (const pathname of ['/dashboard/addNew', '/dashboard/manage', '/dashboard/users']) {
      const page = await openAs(token, pathname)
      await page.getByRole('heading', { level: 1, name: 'Admins only' }).waitFor()
    }
    expect((await api('/api/users', token)).status).toBe(403)
    expect((await api('/api/user/admin/someone@example.com', token, { method: 'PUT' })).status).toBe(403)
    const [any] = await (await api('/api/wumpuses?limit=1')).json()
    expect((await api(`/api/wumpus/${any._id}`, token, { method: 'DELETE' })).status).toBe(403)
  })
})

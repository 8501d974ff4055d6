// A sticker from the community: sent from a phone's file picker as a Telegram .tgs, kept on the device while it
// is written, published by an admin, then in the gallery with its maker's credit and licence, and reported.
import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { expect, inject, it } from 'vitest'
import { lottie } from '../backend/test/fixtures/lottie'
import { createAccount, DEMO_ADMIN, signInToken, startSignedIn, uniqueEmail } from './support/accounts'
import { browserForTests, PHONE } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

async function open(token: string, options: Parameters<typeof openContext>[0] = {}): Promise<Page> {
  const context = await openContext(options)
  await startSignedIn(context, token)
  return context.newPage()
}

/** The name in the draft this device keeps (the `submission-drafts` store, keyed by email). */
const draftName = (page: Page, email: string) =>
  page.evaluate(
    (key) =>
      new Promise<string | undefined>((resolve) => {
        const request = indexedDB.open('submission-drafts')
        request.onerror = () => resolve(undefined)
        request.onsuccess = () => {
          const db = request.result
          if (!db.objectStoreNames.contains('submission-drafts')) return resolve(undefined)
          const read = db.transaction('submission-drafts').objectStore('submission-drafts').get(key)
          read.onsuccess = () => resolve((read.result as { fields?: { name?: string } } | undefined)?.fields?.name)
          read.onerror = () => resolve(undefined)
        }
      }),
    email,
  )

it('someone submits a .tgs from a phone, a reload keeps the draft, an admin publishes it, and it joins the gallery with its credit and licence, where a report reaches the admins', async () => {
  const email = uniqueEmail('maker')
  await createAccount(email, 'maker-pass-1', 'Nia Maker', { verified: true })
  const maker = await open(await signInToken(email, 'maker-pass-1'), { viewport: PHONE, isMobile: true, hasTouch: true })
  const name = `Hopping ${Date.now().toString(36)}`

  await maker.goto('/dashboard/submissions')
  await maker.getByRole('link', { name: 'Submit a sticker' }).click()
  await maker.getByRole('heading', { level: 1, name: 'Submit a sticker' }).waitFor()
  await maker.getByTestId('sticker-file').setInputFiles({
    name: 'hopping.tgs',
    mimeType: 'application/octet-stream',
    buffer: gzipSync(JSON.stringify(lottie({ nm: 'hopping', op: 30 }))),
  })
  await maker.getByText('hopping.tgs plays as shown').waitFor()
  // The preview is the real player drawing the sticker.
  await maker.locator('section[aria-label="New submission"] svg').first().waitFor()
  await maker.getByLabel('Animation name*').fill(name)
  await maker.getByLabel('Animation description*').fill('Sent from a phone')

  // A reload (or a phone that drops the tab) loses nothing.
  await expect.poll(() => draftName(maker, email)).toBe(name)
  await maker.reload()
  await maker.getByText('hopping.tgs plays as shown').waitFor()
  expect(await maker.getByLabel('Animation name*').inputValue()).toBe(name)

  await maker.getByRole('button', { name: 'Add emoji' }).click()
  await maker.getByRole('textbox', { name: 'Search emoji' }).fill('wave')
  await maker.getByRole('group', { name: 'Matching emoji' }).getByRole('button', { name: 'waving hand' }).click()
  await maker.getByRole('radio', { name: 'Made by someone else' }).check()
  await maker.getByLabel('Credit*').fill('Ana Lima')
  await maker.getByRole('radio', { name: /CC BY 4\.0/ }).check()
  await maker.getByRole('button', { name: 'Send for review' }).click()

  await maker.waitForURL((url) => url.pathname === '/dashboard/submissions')
  const mine = maker.getByRole('listitem', { name })
  await mine.getByText('Waiting for review').waitFor()
  expect(await draftName(maker, email)).toBeUndefined()

  // An admin publishes it from the queue.
  const admin = await open(await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password))
  await admin.goto('/dashboard/review')
  const queued = admin.getByRole('listitem', { name })
  await queued.getByText('From Nia Maker').waitFor()
  expect(await queued.textContent()).toContain('Made by someone else, credited as Ana Lima · CC BY 4.0 (credit the maker)')
  await queued.getByRole('button', { name: 'Publish' }).click()
  await admin.getByText(`${name} is published`).waitFor({ timeout: 120_000 })

  // The maker sees it published, and opens it in the gallery: credited, with its licence.
  await maker.reload()
  await mine.getByText('Published').waitFor()
  await mine.getByRole('link', { name: 'View in the gallery' }).click()
  await maker.getByRole('heading', { level: 1, name }).waitFor()
  const by = maker.getByRole('region', { name: 'Animation by' })
  await by.getByRole('link', { name: 'Nia Maker' }).waitFor()
  await by.getByText('Made by Ana Lima').waitFor()
  await by.getByText('Licence: CC BY 4.0 (credit the maker)').waitFor()

  // Someone finds a problem with it and says so; the admin sees the report and dismisses it.
  await maker.getByRole('button', { name: 'Report a problem' }).click()
  const dialog = maker.getByRole('dialog', { name: `Report ${name}` })
  await dialog.getByRole('radio', { name: 'It does not play or looks broken' }).check()
  await dialog.getByRole('textbox', { name: /Note/ }).fill('Stops after one hop')
  await dialog.getByRole('button', { name: 'Send report' }).click()
  await maker.getByText('Thank you: an admin will look at it').waitFor()
  await admin.goto('/dashboard/reports')
  const reported = admin.getByRole('listitem', { name })
  await reported.getByText('It does not play or looks broken: Stops after one hop').waitFor()
  expect(await reported.textContent()).toContain(email)
  await reported.getByRole('button', { name: 'Dismiss the reports' }).click()
  await admin.getByText(`1 report on ${name} dismissed`).waitFor()
}, 240_000)

import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { favouritePath, makeAdminPath, userPath } from '../contract/api-paths'
import { packSchema } from '../contract/pack'
import { DESCRIPTION_MAX, JOB_MAX, USER_NAME_MAX } from '../contract/user'
import { PACK_DESCRIPTION_MAX, PACK_NAME_MAX } from '../contract/limits'
import { CAPTION_MAX } from '../contract/remix/caption'
import { REMIX_NAME_MAX } from '../contract/remix/remix-name'
import { SEARCH_MAX_LENGTH } from '../contract/search'
import { WUMPUS_DESCRIPTION_MAX, WUMPUS_NAME_MAX } from '../contract/wumpus-write'
import { createAccount, DEMO_ADMIN, signInToken, startSignedIn, uniqueEmail } from './support/accounts'
import { browserForTests, PHONE } from './support/browser'
import { publishAnimation } from './support/publish'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

/** One word as long as the rules allow: nothing to break a line at. */
const word = (length: number) => 'W'.repeat(length)

/** Fills each field with what its kind takes at its longest (a field's own maxlength wins); answers how many. */
async function fillLongest(page: Page): Promise<number> {
  let filled = 0
  const fields = page
    .locator('main')
    .locator('input:not([type]), input[type=text], input[type=email], input[type=url], input[type=search], textarea')
  for (const field of await fields.all()) {
    if (!(await field.isVisible()) || !(await field.isEditable())) continue
    const type = (await field.getAttribute('type')) ?? 'text'
    const max = Number(await field.getAttribute('maxlength')) || undefined
    const isTextarea = (await field.evaluate((element) => element.tagName)) === 'TEXTAREA'
    const value =
      type === 'email'
        ? `${word(64)}@${'w'.repeat(60)}.example.com`
        : type === 'url'
          ? `https://example.com/${word(200)}`
          : word(max ?? (isTextarea ? 500 : 60))
    await field.fill(value)
    filled++
  }
  // Messages shown on change and blur are part of the layout too.
  await page.locator('body').click({ position: { x: 1, y: 1 } })
  return filled
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)

describe('the longest inputs the rules allow, on a 375 px phone', () => {
  it('keep every page that shows them, and every form that takes them, within the screen', async () => {
    // A contributor whose name, job and description are single words at their longest.
    const email = uniqueEmail('long')
    const password = 'long-pass-1'
    await createAccount(email, password, word(USER_NAME_MAX), { verified: true })
    const token = await signInToken(email, password)
    const admin = await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password)
    const auth = (bearer: string) => ({ authorization: `Bearer ${bearer}`, 'content-type': 'application/json' })
    expect((await fetch(baseURL + makeAdminPath(email), { method: 'PUT', headers: auth(admin) })).status).toBe(200)
    const profile = await fetch(baseURL + userPath(email), {
      method: 'PUT',
      headers: auth(token),
      body: JSON.stringify({ job: word(JOB_MAX), description: word(DESCRIPTION_MAX), url: `https://example.com/${word(200)}` }),
    })
    expect(profile.status, await profile.clone().text()).toBe(200)

    const wumpus = await publishAnimation(token, word(WUMPUS_NAME_MAX), { tags: [word(24)], keywords: [word(40)] })
    const edited = await fetch(`${baseURL}/api/wumpuses/${wumpus._id}`, {
      method: 'PUT',
      headers: auth(token),
      body: JSON.stringify({ description: word(WUMPUS_DESCRIPTION_MAX) }),
    })
    expect(edited.status, await edited.clone().text()).toBe(200)
    expect((await fetch(baseURL + favouritePath(wumpus._id), { method: 'PUT', headers: auth(token) })).status).toBe(204)
    const made = await fetch(`${baseURL}/api/me/packs`, {
      method: 'POST',
      headers: auth(token),
      body: JSON.stringify({
        name: word(PACK_NAME_MAX),
        description: word(PACK_DESCRIPTION_MAX),
        wumpusIds: [wumpus._id],
        visibility: 'link',
      }),
    })
    expect(made.status, await made.clone().text()).toBe(201)
    const pack = packSchema.parse(await made.json())
    // Its remix, named and captioned with one word each at their longest.
    const remixed = await fetch(`${baseURL}/api/wumpus/${wumpus._id}/remix`, {
      method: 'POST',
      headers: auth(token),
      body: JSON.stringify({ name: word(REMIX_NAME_MAX), caption: { text: word(CAPTION_MAX), position: 'bottom' } }),
    })
    expect(remixed.status, await remixed.clone().text()).toBe(201)
    const remix = (await remixed.json()) as { id: string }
    // A search word that matches nothing (the W words above would match): the empty state repeats it.
    const unmatched = 'Q'.repeat(SEARCH_MAX_LENGTH)

    const context = await openContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
    await startSignedIn(context, token)
    const page = await context.newPage()
    const pages = [
      '/',
      `/?q=${word(SEARCH_MAX_LENGTH)}`,
      `/?q=${unmatched}`,
      `/wumpus/${wumpus._id}`,
      `/wumpus/${remix.id}`,
      `/profile/${email}`,
      `/packs/${pack.id}`,
      '/packs',
      '/dashboard',
      '/dashboard/own',
      '/dashboard/favourites',
      '/dashboard/my-packs',
      '/dashboard/manage',
      '/dashboard/users',
      '/dashboard/activity',
      '/dashboard/backups',
      '/dashboard/packs',
      '/saved',
    ]
    const forms = [
      '/dashboard/profile',
      '/dashboard/my-packs/new',
      `/dashboard/my-packs/${pack.id}`,
      '/dashboard/packs/new',
      '/dashboard/addNew',
      `/editWumpus/${wumpus._id}`,
      `/wumpus/${wumpus._id}/remix`,
    ]
    const wide: string[] = []
    for (const pathname of [...pages, ...forms]) {
      await page.goto(pathname)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      if (forms.includes(pathname)) {
        await page.locator('main form, main textarea, main input').first().waitFor()
        expect(await fillLongest(page), pathname).toBeGreaterThan(0)
      }
      if (pathname.endsWith('/remix')) await page.getByRole('textbox', { name: 'Caption text' }).fill(word(CAPTION_MAX))
      if (pathname === `/?q=${unmatched}`) await page.getByRole('heading', { name: /^No animations match/ }).waitFor()
      const width = await pageWidth(page)
      if (width > PHONE.width) wide.push(`${pathname}: ${width} px`)
    }

    // Typed into the home page's search: the empty state follows the typing.
    await page.goto('/')
    await page.getByRole('searchbox').first().fill(unmatched)
    await page.getByRole('heading', { name: /^No animations match/ }).waitFor()
    const searched = await pageWidth(page)
    if (searched > PHONE.width) wide.push(`/ with a search typed: ${searched} px`)

    // A toast that names the pack (toasts sit over the page: their own box must fit).
    await page.goto(`/packs/${pack.id}`)
    await page.getByRole('button', { name: 'Save for offline' }).click()
    const toast = page.getByRole('alert').filter({ hasText: 'Saved for offline' })
    await toast.waitFor()
    const box = (await toast.boundingBox())!
    if (box.x < 0 || box.x + box.width > PHONE.width) wide.push(`the toast on /packs/${pack.id}: ${box.x} to ${box.x + box.width} px`)

    // Signed out: the account forms.
    const visitor = await openContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
    const signedOut = await visitor.newPage()
    for (const pathname of ['/signUp', '/signIn', '/forgetPassword', `/wumpus/${wumpus._id}`, `/packs/${pack.id}`]) {
      await signedOut.goto(pathname)
      await signedOut.getByRole('heading', { level: 1 }).first().waitFor()
      await fillLongest(signedOut)
      if (pathname.startsWith('/sign') || pathname === '/forgetPassword')
        expect(await signedOut.locator('main input').count(), pathname).toBeGreaterThan(0)
      const width = await pageWidth(signedOut)
      if (width > PHONE.width) wide.push(`${pathname} (signed out): ${width} px`)
    }
    expect(wide).toEqual([])
  }, 240_000)
})

import type { BrowserContext } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { packDetailSchema } from '../contract/pack'
import { createAccount, expectToast, signInToken, startSignedIn, uniqueEmail } from './support/accounts'
import { controlledByServiceWorker, newContext, PHONE, browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

async function signedInContext(token: string, options: Parameters<typeof newContext>[2] = {}): Promise<BrowserContext> {
  const created = await openContext(options)
  await startSignedIn(created, token)
  return created
}

describe('my packs', () => {
  it('makes a pack and a favourite, edits the pack offline (rename, reorder), reloads offline with the edit, syncs it online; another device finds both and makes a pack of the favourites', async () => {
    const email = uniqueEmail('packer')
    const password = 'packer-pass-1'
    await createAccount(email, password, 'Pack Maker', { verified: true })
    const token = await signInToken(email, password)
    const name = `Night Pack ${Date.now().toString(36)}`
    const renamed = `${name} renamed`

    const laptop = await signedInContext(token)
    const page = await laptop.newPage()
    await page.goto('/dashboard/my-packs')
    await page.getByText('No packs yet.', { exact: false }).waitFor()
    await page.getByRole('link', { name: 'New pack' }).click()
    await page.getByRole('heading', { level: 1, name: 'New pack' }).waitFor()
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    await page.getByRole('searchbox', { name: 'Search the gallery for stickers' }).fill('wumpus')
    for (const sticker of ['Waving Wumpus', 'Sleepy Wumpus', 'Cheering Wumpus'])
      await page.getByRole('button', { name: `Add ${sticker}` }).click()
    await page.getByRole('button', { name: 'Create pack' }).click()
    await expectToast(page, 'Pack created')
    await page.waitForURL(/\/packs\/[0-9a-f]{24}$/)
    const id = page.url().split('/').pop()!
    await page.getByRole('heading', { level: 1, name }).waitFor()
    await page.getByText('Private', { exact: true }).waitFor()

    // A favourite made on this device too, from the pack's own stickers.
    const heart = page.getByRole('button', { name: 'Favourite Sleepy Wumpus' }).first()
    await heart.click()
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true')
    const favouriteIds = async () =>
      (await (await fetch(`${baseURL}/api/me/favourite-ids`, { headers: { Authorization: `Bearer ${token}` } })).json()) as string[]
    await expect.poll(async () => (await favouriteIds()).length).toBe(1)

    // Under the service worker, the pack and its editor are read once online, so both are kept on the device.
    await controlledByServiceWorker(page)
    await page.getByRole('heading', { level: 1, name }).waitFor()
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: `Edit ${name}` }).waitFor()

    await laptop.setOffline(true)
    try {
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed)
      await page.getByRole('button', { name: 'Move Cheering Wumpus up' }).click()
      await page.getByRole('button', { name: 'Save pack' }).click()
      await expectToast(page, 'Pack saved on this device')
      await page.waitForURL(`**/packs/${id}`)
      const stickers = page.getByRole('list', { name: `Stickers in ${renamed}` }).getByRole('heading', { level: 2 })
      await page.getByRole('heading', { level: 1, name: renamed }).waitFor()
      expect(await stickers.allTextContents()).toEqual(['Waving Wumpus', 'Cheering Wumpus', 'Sleepy Wumpus'])

      // Reloaded offline: the service worker's copy of the pack, with the queued edit over it.
      await page.reload()
      await page.getByRole('heading', { level: 1, name: renamed }).waitFor()
      expect(await stickers.allTextContents()).toEqual(['Waving Wumpus', 'Cheering Wumpus', 'Sleepy Wumpus'])
    } finally {
      await laptop.setOffline(false)
    }

    // Back online, the queued edit reaches the server.
    const serverCopy = async () =>
      packDetailSchema.parse(await (await fetch(`${baseURL}/api/packs/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json())
    await expect.poll(async () => (await serverCopy()).name).toBe(renamed)
    expect((await serverCopy()).items.map((item) => item.name)).toEqual(['Waving Wumpus', 'Cheering Wumpus', 'Sleepy Wumpus'])
    // Private: nobody else opens it.
    expect((await fetch(`${baseURL}/api/packs/${id}`)).status).toBe(404)

    // Another device signed in as the same account finds the pack under My packs, and the favourite.
    const phone = await signedInContext(await signInToken(email, password), { viewport: PHONE })
    const other = await phone.newPage()
    await other.goto('/dashboard/my-packs')
    const card = other.getByRole('list', { name: 'My packs' }).getByRole('listitem', { name: renamed })
    await card.waitFor()
    expect(await card.textContent()).toContain('3 stickers')
    await card.getByRole('link', { name: `Open pack: ${renamed}` }).click()
    await other.getByRole('heading', { level: 1, name: renamed }).waitFor()
    await other.goto('/dashboard/favourites')
    await other.getByRole('heading', { level: 1, name: 'Favourites' }).waitFor()
    await other.getByRole('list', { name: 'Favourites' }).getByRole('listitem', { name: 'Sleepy Wumpus' }).waitFor()

    // A pack made from one's favourites starts with them.
    await other.getByRole('link', { name: 'Make a pack from my favourites' }).click()
    await other.getByRole('heading', { level: 1, name: 'New pack' }).waitFor()
    expect(await other.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('My favourites')
    await other.getByRole('button', { name: 'Create pack' }).click()
    await expectToast(other, 'Pack created')
    await other.waitForURL(/\/packs\/[0-9a-f]{24}$/)
    const made = other.getByRole('list', { name: 'Stickers in My favourites' }).getByRole('heading', { level: 2 })
    await made.first().waitFor()
    expect(await made.allTextContents()).toEqual(['Sleepy Wumpus'])
  }, 240_000)
})

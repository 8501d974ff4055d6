import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import type { Wumpus } from '../contract/wumpus'
import { sessionToken, signInToken, startSignedIn, uniqueEmail } from './support/accounts'
import { controlledByServiceWorker, browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const PASSWORD = 'favourite-pass-1'
const { openContext } = browserForTests(baseURL)

/** A browser profile of its own (another device), signed in with this session token. */
async function device(token: string): Promise<Page> {
  const context = await openContext()
  await startSignedIn(context, token)
  return context.newPage()
}

async function galleryFirst(count: number): Promise<Wumpus[]> {
  return (await (await fetch(`${baseURL}/api/wumpuses?limit=${count}`)).json()) as Wumpus[]
}

/** What the server has: GET /api/me/favourite-ids as the user. */
async function serverFavouriteIds(token: string): Promise<string[]> {
  const response = await fetch(`${baseURL}/api/me/favourite-ids`, { headers: { authorization: `Bearer ${token}` } })
  expect(response.status).toBe(200)
  return (await response.json()) as string[]
}

/** The outbox's queued writes (an idb-keyval store: one database and object store named alike), as `METHOD path`. Runs in the page. */
async function queuedWrites(): Promise<string[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('outbox')
    request.onupgradeneeded = () => request.result.createObjectStore('outbox')
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(new Error(String(request.error)))
  })
  const queues = await new Promise<{ method: string; path: string }[][]>((resolve, reject) => {
    const request = db.transaction('outbox').objectStore('outbox').getAll()
    request.onsuccess = () => resolve(request.result as { method: string; path: string }[][])
    request.onerror = () => reject(new Error(String(request.error)))
  })
  db.close()
  return queues.flat().map((write) => `${write.method} ${write.path}`)
}

const card = (page: Page, list: string, wumpus: Wumpus) =>
  page.getByRole('list', { name: list }).getByRole('listitem', { name: wumpus.name }).first()
const heartOn = (page: Page, list: string, wumpus: Wumpus) =>
  card(page, list, wumpus)
    .getByRole('button', { name: `Favourite ${wumpus.name}` })
    .getAttribute('aria-pressed')

describe('favourites', () => {
  it('favourited on one device, the heart is on and the sticker is in Favourites on another signed in as the same account', async () => {
    const email = uniqueEmail('favourites')
    const firstToken = await sessionToken(email, PASSWORD, 'Fay Vourite')
    const [wumpus] = await galleryFirst(1)

    const phone = await device(firstToken)
    await phone.goto(`/wumpus/${wumpus!._id}`)
    const heart = phone.getByRole('button', { name: `Favourite ${wumpus!.name}` })
    await heart.click()
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => serverFavouriteIds(firstToken)).toEqual([wumpus!._id])

    const laptop = await device(await signInToken(email, PASSWORD))
    await laptop.goto('/')
    await expect.poll(() => heartOn(laptop, 'Animations', wumpus!)).toBe('true')
    await laptop.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click()
    await laptop.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Favourites' }).click()
    await laptop.getByRole('heading', { level: 1, name: 'Favourites' }).waitFor()
    await expect.poll(() => heartOn(laptop, 'Favourites', wumpus!)).toBe('true')
  })

  it('favourited offline, the heart stays on across a reload offline, and the server has it once the connection returns', async () => {
    const token = await sessionToken(uniqueEmail('offline-favourites'), PASSWORD)
    const [, wumpus] = await galleryFirst(2)
    const page = await device(token)
    await page.goto('/')
    await card(page, 'Animations', wumpus!).waitFor()
    await controlledByServiceWorker(page)
    // Through the worker, which keeps the favourites' code as it loads, for the visits offline.
    const idsRead = page.waitForResponse((response) => response.url().endsWith('/api/me/favourite-ids'))
    await page.reload()
    await idsRead
    expect(await heartOn(page, 'Animations', wumpus!)).toBe('false')

    await page.context().setOffline(true)
    await card(page, 'Animations', wumpus!)
      .getByRole('button', { name: `Favourite ${wumpus!.name}` })
      .click()
    await expect.poll(() => heartOn(page, 'Animations', wumpus!)).toBe('true')
    // Kept on the device before the page goes away.
    await expect.poll(() => page.evaluate(queuedWrites)).toEqual([`PUT /api/me/favourites/${wumpus!._id}`])

    await page.reload()
    await card(page, 'Animations', wumpus!).waitFor()
    await expect.poll(() => heartOn(page, 'Animations', wumpus!)).toBe('true')
    expect(await serverFavouriteIds(token)).toEqual([])

    await page.context().setOffline(false)
    await expect.poll(() => serverFavouriteIds(token)).toEqual([wumpus!._id])
    expect(await heartOn(page, 'Animations', wumpus!)).toBe('true')
  })
})

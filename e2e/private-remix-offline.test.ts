// Nothing private outlives sign-out on a device (issue 32, M4): the owner of a private remix opens it and
// downloads one of its files through the service worker; after signing out, Cache Storage and IndexedDB
// hold nothing of it (no URL of its files, no file key, no copy of its detail).
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { remixCreatedSchema } from '../contract/remix/remix-api'
import { wumpusSchema, type Wumpus } from '../contract/wumpus'
import { createAccount, signInToken, startSignedIn, uniqueEmail } from './support/accounts'
import { browserForTests, controlledByServiceWorker } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)
let token: string
let remix: Wumpus

beforeAll(async () => {
  const email = uniqueEmail('private-remixer')
  await createAccount(email, 'private-pass-1', 'Private Remixer', { verified: true })
  token = await signInToken(email, 'private-pass-1')
  const list = wumpusSchema.array().parse(await (await fetch(`${baseURL}/api/wumpuses?limit=100`)).json())
  const mascot = list.find((w) => w.name === 'Waving Wumpus')!
  // The remix's GIF and APNG are rendered before the answer: a minute or more on 2 busy cores.
  let created: Response | undefined
  await vi.waitFor(
    async () => {
      created = await fetch(`${baseURL}/api/wumpus/${mascot._id}/remix`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mirror: true, name: 'My secret wave' }),
      })
      // The render queue may be busy with the demo mascots at the server's start: asked again then.
      expect(created.status).not.toBe(503)
    },
    { timeout: 150_000, interval: 2000 },
  )
  expect(created!.status).toBe(201)
  const { id } = remixCreatedSchema.parse(await created!.json())
  remix = wumpusSchema.parse(await (await fetch(`${baseURL}/api/wumpus/${id}`, { headers: { authorization: `Bearer ${token}` } })).json())
}, 180_000)

/** What identifies the remix in a URL or a kept answer: its id, its files' ids, a file key. */
function remixMarks(wumpus: Wumpus): string[] {
  const urls = [wumpus.gif, wumpus.apng, wumpus.lottie, ...Object.values(wumpus.preview ?? {})]
  const fileIds = urls.map((url) => new URL(url, baseURL).pathname.split('/')[3]!)
  return [wumpus._id, ...fileIds, 'key=']
}

/**
 * Every entry of Cache Storage (all caches) and IndexedDB (all databases and stores) whose URL, key or
 * value names one of `marks`. Runs in the page.
 */
async function entriesNaming(marks: string[]): Promise<string[]> {
  const found: string[] = []
  const names = (text: string) => marks.some((mark) => text.includes(mark))
  for (const name of await caches.keys()) {
    const cache = await caches.open(name)
    for (const request of await cache.keys()) if (names(request.url)) found.push(`cache ${name}: ${request.url}`)
  }
  for (const { name } of await indexedDB.databases()) {
    if (!name) continue
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name)
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(new Error(String(request.error)))
    })
    for (const storeName of [...db.objectStoreNames]) {
      const [keys, values] = await new Promise<[IDBValidKey[], unknown[]]>((resolve, reject) => {
        const tx = db.transaction(storeName, 'readonly')
        const keysRequest = tx.objectStore(storeName).getAllKeys()
        const valuesRequest = tx.objectStore(storeName).getAll()
        tx.oncomplete = () => resolve([keysRequest.result, valuesRequest.result])
        tx.onerror = () => reject(new Error(String(tx.error)))
      })
      keys.forEach((key, i) => {
        const shown = JSON.stringify(key)
        if (names(shown) || names(JSON.stringify(values[i]) ?? '')) found.push(`indexedDB ${name}/${storeName}: ${shown}`)
      })
    }
    db.close()
  }
  return found
}

/** Waits until the page has fetched this file (any query). */
const fetched = (page: Page, url: string) =>
  page.waitForFunction(
    (path) => performance.getEntriesByType('resource').some((entry) => new URL(entry.name).pathname === path),
    new URL(url, baseURL).pathname,
  )

describe('a private remix on a shared device', () => {
  it('leaves nothing of it in Cache Storage or IndexedDB once its owner signs out', async () => {
    const context = await openContext()
    await startSignedIn(context, token)
    const page = await context.newPage()
    await page.goto(`/wumpus/${remix._id}`)
    await controlledByServiceWorker(page)
    // Opened again under the service worker, so every file the page shows goes through it.
    await page.reload()
    await page.getByRole('heading', { level: 1, name: remix.name }).waitFor()
    // The page plays its Lottie (a preview the service worker used to cache) and shows its keyed images.
    await fetched(page, remix.lottie)
    await page.locator('img[src*="key="]').first().waitFor({ state: 'attached' })

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `GIF: download ${remix.name} as GIF` }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/\.gif$/)
    // What an older service worker kept (it cached keyed previews): the sign-out forgets that too.
    await page.evaluate(async (apng) => {
      const previews = await caches.open('previews')
      await previews.put(apng, new Response('kept before', { headers: { 'Cache-Control': 'private, no-cache' } }))
    }, new URL(remix.apng, baseURL).href)

    await page.getByRole('banner').getByRole('button', { name: 'SignOut' }).click()
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).waitFor()
    await expect.poll(() => page.evaluate(entriesNaming, remixMarks(remix)), { timeout: 15_000 }).toEqual([])
    // Still nothing once the page has settled.
    await page.goto('/about')
    expect(await page.evaluate(entriesNaming, remixMarks(remix))).toEqual([])
  }, 240_000)
})

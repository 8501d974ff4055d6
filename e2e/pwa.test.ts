import { readFileSync } from 'node:fs'
import type { BrowserContext, Page } from 'playwright-core'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { DEMO_ADMIN, sessionToken, signInToken, startSignedIn } from './support/accounts'
import { publishAnimation } from './support/publish'
import { controlledByServiceWorker, launchPersistentContext, browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)
let token: string

beforeAll(async () => {
  token = await sessionToken()
})

async function signedInContext(): Promise<BrowserContext> {
  const context = await openContext()
  await startSignedIn(context, token)
  return context
}

/** The scripts and styles the page's HTML names (run in the page). */
function scriptsAndStylesOfPage(): string[] {
  return [...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[src], link[rel=modulepreload], link[rel=stylesheet]')]
    .map((element) => new URL(element instanceof HTMLScriptElement ? element.src : element.href).pathname)
    .filter((pathname) => pathname.startsWith('/assets/'))
}

const cards = (page: Page) => page.getByRole('list', { name: 'Animations' }).getByRole('listitem')

/**
 * The keys of the offline profiles store (an idb-keyval store: one database and object store named alike),
 * after keeping a profile answer under `keep` when given, as the service worker does. Runs in the page.
 */
async function offlineProfiles(keep?: string): Promise<IDBValidKey[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('profiles')
    request.onupgradeneeded = () => request.result.createObjectStore('profiles')
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(new Error(String(request.error)))
  })
  const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
    const tx = db.transaction('profiles', 'readwrite')
    const store = tx.objectStore('profiles')
    if (keep) store.put({ status: 200, body: '{}', headers: {}, storedAt: Date.now() }, keep)
    const request = store.getAllKeys()
    tx.oncomplete = () => resolve(request.result)
    tx.onerror = () => reject(new Error(String(tx.error)))
  })
  db.close()
  return keys
}

describe('installable', () => {
  it('has no installability errors in Chromium', async () => {
    const context = await launchPersistentContext(baseURL)
    try {
      const page = await context.newPage()
      await page.goto('/')
      await page.evaluate(() => navigator.serviceWorker.ready)
      const cdp = await context.newCDPSession(page)
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
      expect(installabilityErrors).toEqual([])
    } finally {
      await context.close()
    }
    const manifest = await (await fetch(`${baseURL}/manifest.webmanifest`)).json()
    expect(manifest).toMatchObject({ name: 'Wumpus Gallery', display: 'standalone', start_url: '/' })
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']))
  })
})

describe('offline', () => {
  it("keeps on a first visit only what that visit loaded, and the whole app's code from the next visit on", async () => {
    const context = await openContext()
    const page = await context.newPage()
    const keptFiles = () =>
      page.evaluate(async () => {
        const names = (await caches.keys()).filter((name) => name.startsWith('app-files-'))
        const cache = await caches.open(names[0]!)
        return { caches: names.length, urls: (await cache.keys()).map((request) => new URL(request.url).pathname) }
      })
    const appFiles = [...(await (await fetch(`${baseURL}/sw.js`)).text()).matchAll(/"url":"([^"]+)"/g)].map((match) => `/${match[1]}`)
    const aboutCode = appFiles.filter((url) => /^\/assets\/about-[\w-]+\.js$/.test(url))
    expect(aboutCode).toHaveLength(1)

    await page.goto('/')
    await cards(page).first().waitFor()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    const first = await keptFiles()
    expect(first.caches).toBe(1)
    // The shell and the home page's code, read from the browser's HTTP cache: nothing else was fetched for it.
    expect(first.urls).toEqual(expect.arrayContaining(['/index.html', ...(await page.evaluate(scriptsAndStylesOfPage))]))
    expect(first.urls).not.toContain(aboutCode[0])
    // What every page may show once offline (the offline strip among it) was fetched before the install.
    expect(first.urls.filter((url) => /^\/assets\/offline-strip-[\w-]+\.js$/.test(url))).toHaveLength(1)

    await page.reload()
    await expect.poll(async () => (await keptFiles()).urls.length, { timeout: 30_000 }).toBe(appFiles.length)
    expect((await keptFiles()).urls.sort()).toEqual([...appFiles].sort())
    // A page never opened before works offline now.
    await context.setOffline(true)
    await page.goto('/about')
    await page.getByRole('heading', { level: 1, name: 'About Wumpus Gallery' }).waitFor()
  })

  it('keeps the gallery and a saved sticker working without a network, and refreshes when it returns', async () => {
    const context = await signedInContext()
    const page = await context.newPage()
    await page.goto('/')
    await cards(page).first().waitFor()
    await controlledByServiceWorker(page)

    const [first, second] = await (await fetch(`${baseURL}/api/wumpuses?limit=2`)).json()
    await page.goto(`/wumpus/${first._id}`)
    await page.getByRole('button', { name: 'Save for offline' }).click()
    await page.getByRole('button', { name: 'Remove from offline' }).waitFor({ timeout: 30_000 })
    const online: Record<string, Uint8Array> = {}
    for (const field of ['gif', 'apng', 'lottie']) online[field] = new Uint8Array(await (await fetch(baseURL + first[field])).arrayBuffer())

    await context.setOffline(true)
    await page.goto('/')
    await cards(page).first().waitFor()
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^\d+ wumpus animation in 3 format$/)
    await page.getByRole('status').filter({ hasText: 'Offline' }).first().waitFor()
    // A card seen online (not saved) still plays its Lottie: the worker kept the file the page played.
    await expect.poll(() => cards(page).nth(1).getByTestId('sticker-motion').getAttribute('data-motion')).toBe('lottie')

    await page.goto(`/wumpus/${first._id}`)
    await page.getByRole('heading', { level: 1, name: first.name }).waitFor()
    for (const [label, field] of [
      ['GIF', 'gif'],
      ['APNG', 'apng'],
      ['Lottie', 'lottie'],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: new RegExp(`^${label}: download`) }).click(),
      ])
      expect(new Uint8Array(readFileSync(await download.path()))).toEqual(online[field])
    }

    await page.goto(`/wumpus/${second._id}`)
    await page
      .getByText(/not available offline/i)
      .first()
      .waitFor()

    // A new animation is published while this user is offline; back online, the gallery shows it.
    await page.goto('/')
    await cards(page).first().waitFor()
    const shownOffline = Number((await page.getByRole('heading', { level: 1 }).textContent())!.split(' ')[0])
    const added = await publishAnimation(await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password), 'Published While Away')
    await context.setOffline(false)
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
      .toBe(`${shownOffline + 1} wumpus animation in 3 format`)
    await cards(page).filter({ hasText: added.name }).first().waitFor()
  })

  it('forgets the personal offline copies on a sign-out that comes before any offline code has loaded', async () => {
    const context = await openContext({ serviceWorkers: 'block' })
    await startSignedIn(context, token)
    const page = await context.newPage()
    // The code that forgets personal offline data (a lazy chunk) is held back until the sign-out has happened.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let asked = false
    await page.route(/\/assets\/personal-data-[^/]*\.js$/, async (route) => {
      asked = true
      await released
      await route.continue()
    })
    await page.goto('/dashboard')
    await page.getByRole('banner').getByRole('button', { name: 'SignOut' }).waitFor()
    expect(await page.evaluate(offlineProfiles, '/api/profile/someone@example.com')).toHaveLength(1)
    // Another tab signs out meanwhile.
    const other = await context.newPage()
    await other.goto('/about', { waitUntil: 'domcontentloaded' })
    await other.evaluate(() => localStorage.removeItem('accessToken'))
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).waitFor()
    await expect.poll(() => asked).toBe(true)
    release()
    await expect.poll(() => page.evaluate(offlineProfiles, undefined)).toEqual([])
  })

  it('keeps a signed-in user signed in offline across reloads', async () => {
    const context = await signedInContext()
    const page = await context.newPage()
    await page.goto('/dashboard')
    await page.getByRole('heading', { name: 'My animation' }).waitFor()
    await controlledByServiceWorker(page)
    await context.setOffline(true)
    await page.reload()
    await page.getByRole('banner').getByRole('button', { name: 'SignOut' }).waitFor()
    expect(page.url()).toContain('/dashboard')
  })
})

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export const PHONE = { width: 375, height: 812 }
export const DESKTOP = { width: 1280, height: 800 }

/** The system Chromium (never a downloaded one). Playwright gives each launch a fresh temporary profile. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
}

export function newContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport: DESKTOP, acceptDownloads: true, ...options })
}

/**
 * The browser of one test file: launched before its tests and closed after them, with every context
 * `openContext` made (a context is one device's browser profile).
 */
export function browserForTests(baseURL: string): { openContext: (options?: BrowserContextOptions) => Promise<BrowserContext> } {
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => {})))
    await browser?.close()
  })
  return {
    async openContext(options = {}) {
      if (!browser) throw new Error('the browser starts before the tests')
      const context = await newContext(browser, baseURL, options)
      contexts.push(context)
      return context
    },
  }
}

/**
 * A browser with a real (non-incognito) profile in a fresh folder: Chromium reports incognito
 * contexts as not installable, so installability is checked in one of these.
 */
export function launchPersistentContext(baseURL: string): Promise<BrowserContext> {
  const profile = mkdtempSync(path.join(tmpdir(), 'wumpus-chromium-profile-'))
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    baseURL,
    viewport: DESKTOP,
  })
}

/**
 * Waits until the app runs on the page. The server-rendered pages (/ and /about) show everything at once
 * but load their scripts after the first paint: a click or a key before that does what plain HTML does.
 */
export async function appRunning(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('app-interactive').length > 0)
}

/** Waits until the service worker controls the page (the first visit installs it; a reload hands over). */
export async function controlledByServiceWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready)
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
}

import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { BrowserContext, Locator, Page, Route } from 'playwright-core'

export interface GoogleAccount {
  email: string
  /** Display name for a new account (an existing account keeps its own). */
  name?: string
}

const STAND_IN_FILE = path.join(import.meta.dirname, 'gapi-stand-in.js')
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])
// The emulator's popup page links Material styles and fonts from these; empty answers keep it working.
const WIDGET_ASSET_HOSTS = new Set(['unpkg.com', 'fonts.googleapis.com', 'fonts.gstatic.com'])

/**
 * Lets `signInWithPopup(auth, new GoogleAuthProvider())` work offline against the Auth emulator:
 * serves the gapi stand-in for https://apis.google.com/js/api.js, answers the popup page's CDN
 * assets with empty bodies and aborts every other request to a non-loopback host, so nothing waits
 * on the closed network. Routes added to the context later take precedence over these.
 * The page under test must come from a real loopback server (or its service worker): Chromium's
 * local network access checks block the emulator's iframe in a page that a route fulfilled.
 */
export async function installGoogleStandIn(context: BrowserContext): Promise<void> {
  const standIn = await readFile(STAND_IN_FILE, 'utf8')
  await context.route(
    (url) => url.protocol.startsWith('http') && !LOOPBACK_HOSTS.has(url.hostname),
    (route) => answerOffline(route, standIn),
  )
}

function answerOffline(route: Route, standIn: string): Promise<void> {
  const request = route.request()
  const url = new URL(request.url())
  if (url.origin === 'https://apis.google.com' && url.pathname === '/js/api.js') {
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: standIn })
  }
  if (WIDGET_ASSET_HOSTS.has(url.hostname)) {
    const type = request.resourceType()
    const contentType = type === 'script' ? 'text/javascript' : type === 'stylesheet' ? 'text/css' : 'application/octet-stream'
    return route.fulfill({ status: 200, contentType, body: '' })
  }
  return route.abort('internetdisconnected')
}

/**
 * Finishes the emulator's Google sign-in popup: picks the listed account with this email if there
 * is one, else adds a new account. Resolves once the SDK has taken the result and closed the popup.
 */
export async function completeGooglePopup(popup: Page, account: GoogleAccount, timeout = 30_000): Promise<void> {
  const closed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout })
  closed.catch(() => {}) // awaited below; avoids an unhandled rejection if a step throws first
  const addAccount = popup.locator('#add-account-button')
  await addAccount.waitFor({ timeout })
  const existing = popup.locator('li.js-reuse-account').filter({ has: popup.getByText(account.email, { exact: true }) })
  if ((await existing.count()) > 0) {
    await existing.first().click()
  } else {
    await addAccount.click()
    await popup.locator('#email-input').fill(account.email)
    if (account.name) await popup.locator('#display-name-input').fill(account.name)
    await popup.locator('#sign-in').click()
  }
  try {
    await closed
  } catch {
    // The widget writes its errors into the page body.
    const shown = await popup
      .locator('body')
      .innerText({ timeout: 1000 })
      .catch(() => '')
    throw new Error(`The Google sign-in popup did not close: ${shown.trim().slice(0, 500) || 'no message'}`)
  }
}

/**
 * Clicks `trigger` (or runs it), waits for the popup it opens and completes it with `account`.
 * Resolves when the popup has closed, i.e. the app's signInWithPopup call has settled.
 */
export async function signInWithGoogle(page: Page, trigger: Locator | (() => Promise<unknown>), account: GoogleAccount): Promise<void> {
  const popupOpened = page.waitForEvent('popup', { timeout: 30_000 })
  popupOpened.catch(() => {})
  await (typeof trigger === 'function' ? trigger() : trigger.click())
  const popup = await popupOpened.catch(() => {
    throw new Error('No popup opened within 30 s of the click: was signInWithPopup called (see the page console)?')
  })
  await completeGooglePopup(popup, account)
}

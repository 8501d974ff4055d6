import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { clientConfigSchema, type ClientConfig } from '../contract/client-config'
import { launchBrowser, newContext } from './support/browser'
import { installGoogleStandIn, signInWithGoogle } from './support/google-sign-in'

// Checks the test helpers themselves on a bare page (no app screens): the Firebase SDK's own Google
// popup flow against the Auth emulator of the shared server, with no internet.

const baseURL = inject('baseURL')
const FIREBASE_DIR = path.resolve(import.meta.dirname, '../node_modules/firebase')
let browser: Browser
let config: ClientConfig['firebase']
let probe: Server
let probeURL: string

beforeAll(async () => {
  browser = await launchBrowser()
  config = clientConfigSchema.parse(await (await fetch(`${baseURL}/api/config`)).json()).firebase
  const html = await probePage()
  // A real loopback server: Chromium's local network access checks block the emulator's iframe in a
  // page that a route fulfilled (such a page counts as public).
  probe = createServer(async (req, res) => {
    const file = req.url?.match(/^\/(firebase-(app|auth)\.js)$/)?.[1]
    res.writeHead(200, { 'content-type': file ? 'text/javascript' : 'text/html' })
    res.end(file ? await readFile(path.join(FIREBASE_DIR, file)) : html)
  })
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  probeURL = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/`
})
afterAll(async () => {
  await browser?.close()
  probe?.close()
})

/** Signs in with `signInWithPopup(auth, new GoogleAuthProvider())` and prints the user, set up as the app does. */
async function probePage(): Promise<string> {
  const { version } = JSON.parse(await readFile(path.join(FIREBASE_DIR, 'package.json'), 'utf8'))
  // The SDK's CDN build; firebase-auth.js imports firebase-app.js by its CDN address.
  const imports = { [`https://www.gstatic.com/firebasejs/${version}/firebase-app.js`]: '/firebase-app.js' }
  return `<!doctype html><meta charset="utf-8"><title>probe</title>
<button>Sign in with Google</button><output></output>
<script type="importmap">${JSON.stringify({ imports })}</script>
<script type="module">
  import { initializeApp } from '/firebase-app.js'
  import * as sdk from '/firebase-auth.js'
  const { authEmulatorUrl, ...options } = ${JSON.stringify(config)}
  const auth = sdk.initializeAuth(initializeApp(options), {
    persistence: [sdk.indexedDBLocalPersistence, sdk.browserLocalPersistence],
    popupRedirectResolver: sdk.browserPopupRedirectResolver,
  })
  sdk.connectAuthEmulator(auth, authEmulatorUrl, { disableWarnings: true })
  document.querySelector('button').onclick = () =>
    sdk.signInWithPopup(auth, new sdk.GoogleAuthProvider()).then(
      ({ user, providerId }) => JSON.stringify({ email: user.email, name: user.displayName, uid: user.uid, providerId }),
      (error) => JSON.stringify({ error: error.code }),
    ).then((text) => { document.querySelector('output').textContent = text })
</script>`
}

async function openProbe(context: BrowserContext): Promise<Page> {
  const page = await context.newPage()
  await page.goto(probeURL)
  return page
}

async function signedInUser(page: Page): Promise<Record<string, unknown>> {
  const output = page.locator('output')
  await expect.poll(() => output.textContent()).not.toBe('')
  return JSON.parse((await output.textContent()) ?? '')
}

async function emulatorAccounts(): Promise<{ email: string; localId: string; providerUserInfo: { providerId: string }[] }[]> {
  const res = await fetch(`${config.authEmulatorUrl}/identitytoolkit.googleapis.com/v1/projects/${config.projectId}/accounts:query`, {
    method: 'POST',
    headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
    body: '{}',
  })
  expect(res.status).toBe(200)
  return (await res.json()).userInfo ?? []
}

describe('Google popup sign-in against the Auth emulator, offline', () => {
  const email = `popup.${Date.now()}@example.com`

  it('signs in as the account entered in the popup, which the emulator then holds', async () => {
    expect(config.authEmulatorUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const context = await newContext(browser, probeURL)
    await installGoogleStandIn(context)
    const failed: string[] = []
    context.on('requestfailed', (request) => failed.push(request.url()))
    const page = await openProbe(context)

    await signInWithGoogle(page, page.getByRole('button', { name: 'Sign in with Google' }), { email, name: 'Popup Tester' })

    expect(await signedInUser(page)).toEqual({ email, name: 'Popup Tester', uid: expect.any(String), providerId: 'google.com' })
    const held = (await emulatorAccounts()).filter((account) => account.email === email)
    expect(held).toHaveLength(1)
    expect(held[0]!.providerUserInfo.map((info) => info.providerId)).toEqual(['google.com'])
    expect(failed).toEqual([])
    await context.close()
  })

  it('picks the existing account from the popup list on a second sign-in', async () => {
    const before = (await emulatorAccounts()).find((account) => account.email === email)
    expect(before).toBeDefined()
    const context = await newContext(browser, probeURL)
    await installGoogleStandIn(context)
    const page = await openProbe(context)

    await signInWithGoogle(page, () => page.getByRole('button', { name: 'Sign in with Google' }).click(), { email })

    expect(await signedInUser(page)).toEqual({ email, name: 'Popup Tester', uid: before!.localId, providerId: 'google.com' })
    expect((await emulatorAccounts()).filter((account) => account.email === email)).toHaveLength(1)
    await context.close()
  })
})

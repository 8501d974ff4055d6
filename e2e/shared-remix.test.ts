// A remix shared by link opens for anyone with the link, signed in or not, like a pack shared by link; a
// private one stays unknown to everyone but its maker.
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { wumpusSchema, type Wumpus } from '../contract/wumpus'
import { createAccount, signInToken, uniqueEmail } from './support/accounts'
import { browserForTests, PHONE } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)
let mascot: Wumpus
let token: string

const api = (path: string, method: string, body?: unknown) =>
  fetch(`${baseURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

beforeAll(async () => {
  const email = uniqueEmail('sharer')
  await createAccount(email, 'share-pass-1', 'Sharer', { verified: true })
  token = await signInToken(email, 'share-pass-1')
  const list = wumpusSchema.array().parse(await (await fetch(`${baseURL}/api/wumpuses?limit=100`)).json())
  mascot = list.find((w) => w.name === 'Waving Wumpus')!
}, 180_000)

describe('A remix shared by link', () => {
  it('opens signed out on a phone, with its name, whose version it is, and downloads under its own name; private, it is not found', async () => {
    const made = await api(`/api/wumpus/${mascot._id}/remix`, 'POST', { mirror: true, name: 'Waving back' })
    expect(made.status).toBe(201)
    const { id } = (await made.json()) as { id: string }

    const visitor = await openContext({ viewport: PHONE, deviceScaleFactor: 3, isMobile: true, hasTouch: true })
    const page = await visitor.newPage()

    // Private: the visitor is told there is nothing here, not asked to sign in.
    await page.goto(`/wumpus/${id}`)
    await page.getByRole('heading', { name: 'Animation not found' }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/wumpus/${id}`)

    expect((await api(`/api/wumpus/${id}/sharing`, 'PUT', { visibility: 'link' })).status).toBe(200)
    await page.goto(`/wumpus/${id}`)
    await page.getByRole('heading', { level: 1, name: 'Waving back' }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/wumpus/${id}`)
    await expect.poll(() => page.getByText(/’s version of/).textContent()).toBe('Sharer’s version of Waving Wumpus')
    // The maker's buttons are theirs alone.
    expect(await page.getByRole('button', { name: 'Make private' }).count()).toBe(0)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'GIF: download Waving back as GIF' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('waving-back.gif')
    const chunks: Buffer[] = []
    for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Buffer))
    const bytes = Buffer.concat(chunks)
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a')
  }, 300_000)
})

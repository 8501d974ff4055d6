import { expect, inject, it } from 'vitest'
import { DEMO_ADMIN, signInToken, startSignedIn } from './support/accounts'
import { browserForTests, PHONE } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

async function open(options: Parameters<typeof openContext>[0] = {}, token?: string) {
  const context = await openContext(options)
  if (token) await startSignedIn(context, token)
  return context.newPage()
}

/** The set as the Bot API stand-in holds it (what Telegram would open). */
async function telegramSet(name: string) {
  const res = await fetch(`${inject('botApiURL')}/bot${inject('botToken')}/getStickerSet?name=${encodeURIComponent(name)}`)
  const body = (await res.json()) as { ok: boolean; result?: { title: string; stickers: unknown[] } }
  return body.result
}

it('an admin makes a public pack’s Telegram set with one tap, and anyone then adds it from the pack’s page on a phone', async () => {
  const [pack] = (await (await fetch(`${baseURL}/api/packs`)).json()) as { id: string; name: string }[]
  const { items } = (await (await fetch(`${baseURL}/api/packs/${pack!.id}`)).json()) as { items: unknown[] }

  // A visitor sees no Telegram button before the set exists.
  const before = await open({ viewport: PHONE, isMobile: true, hasTouch: true })
  await before.goto(`/packs/${pack!.id}`)
  await before.getByRole('heading', { level: 1, name: pack!.name }).waitFor()
  expect(await before.getByRole('link', { name: 'Add to Telegram' }).count()).toBe(0)

  const admin = await open({}, await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password))
  await admin.goto(`/packs/${pack!.id}`)
  await admin.getByRole('button', { name: 'Make Telegram set' }).click()
  // The page follows the set while it is made (it polls), until it can be opened in Telegram. On a fresh
  // server the demo stickers' Telegram files are still being rendered: the set waits for them.
  const adminLink = admin.getByRole('link', { name: 'Add to Telegram' })
  await adminLink.waitFor({ timeout: 240_000 })
  await admin.getByText('The Telegram set matches the pack.').waitFor()
  const url = new URL((await adminLink.getAttribute('href'))!)
  expect(url.origin + url.pathname.replace(/[^/]+$/, '')).toBe('https://t.me/addstickers/')
  const name = url.pathname.split('/').at(-1)!
  expect(name).toMatch(/_by_WumpusGalleryBot$/)
  const set = await telegramSet(name)
  expect(set?.title).toBe(pack!.name)
  expect(set?.stickers).toHaveLength(items.length)

  // Anyone, on a phone, gets the link that opens the set in Telegram.
  const visitor = await open({ viewport: PHONE, isMobile: true, hasTouch: true })
  await visitor.goto(`/packs/${pack!.id}`)
  const link = visitor.getByRole('link', { name: 'Add to Telegram' })
  await link.waitFor()
  expect(await link.getAttribute('href')).toBe(url.href)
  expect(await visitor.getByRole('button', { name: /Telegram set/ }).count()).toBe(0)
}, 300_000)

import { expect, inject, it } from 'vitest'
import { DEMO_ADMIN, signInToken, startSignedIn } from './support/accounts'
import { browserForTests, PHONE } from './support/browser'
import { USER_SENDS_PATH } from '../backend/test/support/telegram-bot-api'

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
  const body = (await res.json()) as { ok: boolean; result?: { title: string; sticker_type: string; stickers: unknown[] } }
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

  // Its custom emoji set, made beside it from the demo stickers' emoji files (they are rendered with them).
  const adminEmojiLink = admin.getByRole('link', { name: 'Add emoji to Telegram' })
  await adminEmojiLink.waitFor({ timeout: 120_000 })
  const emojiUrl = new URL((await adminEmojiLink.getAttribute('href'))!)
  expect(emojiUrl.href).toBe(`https://t.me/addemoji/${name.replace(/_by_WumpusGalleryBot$/, '_e_by_WumpusGalleryBot')}`)
  const emojiSet = await telegramSet(emojiUrl.pathname.split('/').at(-1)!)
  expect(emojiSet).toMatchObject({ title: pack!.name, sticker_type: 'custom_emoji' })
  expect(emojiSet?.stickers).toHaveLength(items.length)

  // Anyone, on a phone, gets the link that opens the set in Telegram.
  const visitor = await open({ viewport: PHONE, isMobile: true, hasTouch: true })
  await visitor.goto(`/packs/${pack!.id}`)
  const link = visitor.getByRole('link', { name: 'Add to Telegram' })
  await link.waitFor()
  expect(await link.getAttribute('href')).toBe(url.href)
  expect(await visitor.getByRole('link', { name: 'Add emoji to Telegram' }).getAttribute('href')).toBe(emojiUrl.href)
  expect(await visitor.getByRole('button', { name: /Telegram set/ }).count()).toBe(0)
}, 300_000)

it('the owner of a personal pack taps Add to Telegram, links Telegram through the bot’s start link, and gets their set', async () => {
  const token = await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password)
  const [pack] = (await (await fetch(`${baseURL}/api/packs`)).json()) as { id: string; wumpusIds: string[] }[]
  const made = await fetch(`${baseURL}/api/me/packs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'My Telegram Pack', wumpusIds: pack!.wumpusIds.slice(0, 3), visibility: 'link' }),
  })
  expect(made.status).toBe(201)
  const { id } = (await made.json()) as { id: string }

  const page = await open({ viewport: PHONE, isMobile: true, hasTouch: true }, token)
  await page.goto(`/packs/${id}`)
  await page.getByRole('button', { name: 'Add to Telegram' }).click()
  const start = page.getByRole('link', { name: 'Open the bot in Telegram' })
  await start.waitFor()
  await page.getByText('press Start, then come back').waitFor()
  const startUrl = new URL((await start.getAttribute('href'))!)
  expect(startUrl.origin + startUrl.pathname).toBe('https://t.me/WumpusGalleryBot')

  // In Telegram the person presses Start: the bot gets `/start <code>` as an update (the server long-polls).
  const userId = 5151
  const sent = await fetch(
    `${inject('botApiURL')}${USER_SENDS_PATH}?${new URLSearchParams({ user_id: String(userId), text: `/start ${startUrl.searchParams.get('start')}` })}`,
    { method: 'POST' },
  )
  expect(sent.status).toBe(200)

  // The page follows on its own until the set exists, made with that Telegram user as its owner.
  const link = page.getByRole('link', { name: 'Add to Telegram' })
  await link.waitFor({ timeout: 120_000 })
  const url = new URL((await link.getAttribute('href'))!)
  expect(url.href).toMatch(new RegExp(`^https://t\\.me/addstickers/\\w+_${id}_by_WumpusGalleryBot$`))
  expect((await telegramSet(url.pathname.split('/').at(-1)!))?.stickers).toHaveLength(3)

  // My profile says Telegram is linked.
  await page.goto('/dashboard/profile')
  await page.getByText('Telegram: linked').waitFor()
  expect(await page.getByRole('button', { name: 'Unlink' }).count()).toBe(1)
}, 180_000)

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientConfigSchema } from '../../../contract/client-config'
import { packDetailSchema, packTelegramSchema } from '../../../contract/pack'
import { expectError } from '../../test/support/error-body'
import { startBotApiStandIn, type BotApiStandIn } from '../../test/support/telegram-bot-api'
import { addTelegramStickers, keywordOf } from '../../test/support/telegram-stickers'
import { startTestServer, type TestServer } from '../../test/support/test-server'

const ADMIN = 'telegram-admin@example.com'
const OWNER_ID = 777
let bot: BotApiStandIn
let server: TestServer
let admin: string
let user: string

beforeAll(async () => {
  bot = await startBotApiStandIn({ owners: [OWNER_ID], rateLimit: { every: 10, retryAfter: 1 } })
  server = await startTestServer(
    { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_SET_OWNER_ID: String(OWNER_ID), TELEGRAM_API_URL: bot.url },
    { telegramTimes: { pollMs: 100, retryMs: 100 } },
  )
  await server.store.users.upsert(ADMIN, { user_name: 'Telegram Admin', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
  user = await server.sessionToken('telegram-user@example.com')
})
afterAll(async () => {
  await bot.close()
  await server.close()
})

const detail = async (id: string) => {
  const response = await server.call('GET', `/api/packs/${id}`)
  expect(response.status).toBe(200)
  return packDetailSchema.parse(await response.json())
}
const setOf = (id: string) => [...bot.sets.values()].find((set) => set.name.includes(id) && set.sticker_type === 'regular')
const emojiSetOf = (id: string) => [...bot.sets.values()].find((set) => set.name.includes(id) && set.sticker_type === 'custom_emoji')
const bothReady = async (id: string) => {
  const telegram = (await detail(id)).telegram
  return `${telegram?.state} ${telegram?.emoji?.state}`
}

describe('Telegram sets through the API', () => {
  it('makes a public pack’s sticker and emoji sets on an admin’s POST, shows their links, follows the pack’s and its animations’ edits and goes with the pack', async () => {
    const records = await addTelegramStickers(server.store, 30, 'Api', { emoji: true })
    const created = await server.call('POST', '/api/packs', admin, { name: 'Api Pack', wumpusIds: records.map((r) => r._id) })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    expect((await detail(id)).telegram).toBeUndefined()

    const asked = await server.call('POST', `/api/packs/${id}/telegram`, admin)
    expect(asked.status).toBe(202)
    expect(packTelegramSchema.parse(await asked.json())).toEqual({ state: 'making', emoji: { state: 'making' } })
    await expect.poll(() => bothReady(id), { timeout: 30_000 }).toBe('ready ready')
    const set = setOf(id)!
    const emojiSet = emojiSetOf(id)!
    expect((await detail(id)).telegram).toEqual({
      state: 'ready',
      url: `https://t.me/addstickers/${set.name}`,
      emoji: { state: 'ready', url: `https://t.me/addemoji/${emojiSet.name}` },
    })
    expect(set.stickers.map((s) => s.keywords[0])).toEqual(records.map((_, i) => keywordOf('Api', i + 1)))
    expect(emojiSet.stickers.map((s) => s.keywords[0])).toEqual(records.map((_, i) => keywordOf('Api', i + 1)))

    // An edit through the API: ten stickers fewer, the rest reversed, renamed.
    const kept = records.slice(10).reverse()
    const edited = await server.call('PUT', `/api/packs/${id}`, admin, { wumpusIds: kept.map((r) => r._id), name: 'Api Pack Renamed' })
    expect(edited.status).toBe(200)
    await expect.poll(() => setOf(id)?.stickers.map((s) => s.keywords[0]), { timeout: 30_000 }).toEqual(kept.map((r) => r.keywords[0]))
    await expect.poll(() => emojiSetOf(id)?.stickers.map((s) => s.keywords[0]), { timeout: 30_000 }).toEqual(kept.map((r) => r.keywords[0]))
    await expect.poll(() => bothReady(id), { timeout: 30_000 }).toBe('ready ready')
    expect(setOf(id)!.title).toBe('Api Pack Renamed')
    expect(emojiSetOf(id)!.title).toBe('Api Pack Renamed')

    // An animation's emoji edited, another deleted from the gallery: the set follows both.
    const [first, second] = kept
    const emojiEdit = await server.call('PUT', `/api/wumpuses/${first!._id}`, admin, { emoji: ['🎉', '✨'] })
    expect(emojiEdit.status).toBe(200)
    expect((await server.call('DELETE', `/api/wumpus/${second!._id}`, admin)).status).toBe(200)
    await expect
      .poll(() => setOf(id)?.stickers.map((s) => s.keywords[0]), { timeout: 30_000 })
      .toEqual(kept.filter((r) => r !== second).map((r) => r.keywords[0]))
    await expect.poll(() => setOf(id)?.stickers[0]?.emoji_list, { timeout: 30_000 }).toEqual(['🎉', '✨'])
    await expect.poll(async () => (await detail(id)).telegram?.state, { timeout: 30_000 }).toBe('ready')

    const deleted = await server.call('DELETE', `/api/packs/${id}`, admin)
    expect(deleted.status).toBe(200)
    await expect.poll(() => setOf(id), { timeout: 30_000 }).toBeUndefined()
    await expect.poll(() => emojiSetOf(id), { timeout: 30_000 }).toBeUndefined()
    // The record goes once the run that deleted the set ends (just after Telegram's answer).
    await expect.poll(() => server.store.telegramSets.get(id, 'stickers')).toBeUndefined()
    await expect.poll(() => server.store.telegramSets.get(id, 'emoji')).toBeUndefined()
  })

  it('is an admin’s only, for public packs, and never shows the token', async () => {
    const [record] = await addTelegramStickers(server.store, 1, 'Rules')
    const pack = await server.store.packs.insert({ name: 'Rules', description: '', wumpusIds: [record!._id], createdBy: ADMIN })
    expect((await server.call('POST', `/api/packs/${pack.id}/telegram`)).status).toBe(401)
    await expectError(await server.call('POST', `/api/packs/${pack.id}/telegram`, user), 403, 'FORBIDDEN')

    const personal = await server.store.packs.insert({
      name: 'Personal',
      description: '',
      wumpusIds: [record!._id],
      createdBy: 'telegram-user@example.com',
      visibility: 'link',
    })
    // A personal pack's set is its owner's to ask for (issue 36), not an admin's.
    await expectError(await server.call('POST', `/api/packs/${personal.id}/telegram`, admin), 403, 'FORBIDDEN')
    expect((await server.call('POST', `/api/packs/${'f'.repeat(24)}/telegram`, admin)).status).toBe(404)
    expect((await server.call('POST', '/api/packs/not-an-id/telegram', admin)).status).toBe(404)

    const config = await (await server.call('GET', '/api/config')).text()
    expect(clientConfigSchema.parse(JSON.parse(config)).telegram).toBe(true)
    expect(config).not.toContain(bot.token.split(':')[1])
  })

  it('is off, the POST 404 and the config false, without the settings', async () => {
    const off = await startTestServer()
    try {
      await off.store.users.upsert(ADMIN, { user_name: 'Telegram Admin', role: 'admin' })
      const [record] = await addTelegramStickers(off.store, 1, 'Off')
      const pack = await off.store.packs.insert({ name: 'Off', description: '', wumpusIds: [record!._id], createdBy: ADMIN })
      await expectError(await off.call('POST', `/api/packs/${pack.id}/telegram`, await off.sessionToken(ADMIN)), 404, 'NOT_FOUND')
      expect(clientConfigSchema.parse(await (await off.call('GET', '/api/config')).json()).telegram).toBe(false)
    } finally {
      await off.close()
    }
  })
})

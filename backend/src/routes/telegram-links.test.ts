import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packDetailSchema } from '../../../contract/pack'
import { telegramLinkSchema, telegramNotLinkedSchema } from '../../../contract/telegram-link'
import { expectError } from '../../test/support/error-body'
import { startBotApiStandIn, type BotApiStandIn } from '../../test/support/telegram-bot-api'
import { addTelegramStickers } from '../../test/support/telegram-stickers'
import { startTestServer, type TestServer } from '../../test/support/test-server'

const OPERATOR = 777
const OWNER = 'tg-owner@example.com'
const OWNER_TG = 9001
const WEBHOOK_SECRET = 'webhook-secret-of-the-tests_0123'

let bot: BotApiStandIn
let server: TestServer
let owner: string

async function personalPack(on: TestServer, email: string, count: number) {
  const records = await addTelegramStickers(on.store, count, 'Own')
  return on.store.packs.insert({
    name: 'Own Pack',
    description: '',
    wumpusIds: records.map((r) => r._id),
    createdBy: email,
    visibility: 'link',
  })
}

async function startUrlOf(response: Response): Promise<URL> {
  const error = await expectError(response, 409, 'CONFLICT', 'telegram-not-linked')
  return new URL(telegramNotLinkedSchema.parse(error.details).startUrl)
}

beforeAll(async () => {
  bot = await startBotApiStandIn({ owners: [OPERATOR], rateLimit: { every: 10, retryAfter: 1 } })
  server = await startTestServer(
    { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_SET_OWNER_ID: String(OPERATOR), TELEGRAM_API_URL: bot.url },
    { telegramTimes: { pollMs: 100, retryMs: 100 }, telegramLinkTimes: { pollSeconds: 1, retryMs: 100 } },
  )
  owner = await server.sessionToken(OWNER)
})
afterAll(async () => {
  await server.close()
  await bot.close()
})

describe('Telegram sets of one’s own packs through the API', () => {
  it('answers the owner 409 with the bot’s start link; /start links them, the set is made as theirs; unlinking leaves it', async () => {
    const pack = await personalPack(server, OWNER, 30)
    const me = async () => telegramLinkSchema.parse(await (await server.call('GET', '/api/me/telegram', owner)).json())
    expect(await me()).toEqual({ linked: false })
    const start = await startUrlOf(await server.call('POST', `/api/packs/${pack.id}/telegram`, owner))
    expect(start.origin + start.pathname).toBe(`https://t.me/${bot.username}`)

    // The person presses Start in Telegram: the poller reads `/start <code>`.
    bot.userSends(OWNER_TG, `/start ${start.searchParams.get('start')}`)
    const detail = async () => packDetailSchema.parse(await (await server.call('GET', `/api/packs/${pack.id}`, owner)).json())
    await expect.poll(async () => (await detail()).telegram?.state, { timeout: 60_000 }).toBe('ready')
    const set = [...bot.sets.values()].find((s) => s.name.includes(pack.id))!
    expect(set.owner).toBe(OWNER_TG)
    expect(set.stickers).toHaveLength(30)
    expect((await detail()).telegram?.url).toBe(`https://t.me/addstickers/${set.name}`)
    expect(bot.messages.find((m) => m.chatId === OWNER_TG)?.text).toMatch(/^Linked to Wumpus Gallery \(tg-owner@example\.com\)/)
    expect(await me()).toMatchObject({ linked: true })
    // Nobody else sees a personal pack's set.
    const other = await server.sessionToken('tg-other@example.com')
    const seen = packDetailSchema.parse(await (await server.call('GET', `/api/packs/${pack.id}`, other)).json())
    expect(seen.telegram).toBeUndefined()
    await expectError(await server.call('POST', `/api/packs/${pack.id}/telegram`, other), 403, 'FORBIDDEN')

    // Linked: the next POST goes straight to the set.
    expect((await server.call('POST', `/api/packs/${pack.id}/telegram`, owner)).status).toBe(202)
    expect(await (await server.call('DELETE', '/api/me/telegram', owner)).json()).toEqual({ unlinked: true })
    expect(await me()).toEqual({ linked: false })
    // The set stays on Telegram, its owner's.
    expect(bot.sets.get(set.name)?.owner).toBe(OWNER_TG)
    await startUrlOf(await server.call('POST', `/api/packs/${pack.id}/telegram`, owner))
    expect((await server.call('GET', '/api/me/telegram')).status).toBe(401)
    expect((await server.call('DELETE', '/api/me/telegram')).status).toBe(401)
  }, 90_000)

  it('has no webhook while polling: 404', async () => {
    await expectError(await server.call('POST', '/api/telegram/webhook', undefined, { update_id: 1 }), 404, 'NOT_FOUND')
  })

  it('with TELEGRAM_WEBHOOK_SECRET, takes updates at the webhook only with the secret token', async () => {
    bot.rateLimit = { every: 0, retryAfter: 1 }
    const hooked = await startTestServer({
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_SET_OWNER_ID: String(OPERATOR),
      TELEGRAM_API_URL: bot.url,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    })
    try {
      const email = 'tg-hook@example.com'
      const token = await hooked.sessionToken(email)
      const pack = await personalPack(hooked, email, 1)
      const start = await startUrlOf(await hooked.call('POST', `/api/packs/${pack.id}/telegram`, token))
      const update = {
        update_id: 77,
        message: { from: { id: 9002 }, chat: { id: 9002, type: 'private' }, text: `/start ${start.searchParams.get('start')}` },
      }
      const post = (secret?: string) =>
        fetch(`${hooked.url}/api/telegram/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(secret !== undefined ? { 'x-telegram-bot-api-secret-token': secret } : {}) },
          body: JSON.stringify(update),
        })
      const refused = await expectError(await post(), 401, 'UNAUTHENTICATED')
      expect(refused.message).toBe('Unauthorized')
      await expectError(await post(`${WEBHOOK_SECRET}x`), 401, 'UNAUTHENTICATED')
      await expectError(await post(''), 401, 'UNAUTHENTICATED')
      expect(await hooked.store.telegramLinks.get(email)).toBeUndefined()
      bot.users.add(9002)
      const taken = await post(WEBHOOK_SECRET)
      expect(taken.status).toBe(200)
      expect(await hooked.store.telegramLinks.get(email)).toMatchObject({ telegramUserId: 9002 })
      await expectError(
        await fetch(`${hooked.url}/api/telegram/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
          body: JSON.stringify({ not: 'an update' }),
        }),
        400,
        'BAD_REQUEST',
      )
    } finally {
      await hooked.close()
    }
  })
})

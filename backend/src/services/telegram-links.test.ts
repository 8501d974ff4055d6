import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { telegramNotLinkedSchema } from '../../../contract/telegram-link'
import { DomainError } from '../domain/errors'
import { createLogger } from '../logger'
import type { PackRecord, Store } from '../store/port'
import { openTempStore } from '../../test/support/temp-store'
import { startBotApiStandIn, type BotApiStandIn } from '../../test/support/telegram-bot-api'
import { addTelegramStickers } from '../../test/support/telegram-stickers'
import { createBotApi } from './telegram-bot-api'
import { CODE_TTL_MS, createTelegramLinkService, type TelegramLinkService } from './telegram-links'
import { createTelegramSetService, type TelegramSetService } from './telegram-sets'

const OPERATOR = 424242
const ANN = 'ann@example.com'
const ANN_TG = 5001

let temp: { store: Store; close: () => Promise<void> }
let bot: BotApiStandIn
let sets: TelegramSetService
let links: TelegramLinkService

beforeEach(async () => {
  temp = await openTempStore('wumpus-telegram-links-')
  bot = await startBotApiStandIn({ owners: [OPERATOR] })
  const logger = createLogger('silent')
  const api = createBotApi({ token: bot.token, baseUrl: bot.url })
  sets = createTelegramSetService({ store: temp.store, logger, bot: api, ownerId: OPERATOR, pollMs: 50, retryMs: 50 })
  sets.start()
  links = createTelegramLinkService({ store: temp.store, logger, bot: api, sets, pollSeconds: 1, retryMs: 50 })
})
afterEach(async () => {
  vi.useRealTimers()
  await links.close()
  await sets.close()
  await bot.close()
  await temp.close()
})

async function personalPack(owner = ANN, count = 3, options: { emoji?: boolean } = {}): Promise<PackRecord> {
  const records = await addTelegramStickers(temp.store, count, 'Mine', options)
  return temp.store.packs.insert({
    name: 'Mine',
    description: '',
    wumpusIds: records.map((r) => r._id),
    createdBy: owner,
    visibility: 'link',
  })
}

/** The start code of the 409 an unlinked owner gets. */
async function startCode(packId: string, email = ANN): Promise<string> {
  const error = await links.requestSet({ email, isAdmin: false }, packId).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(DomainError)
  expect((error as DomainError).kind).toBe('conflict')
  const { startUrl } = telegramNotLinkedSchema.parse((error as DomainError).details)
  expect(startUrl).toMatch(/^https:\/\/t\.me\/WumpusGalleryBot\?start=/)
  return new URL(startUrl).searchParams.get('start')!
}

const setOf = (pack: PackRecord) => [...bot.sets.values()].find((set) => set.name.includes(pack.id) && set.sticker_type === 'regular')
const emojiSetOf = (pack: PackRecord) =>
  [...bot.sets.values()].find((set) => set.name.includes(pack.id) && set.sticker_type === 'custom_emoji')
const update = (id: number, from: number, text: string) => ({ update_id: id, message: { from: { id: from }, chat: { id: from }, text } })

describe('Telegram links', () => {
  it('links on /start with the code: the waiting personal sets (stickers, custom emoji) are made with that Telegram user as their owner', async () => {
    const pack = await personalPack(ANN, 3, { emoji: true })
    const code = await startCode(pack.id)
    // The code is stored hashed only: the code itself finds nothing.
    expect(await temp.store.telegramLinks.takeCode(code, new Date())).toBeUndefined()
    bot.users.add(ANN_TG)
    await links.handleUpdate(update(1, ANN_TG, `/start ${code}`))
    expect(await links.view(ANN)).toMatchObject({ linked: true })
    expect(bot.messages.at(-1)).toEqual({
      chatId: ANN_TG,
      text: expect.stringMatching(/^Linked to Wumpus Gallery \(ann@example\.com\)\. Your sticker set is being made/),
    })
    await expect.poll(() => setOf(pack)?.stickers.length, { timeout: 20_000 }).toBe(3)
    expect(setOf(pack)!.owner).toBe(ANN_TG)
    expect(await temp.store.telegramSets.get(pack.id, 'stickers')).toMatchObject({ ownerUserId: ANN_TG })
    await expect.poll(() => emojiSetOf(pack)?.stickers.length, { timeout: 20_000 }).toBe(3)
    expect(emojiSetOf(pack)!.owner).toBe(ANN_TG)
    await expect.poll(async () => (await temp.store.telegramSets.get(pack.id, 'emoji'))?.state).toBe('ready')
    expect(await sets.view(pack.id)).toMatchObject({ emoji: { state: 'ready', url: `https://t.me/addemoji/${emojiSetOf(pack)!.name}` } })
    // Linked now: the next ask goes straight to the set.
    expect(await links.requestSet({ email: ANN, isAdmin: false }, pack.id)).toMatchObject({ state: 'making' })
  })

  it('takes a code once, only the newest of an account, and not after 15 minutes', async () => {
    const pack = await personalPack()
    const older = await startCode(pack.id)
    const newer = await startCode(pack.id)
    bot.users.add(ANN_TG)
    await links.handleUpdate(update(1, ANN_TG, `/start ${older}`))
    expect(await links.view(ANN)).toEqual({ linked: false })
    expect(bot.messages.at(-1)!.text).toMatch(/^This link does not work any more/)
    await links.handleUpdate(update(2, ANN_TG, `/start ${newer}`))
    expect(await links.view(ANN)).toMatchObject({ linked: true })
    expect(await links.unlink(ANN)).toBe(true)
    // Used once: not again.
    await links.handleUpdate(update(3, ANN_TG, `/start ${newer}`))
    expect(await links.view(ANN)).toEqual({ linked: false })

    vi.useFakeTimers({ toFake: ['Date'] })
    const expiring = await startCode(pack.id)
    vi.setSystemTime(Date.now() + CODE_TTL_MS + 1)
    await links.handleUpdate(update(4, ANN_TG, `/start ${expiring}`))
    expect(await links.view(ANN)).toEqual({ linked: false })
    expect(bot.messages.at(-1)!.text).toMatch(/^This link does not work any more/)
  })

  it('polls getUpdates: /start with a code links, a wrong code is answered so, and no update is read twice', async () => {
    const pack = await personalPack()
    const code = await startCode(pack.id)
    links.start()
    bot.userSends(ANN_TG + 1, '/start not-a-code')
    await expect.poll(() => bot.messages.map((m) => m.chatId)).toEqual([ANN_TG + 1])
    expect(bot.messages[0]!.text).toMatch(/^This link does not work any more/)
    bot.userSends(ANN_TG, `/start ${code}`)
    await expect.poll(() => bot.messages.length).toBe(2)
    expect(bot.messages[1]).toMatchObject({ chatId: ANN_TG, text: expect.stringMatching(/^Linked to Wumpus Gallery/) })
    expect(await temp.store.telegramLinks.get(ANN)).toMatchObject({ telegramUserId: ANN_TG })
    // The offset confirmed both: the stand-in dropped them, and no third answer came.
    await expect.poll(() => bot.pendingUpdates).toBe(0)
    await expect.poll(() => bot.calls.filter((c) => c.method === 'getUpdates').length).toBeGreaterThanOrEqual(4)
    expect(bot.messages).toHaveLength(2)
    await expect.poll(() => setOf(pack)?.owner, { timeout: 20_000 }).toBe(ANN_TG)
  })

  it('answers busy with Telegram’s wait when learning the bot’s name meets a 429', async () => {
    const pack = await personalPack()
    bot.rateLimit = { every: 1, retryAfter: 7 }
    const error = (await links.requestSet({ email: ANN, isAdmin: false }, pack.id).catch((caught: unknown) => caught)) as DomainError
    expect({ kind: error.kind, retryAfterSeconds: error.retryAfterSeconds }).toEqual({ kind: 'busy', retryAfterSeconds: 7 })
    bot.rateLimit = { every: 0, retryAfter: 1 }
    expect(
      telegramNotLinkedSchema.parse(
        await links.requestSet({ email: ANN, isAdmin: false }, pack.id).catch((caught: DomainError) => caught.details),
      ),
    ).toMatchObject({
      reason: 'telegram-not-linked',
    })
  })

  it('fails a personal set, saying what to do, when its owner never started the bot (PEER_ID_INVALID)', async () => {
    const pack = await personalPack()
    await temp.store.telegramLinks.link(ANN, 6666, new Date())
    expect(await links.requestSet({ email: ANN, isAdmin: false }, pack.id)).toMatchObject({ state: 'making' })
    await expect.poll(async () => (await temp.store.telegramSets.get(pack.id, 'stickers'))?.state, { timeout: 20_000 }).toBe('failed')
    expect((await temp.store.telegramSets.get(pack.id, 'stickers'))?.reason).toBe(
      'Telegram does not know your linked account any more: open the bot in Telegram, press Start, and try again',
    )
    expect(bot.calls.find((c) => c.method === 'createNewStickerSet')?.error).toBe(400)
    expect(setOf(pack)).toBeUndefined()
  })

  it('makes a set not made yet for the account its owner relinked to; a set made keeps its owner', async () => {
    const pack = await personalPack()
    // Linked to a Telegram user who never started the bot: the set fails.
    await temp.store.telegramLinks.link(ANN, 6666, new Date())
    await links.requestSet({ email: ANN, isAdmin: false }, pack.id)
    await expect.poll(async () => (await temp.store.telegramSets.get(pack.id, 'stickers'))?.state, { timeout: 20_000 }).toBe('failed')
    // Relinked to one who did: the set is made for them.
    bot.users.add(ANN_TG)
    await temp.store.telegramLinks.link(ANN, ANN_TG, new Date())
    await links.requestSet({ email: ANN, isAdmin: false }, pack.id)
    await expect.poll(async () => (await temp.store.telegramSets.get(pack.id, 'stickers'))?.state, { timeout: 20_000 }).toBe('ready')
    expect(setOf(pack)).toMatchObject({ owner: ANN_TG, stickers: { length: 3 } })
    expect(await temp.store.telegramSets.get(pack.id, 'stickers')).toMatchObject({ ownerUserId: ANN_TG })

    // Relinked again once the set exists: Telegram cannot move it, so it stays ANN_TG's and is still kept in step.
    bot.users.add(ANN_TG + 1)
    await temp.store.telegramLinks.link(ANN, ANN_TG + 1, new Date())
    await temp.store.packs.update(pack.id, { name: 'Mine renamed' })
    sets.packChanged(pack.id, 'edited')
    await expect.poll(() => setOf(pack)?.title, { timeout: 20_000 }).toBe('Mine renamed')
    await expect.poll(async () => (await temp.store.telegramSets.get(pack.id, 'stickers'))?.state, { timeout: 20_000 }).toBe('ready')
    expect(setOf(pack)!.owner).toBe(ANN_TG)
    expect(await temp.store.telegramSets.get(pack.id, 'stickers')).toMatchObject({ state: 'ready', ownerUserId: ANN_TG })
  })

  it('lets only the owner of a personal pack, and admins for public ones, ask', async () => {
    const pack = await personalPack()
    const ask = (email: string, isAdmin: boolean, id = pack.id) =>
      links.requestSet({ email, isAdmin }, id).then(
        () => 'made',
        (error: DomainError) => error.kind,
      )
    expect(await ask('bob@example.com', false)).toBe('forbidden')
    expect(await ask('admin@example.com', true)).toBe('forbidden')
    const hidden = await temp.store.packs.insert({
      name: 'Hidden',
      description: '',
      wumpusIds: pack.wumpusIds,
      createdBy: ANN,
      visibility: 'private',
    })
    expect(await ask('bob@example.com', false, hidden.id)).toBe('not-found')
    expect(await ask(ANN, false, 'f'.repeat(24))).toBe('not-found')
    const shared = await temp.store.packs.insert({
      name: 'Public',
      description: '',
      wumpusIds: pack.wumpusIds,
      createdBy: 'admin@example.com',
    })
    expect(await ask(ANN, false, shared.id)).toBe('forbidden')
    expect(await ask('admin@example.com', true, shared.id)).toBe('made')
    expect(await ask(ANN, false)).toBe('conflict')
  })
})

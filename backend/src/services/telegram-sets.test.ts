import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, type Logger } from '../logger'
import { openMongoStore } from '../store/mongo/open-mongo-store'
import type { PackRecord, Store, WumpusRecord } from '../store/port'
import { startMongoWireServer } from '../../test/support/mongo-wire-server'
import { openTempStore } from '../../test/support/temp-store'
import { startBotApiStandIn, type BotApiStandIn } from '../../test/support/telegram-bot-api'
import { addPublicPack, addTelegramSticker, addTelegramStickers, tgsSticker } from '../../test/support/telegram-stickers'
import { createBotApi } from './telegram-bot-api'
import { createTelegramSetService, type TelegramSetService } from './telegram-sets'

const OWNER = 424242

/** The same runs on the embedded store and on MongoDB (the in-process wire stand-in). */
const STORES: Array<[string, () => Promise<{ store: Store; close: () => Promise<void> }>]> = [
  ['SQLite', () => openTempStore('wumpus-telegram-')],
  [
    'MongoDB',
    async () => {
      const wire = await startMongoWireServer()
      const store = await openMongoStore({ uri: wire.uri, dbName: `wumpus_telegram_${randomBytes(4).toString('hex')}` })
      return {
        store,
        close: async () => {
          await store.close()
          await wire.close()
        },
      }
    },
  ],
]

describe.each(STORES)('Telegram sets on %s', (_, open) => {
  let temp: { store: Store; close: () => Promise<void> }
  let bot: BotApiStandIn
  const services: TelegramSetService[] = []
  const logged: string[] = []

  beforeAll(async () => {
    temp = await open()
  })
  afterAll(() => temp.close())
  afterEach(async () => {
    // The stand-in first: its held answers end, so a run waiting on one stops.
    await bot?.close()
    await Promise.all(services.splice(0).map((service) => service.close()))
  })

  /** A logger that keeps every line it is given, for the token check. */
  function keepingLogger(): Logger {
    const base = createLogger('silent')
    const keep = (level: string) => (message: string, fields?: Record<string, unknown>) =>
      logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`)
    return { ...base, info: keep('info'), error: keep('error'), debug: keep('debug') }
  }

  async function standIn(options: Parameters<typeof startBotApiStandIn>[0] = {}): Promise<BotApiStandIn> {
    bot = await startBotApiStandIn({ owners: [OWNER], ...options })
    return bot
  }

  function service(options: { leaseMs?: number } = {}): TelegramSetService {
    const made = createTelegramSetService({
      store: temp.store,
      logger: keepingLogger(),
      bot: createBotApi({ token: bot.token, baseUrl: bot.url }),
      ownerId: OWNER,
      pollMs: 50,
      retryMs: 50,
      ...options,
    })
    services.push(made)
    made.start()
    return made
  }

  const stateOf = async (pack: PackRecord) => (await temp.store.telegramSets.get(pack.id, 'stickers'))?.state
  const setOf = (pack: PackRecord) => [...bot.sets.values()].find((set) => set.name.includes(pack.id) && set.sticker_type === 'regular')
  /** The set's stickers as the keywords of the animations they were made of. */
  const keywordsInSet = (pack: PackRecord) => setOf(pack)?.stickers.map((s) => s.keywords[0])
  const wantedKeywords = (records: WumpusRecord[]) => records.map((r) => r.keywords[0])

  it('makes a 30-sticker pack’s set in the pack’s order, through 429s, and shows its address', async () => {
    await standIn({ rateLimit: { every: 3, retryAfter: 1 } })
    const records = await addTelegramStickers(temp.store, 30, 'Thirty')
    const pack = await addPublicPack(temp.store, 'Thirty Wumpuses', records)
    const telegram = service()

    const asked = await telegram.request(pack.id)
    expect(asked).toEqual({ state: 'making', emoji: { state: 'making' } })
    await expect.poll(() => stateOf(pack), { timeout: 20_000 }).toBe('ready')

    const set = setOf(pack)!
    expect(set.name).toMatch(new RegExp(`^Thirty_Wumpuses_${pack.id}_by_${bot.username}$`))
    expect(set.title).toBe('Thirty Wumpuses')
    expect(set.owner).toBe(OWNER)
    expect(keywordsInSet(pack)).toEqual(wantedKeywords(records))
    // No emoji files: no emoji set.
    expect(await telegram.view(pack.id)).toEqual({ state: 'ready', url: `https://t.me/addstickers/${set.name}`, emoji: { state: 'ready' } })
    expect(bot.calls.some((c) => c.error === 429)).toBe(true)
    // One create (30 files in it), no sticker sent twice.
    expect(bot.calls.filter((c) => c.method === 'createNewStickerSet' && c.error === undefined)).toHaveLength(1)
    expect(bot.calls.filter((c) => c.error === undefined).reduce((n, c) => n + c.files, 0)).toBe(30)
  })

  it('waits out retry_after and keeps the set in step as the pack is edited, renamed and deleted', async () => {
    await standIn({ rateLimit: { every: 10, retryAfter: 1 } })
    const records = await addTelegramStickers(temp.store, 12, 'Edited')
    const pack = await addPublicPack(temp.store, 'Edited Pack', records)
    const telegram = service()
    await telegram.request(pack.id)
    await expect.poll(() => stateOf(pack), { timeout: 20_000 }).toBe('ready')

    // Five removed, the rest reversed, eight new ones among them, an emoji changed, the pack renamed.
    const added = await addTelegramStickers(temp.store, 8, 'Added')
    const kept = records.slice(5).reverse()
    const wanted = [added[0]!, ...kept.slice(0, 3), ...added.slice(1), ...kept.slice(3)]
    await temp.store.wumpuses.update(kept[0]!._id, { emoji: [{ char: '🎉', name: 'party popper' }] })
    await temp.store.packs.update(pack.id, { wumpusIds: wanted.map((r) => r._id), name: 'Renamed Pack' })
    telegram.packChanged(pack.id, 'edited')
    await expect.poll(async () => (await temp.store.telegramSets.get(pack.id, 'stickers'))?.generation).toBe(2)
    await expect.poll(() => stateOf(pack), { timeout: 30_000 }).toBe('ready')

    expect(keywordsInSet(pack)).toEqual(wantedKeywords(wanted))
    expect(setOf(pack)!.title).toBe('Renamed Pack')
    expect(setOf(pack)!.stickers.find((s) => s.keywords[0] === kept[0]!.keywords[0])!.emoji_list).toEqual(['🎉'])
    expect(bot.calls.some((c) => c.error === 429)).toBe(true)

    await temp.store.packs.delete(pack.id)
    telegram.packChanged(pack.id, 'deleted')
    await expect.poll(() => temp.store.telegramSets.get(pack.id, 'stickers'), { timeout: 20_000 }).toBeUndefined()
    expect(setOf(pack)).toBeUndefined()
  })

  it('resumes a run left mid-call by a stopped instance without sending a sticker twice', async () => {
    await standIn()
    const records = await addTelegramStickers(temp.store, 60, 'Resumed')
    const pack = await addPublicPack(temp.store, 'Resumed Pack', records)
    // getMe, getStickerSet (none yet), createNewStickerSet (50), getStickerSet, two adds: the third add is done
    // on Telegram's side but its answer never comes (the instance "stops" there).
    bot.holdAfter = 5
    const first = service({ leaseMs: 400 })
    await first.request(pack.id)
    await expect.poll(() => bot.calls.length, { timeout: 20_000 }).toBe(7)
    expect(bot.calls.at(-1)).toMatchObject({ method: 'addStickerToSet', error: 0 })
    expect(setOf(pack)!.stickers).toHaveLength(53)
    bot.holdAfter = undefined

    // Another instance (or this one restarted) takes the run over once the lease ends.
    service({ leaseMs: 400 })
    await expect.poll(() => stateOf(pack), { timeout: 20_000 }).toBe('ready')
    expect(keywordsInSet(pack)).toEqual(wantedKeywords(records))
    expect(bot.calls.filter((c) => c.method === 'addStickerToSet')).toHaveLength(10)
  })

  it('leaves a sticker be while its new Telegram file is made, then replaces it', async () => {
    await standIn()
    const records = await addTelegramStickers(temp.store, 3, 'Remade')
    const pack = await addPublicPack(temp.store, 'Remade Pack', records)
    const telegram = service()
    await telegram.request(pack.id)
    await expect.poll(() => stateOf(pack), { timeout: 20_000 }).toBe('ready')
    const before = setOf(pack)!.stickers.map((s) => s.file_unique_id)

    // Its Lottie replaced: no media made from the new one yet.
    const record = records[1]!
    const lottie = await temp.store.files.put({ bytes: new Uint8Array([1]), contentType: 'application/json', filename: 'new.json' })
    const edited = (await temp.store.wumpuses.update(record._id, {
      files: { ...record.files, lottie: { id: lottie.id, filename: 'new.json' } },
    }))!
    telegram.animationChanged(record._id)
    await expect
      .poll(async () => (await temp.store.telegramSets.get(pack.id, 'stickers'))?.reason)
      .toBe('One sticker’s Telegram file is still being made')
    expect(setOf(pack)!.stickers.map((s) => s.file_unique_id)).toEqual(before)

    // Made: the old sticker is replaced by the new file, in its place.
    const made = record.derived!.exports[0]!
    const tgs = await temp.store.files.put({ bytes: tgsSticker(99), contentType: 'application/x-tgsticker', filename: 'new.telegram.tgs' })
    await temp.store.wumpuses.setDerived(record._id, lottie.id, {
      ...record.derived!,
      source: lottie.id,
      exports: [{ ...made, file: { ...made.file!, id: tgs.id, filename: tgs.filename } }],
    })
    await expect.poll(() => stateOf(pack), { timeout: 20_000 }).toBe('ready')
    const after = setOf(pack)!.stickers.map((s) => s.file_unique_id)
    expect(after).toHaveLength(3)
    expect([after[0], after[2]]).toEqual([before[0], before[2]])
    expect(after[1]).not.toBe(before[1])
    expect(edited.files.lottie.id).toBe(lottie.id)
  })

  const emojiSetOf = (pack: PackRecord) => [...bot.sets.values()].find((set) => set.name.includes(`${pack.id}_e_by_`))
  const kindState = async (pack: PackRecord, kind: 'stickers' | 'emoji') => (await temp.store.telegramSets.get(pack.id, kind))?.state

  it('makes a custom emoji set beside the sticker set, and keeps it in step as the pack is edited, renamed and deleted', async () => {
    await standIn({ rateLimit: { every: 10, retryAfter: 1 } })
    const records = await addTelegramStickers(temp.store, 6, 'Emoji', { emoji: true })
    const pack = await addPublicPack(temp.store, 'Emoji Pack', records)
    const telegram = service()
    expect(await telegram.request(pack.id)).toEqual({ state: 'making', emoji: { state: 'making' } })
    await expect.poll(() => kindState(pack, 'emoji'), { timeout: 20_000 }).toBe('ready')
    await expect.poll(() => kindState(pack, 'stickers'), { timeout: 20_000 }).toBe('ready')

    const emoji = emojiSetOf(pack)!
    expect(emoji).toMatchObject({
      name: `Emoji_Pack_${pack.id}_e_by_${bot.username}`,
      title: 'Emoji Pack',
      sticker_type: 'custom_emoji',
      owner: OWNER,
    })
    expect(emoji.stickers.map((s) => s.keywords[0])).toEqual(wantedKeywords(records))
    expect(emoji.stickers.every((s) => s.width === 100 && s.height === 100)).toBe(true)
    expect(keywordsInSet(pack)).toEqual(wantedKeywords(records))
    expect(await telegram.view(pack.id)).toEqual({
      state: 'ready',
      url: `https://t.me/addstickers/${setOf(pack)!.name}`,
      emoji: { state: 'ready', url: `https://t.me/addemoji/${emoji.name}` },
    })

    // Two removed, the rest reversed, two new ones among them (one without an emoji file), the pack renamed.
    const added = [
      await addTelegramSticker(temp.store, 'New 1', { keywords: ['newk1'] }, { emoji: true }),
      await addTelegramSticker(temp.store, 'New 2', { keywords: ['newk2'] }),
    ]
    const kept = records.slice(2).reverse()
    const wanted = [added[0]!, ...kept.slice(0, 2), added[1]!, ...kept.slice(2)]
    await temp.store.packs.update(pack.id, { wumpusIds: wanted.map((r) => r._id), name: 'Renamed Emoji' })
    telegram.packChanged(pack.id, 'edited')
    await expect.poll(async () => (await temp.store.telegramSets.get(pack.id, 'emoji'))?.generation).toBe(2)
    await expect.poll(() => kindState(pack, 'emoji'), { timeout: 30_000 }).toBe('ready')
    await expect.poll(() => kindState(pack, 'stickers'), { timeout: 30_000 }).toBe('ready')
    expect(emojiSetOf(pack)!.stickers.map((s) => s.keywords[0])).toEqual(wantedKeywords(wanted.filter((r) => r !== added[1])))
    expect(emojiSetOf(pack)!.title).toBe('Renamed Emoji')
    expect(keywordsInSet(pack)).toEqual(wantedKeywords(wanted))

    await temp.store.packs.delete(pack.id)
    telegram.packChanged(pack.id, 'deleted')
    await expect.poll(() => temp.store.telegramSets.get(pack.id, 'emoji'), { timeout: 20_000 }).toBeUndefined()
    await expect.poll(() => temp.store.telegramSets.get(pack.id, 'stickers'), { timeout: 20_000 }).toBeUndefined()
    expect(emojiSetOf(pack)).toBeUndefined()
    expect(setOf(pack)).toBeUndefined()
  })

  it('makes no emoji set for a pack without emoji files, and lets a failing emoji set leave the sticker set be', async () => {
    await standIn()
    const plain = await addPublicPack(temp.store, 'Plain Pack', await addTelegramStickers(temp.store, 2, 'Plain'))
    const telegram = service()
    await telegram.request(plain.id)
    await expect.poll(() => kindState(plain, 'emoji'), { timeout: 20_000 }).toBe('ready')
    await expect.poll(() => kindState(plain, 'stickers'), { timeout: 20_000 }).toBe('ready')
    expect(emojiSetOf(plain)).toBeUndefined()
    expect((await telegram.view(plain.id))?.emoji).toEqual({ state: 'ready' })
    expect(bot.calls.filter((c) => c.method === 'createNewStickerSet')).toHaveLength(1)

    // An emoji file of a sticker's size: Telegram refuses it for the emoji set only.
    const record = await addTelegramSticker(temp.store, 'Wrong Size', {}, { emoji: true })
    const sticker = record.derived!.exports.find((e) => e.platform === 'telegram')!
    await temp.store.wumpuses.setDerived(record._id, record.files.lottie.id, {
      ...record.derived!,
      exports: [sticker, { ...sticker, platform: 'telegram-emoji' }],
    })
    const pack = await addPublicPack(temp.store, 'Half Pack', [record])
    await telegram.request(pack.id)
    await expect.poll(() => kindState(pack, 'emoji'), { timeout: 20_000 }).toBe('failed')
    await expect.poll(() => kindState(pack, 'stickers'), { timeout: 20_000 }).toBe('ready')
    const view = (await telegram.view(pack.id))!
    expect(view).toMatchObject({ state: 'ready', url: `https://t.me/addstickers/${setOf(pack)!.name}`, emoji: { state: 'failed' } })
    expect(view.emoji!.reason).toMatch(/^Telegram refused a sticker’s file/)
    expect(emojiSetOf(pack)).toBeUndefined()
  })

  it('gives a sticker set asked for before emoji sets its emoji set at the pack’s next edit', async () => {
    await standIn()
    const records = await addTelegramStickers(temp.store, 2, 'Older', { emoji: true })
    const pack = await addPublicPack(temp.store, 'Older Pack', records)
    // As an earlier version left it: a sticker set's record only.
    await temp.store.telegramSets.request(pack.id, 'stickers', { name: `Older_Pack_${pack.id}_by_${bot.username}`, now: new Date() })
    const telegram = service()
    await expect.poll(() => kindState(pack, 'stickers'), { timeout: 20_000 }).toBe('ready')
    expect(await temp.store.telegramSets.get(pack.id, 'emoji')).toBeUndefined()

    await temp.store.packs.update(pack.id, { name: 'Older Pack Renamed' })
    telegram.packChanged(pack.id, 'edited')
    await expect.poll(() => kindState(pack, 'emoji'), { timeout: 20_000 }).toBe('ready')
    expect(emojiSetOf(pack)).toMatchObject({ name: expect.stringMatching(/^Older_Pack_Rename/), title: 'Older Pack Renamed' })
    expect(emojiSetOf(pack)!.stickers).toHaveLength(2)
  })

  it('fails with a reason a person can read, and logs no token', async () => {
    await standIn({ owners: [] })
    const pack = await addPublicPack(temp.store, 'Unowned Pack', [await addTelegramSticker(temp.store, 'Lonely')])
    const telegram = service()
    await telegram.request(pack.id)
    await expect.poll(() => stateOf(pack), { timeout: 20_000 }).toBe('failed')
    expect(await telegram.view(pack.id)).toMatchObject({
      state: 'failed',
      reason: 'Telegram does not know the set’s owner: TELEGRAM_SET_OWNER_ID must be the id of a user who started the bot',
    })
    expect(logged.length).toBeGreaterThan(0)
    expect(logged.join('\n')).not.toContain(bot.token.split(':')[1])
  })

  it('fails a pack none of whose stickers has a Telegram file, and refuses personal packs', async () => {
    await standIn()
    const record = await addTelegramSticker(temp.store, 'Fileless')
    await temp.store.wumpuses.setDerived(record._id, record.files.lottie.id, {
      ...record.derived!,
      exports: [{ platform: 'telegram', notes: ['Longer than 3 s'] }],
    })
    const pack = await addPublicPack(temp.store, 'Fileless Pack', [record])
    const telegram = service()
    await telegram.request(pack.id)
    await expect.poll(() => stateOf(pack), { timeout: 20_000 }).toBe('failed')
    expect((await telegram.view(pack.id))?.reason).toBe('None of this pack’s stickers has a Telegram file')

    const personal = await temp.store.packs.insert({
      name: 'Mine',
      description: '',
      wumpusIds: [record._id],
      createdBy: 'someone@example.com',
      visibility: 'link',
    })
    await expect(telegram.request(personal.id)).rejects.toMatchObject({ kind: 'conflict' })
    await expect(telegram.request('0'.repeat(24))).rejects.toMatchObject({ kind: 'not-found' })
  })
})

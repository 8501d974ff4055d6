import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { lottie } from '../../test/fixtures/lottie'
import { startBotApiStandIn, type BotApiStandIn } from '../../test/support/telegram-bot-api'
import { tgsBytes, toTelegramLottie } from '../media/exports/telegram-sticker'
import { createBotApi, TelegramApiError, type BotApi, type UploadSticker } from './telegram-bot-api'

const OWNER = 4242
let bot: BotApiStandIn
let api: BotApi

beforeEach(async () => {
  bot = await startBotApiStandIn({ owners: [OWNER] })
  api = createBotApi({ token: bot.token, baseUrl: bot.url })
})
afterEach(() => bot.close())

/** A .tgs on a `size` canvas, as the Telegram exports make it (512: stickers; 100: custom emoji). */
const tgs = (size: number): UploadSticker => ({
  bytes: tgsBytes(toTelegramLottie(lottie(), size).lottie),
  format: 'animated',
  emoji: ['🙂'],
  keywords: [],
})
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'made',
    (error: TelegramApiError) => error.description,
  )

describe('custom emoji sets on the Bot API stand-in', () => {
  it('are made with sticker_type custom_emoji from 100x100 files, and open at their 100x100 size', async () => {
    await api.createNewStickerSet({
      userId: OWNER,
      name: 'a_e_by_WumpusGalleryBot',
      title: 'A',
      stickers: [tgs(100)],
      stickerType: 'custom_emoji',
    })
    const set = await api.getStickerSet('a_e_by_WumpusGalleryBot')
    expect(set).toMatchObject({ sticker_type: 'custom_emoji' })
    expect(bot.sets.get('a_e_by_WumpusGalleryBot')!.stickers[0]).toMatchObject({ type: 'custom_emoji', width: 100, height: 100 })
    await api.addStickerToSet({ userId: OWNER, name: 'a_e_by_WumpusGalleryBot', sticker: tgs(100) })
    expect(bot.sets.get('a_e_by_WumpusGalleryBot')!.stickers).toHaveLength(2)
  })

  it('refuse a sticker’s 512x512 file, as a sticker set refuses a custom emoji’s 100x100 one', async () => {
    expect(
      await refusal(
        api.createNewStickerSet({
          userId: OWNER,
          name: 'b_e_by_WumpusGalleryBot',
          title: 'B',
          stickers: [tgs(512)],
          stickerType: 'custom_emoji',
        }),
      ),
    ).toBe('Bad Request: STICKER_TGS_NODIMENSIONS')
    expect(await refusal(api.createNewStickerSet({ userId: OWNER, name: 'b_by_WumpusGalleryBot', title: 'B', stickers: [tgs(100)] }))).toBe(
      'Bad Request: STICKER_TGS_NODIMENSIONS',
    )
    await api.createNewStickerSet({ userId: OWNER, name: 'c_by_WumpusGalleryBot', title: 'C', stickers: [tgs(512)] })
    expect(await refusal(api.addStickerToSet({ userId: OWNER, name: 'c_by_WumpusGalleryBot', sticker: tgs(100) }))).toBe(
      'Bad Request: STICKER_TGS_NODIMENSIONS',
    )
    expect(bot.sets.has('b_e_by_WumpusGalleryBot')).toBe(false)
    expect(bot.sets.get('c_by_WumpusGalleryBot')!.stickers).toHaveLength(1)
  })
})

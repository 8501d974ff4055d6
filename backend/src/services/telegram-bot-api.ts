// A small client of Telegram's Bot API (https://core.telegram.org/bots/api) for the sticker set methods the
// gallery's bot uses: each call a POST of multipart form data to `<base>/bot<token>/<method>`. Its errors name
// the method and Telegram's description, never the token (nor the URL, which holds it).

/** A Sticker of a set, as getStickerSet lists it (the fields the gallery reads). */
export interface BotSticker {
  file_id: string
  file_unique_id: string
  emoji?: string
}

export interface BotStickerSet {
  name: string
  title: string
  stickers: BotSticker[]
}

/** An InputSticker whose file goes in the same request. */
export interface UploadSticker {
  bytes: Uint8Array
  format: 'animated' | 'video' | 'static'
  emoji: string[]
  keywords: string[]
}

/** An Update as getUpdates or the webhook gives it (the fields the gallery reads: a private message's text and sender). */
export interface BotUpdate {
  update_id: number
  message?: { chat?: { id: number; type?: string }; from?: { id: number; is_bot?: boolean }; text?: string }
}

/** Telegram refused the call (or could not be reached: code 0). */
export class TelegramApiError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly description: string,
  ) {
    super(`Telegram's ${method} answered ${code === 0 ? 'nothing' : code}: ${description}`)
    this.name = 'TelegramApiError'
  }
}

/** 429: the bot is to wait `retryAfterSeconds` before its next call. */
export class TelegramRetryError extends TelegramApiError {
  constructor(
    method: string,
    description: string,
    readonly retryAfterSeconds: number,
  ) {
    super(method, 429, description)
    this.name = 'TelegramRetryError'
  }
}

export interface BotApi {
  getMe(): Promise<{ id: number; username: string }>
  /** Undefined when there is no such set (Telegram's STICKERSET_INVALID). */
  getStickerSet(name: string): Promise<BotStickerSet | undefined>
  createNewStickerSet(options: {
    userId: number
    name: string
    title: string
    stickers: UploadSticker[]
    /** 'custom_emoji': a custom emoji set (100x100 files, up to 200); default 'regular'. */
    stickerType?: 'regular' | 'custom_emoji'
  }): Promise<void>
  addStickerToSet(options: { userId: number; name: string; sticker: UploadSticker }): Promise<void>
  deleteStickerFromSet(fileId: string): Promise<void>
  setStickerPositionInSet(fileId: string, position: number): Promise<void>
  setStickerEmojiList(fileId: string, emoji: string[]): Promise<void>
  setStickerKeywords(fileId: string, keywords: string[]): Promise<void>
  setStickerSetTitle(name: string, title: string): Promise<void>
  /** Answers false when there was no such set. */
  deleteStickerSet(name: string): Promise<boolean>
  /**
   * Long polling: the updates from `offset` on (those before it are confirmed and never given again), waiting up
   * to `timeout` seconds for one; `signal` ends the wait early.
   */
  getUpdates(options: { offset?: number; timeout: number; signal?: AbortSignal }): Promise<BotUpdate[]>
  sendMessage(chatId: number, text: string): Promise<void>
  /** Bytes of sticker files sent so far. */
  readonly uploadedBytes: number
}

const TGS_TYPE = 'application/x-tgsticker'
const FILE_TYPES = { animated: TGS_TYPE, video: 'video/webm', static: 'image/png' } as const
const FILE_NAMES = { animated: 'sticker.tgs', video: 'sticker.webm', static: 'sticker.png' } as const
/** A call that takes longer is given up (and tried again by the job). */
const CALL_TIMEOUT_MS = 60_000

export function createBotApi({ token, baseUrl }: { token: string; baseUrl: string }): BotApi {
  const base = baseUrl.replace(/\/+$/, '')
  let uploadedBytes = 0

  async function call<T>(
    method: string,
    fields: Record<string, string | number>,
    files: Array<[string, UploadSticker]> = [],
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<T> {
    const form = new FormData()
    for (const [key, value] of Object.entries(fields)) form.set(key, String(value))
    for (const [key, sticker] of files) {
      form.set(key, new Blob([new Uint8Array(sticker.bytes)], { type: FILE_TYPES[sticker.format] }), FILE_NAMES[sticker.format])
    }
    let response: Response
    try {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? CALL_TIMEOUT_MS)
      const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout
      response = await fetch(`${base}/bot${token}/${method}`, { method: 'POST', body: form, signal })
    } catch (error) {
      // fetch's own errors can carry the URL: only their kind goes on.
      const timedOut = (error as Error).name === 'TimeoutError'
      throw new TelegramApiError(method, 0, timedOut ? 'no answer in time' : 'Telegram cannot be reached')
    }
    let body: { ok?: boolean; result?: T; error_code?: number; description?: string; parameters?: { retry_after?: number } }
    try {
      body = (await response.json()) as typeof body
    } catch {
      throw new TelegramApiError(method, response.status, 'an answer that is not Telegram’s JSON')
    }
    if (body.ok === true) {
      uploadedBytes += files.reduce((sum, [, sticker]) => sum + sticker.bytes.length, 0)
      return body.result as T
    }
    const code = body.error_code ?? response.status
    const description = String(body.description ?? 'no description')
    if (code === 429) throw new TelegramRetryError(method, description, Math.max(1, Number(body.parameters?.retry_after ?? 1)))
    throw new TelegramApiError(method, code, description)
  }

  /** InputSticker JSON for a file sent in the request under `field`. */
  const input = (field: string, sticker: UploadSticker) => ({
    sticker: `attach://${field}`,
    format: sticker.format,
    emoji_list: sticker.emoji,
    ...(sticker.keywords.length > 0 ? { keywords: sticker.keywords } : {}),
  })

  const setGone = (error: unknown) =>
    error instanceof TelegramApiError && error.code === 400 && /STICKERSET_INVALID/i.test(error.description)

  return {
    get uploadedBytes() {
      return uploadedBytes
    },
    getMe: () => call('getMe', {}),
    getUpdates: ({ offset, timeout, signal }) =>
      call<BotUpdate[]>(
        'getUpdates',
        { ...(offset !== undefined ? { offset } : {}), timeout, allowed_updates: JSON.stringify(['message']) },
        [],
        { signal, timeoutMs: CALL_TIMEOUT_MS + timeout * 1000 },
      ),
    async sendMessage(chatId, text) {
      await call('sendMessage', { chat_id: chatId, text })
    },
    async getStickerSet(name) {
      try {
        return await call<BotStickerSet>('getStickerSet', { name })
      } catch (error) {
        if (setGone(error)) return undefined
        throw error
      }
    },
    async createNewStickerSet({ userId, name, title, stickers, stickerType = 'regular' }) {
      const files = stickers.map((sticker, i): [string, UploadSticker] => [`sticker${i}`, sticker])
      await call(
        'createNewStickerSet',
        {
          user_id: userId,
          name,
          title,
          sticker_type: stickerType,
          stickers: JSON.stringify(files.map(([field, sticker]) => input(field, sticker))),
        },
        files,
      )
    },
    async addStickerToSet({ userId, name, sticker }) {
      await call('addStickerToSet', { user_id: userId, name, sticker: JSON.stringify(input('sticker0', sticker)) }, [['sticker0', sticker]])
    },
    async deleteStickerFromSet(fileId) {
      await call('deleteStickerFromSet', { sticker: fileId })
    },
    async setStickerPositionInSet(fileId, position) {
      await call('setStickerPositionInSet', { sticker: fileId, position })
    },
    async setStickerEmojiList(fileId, emoji) {
      await call('setStickerEmojiList', { sticker: fileId, emoji_list: JSON.stringify(emoji) })
    },
    async setStickerKeywords(fileId, keywords) {
      await call('setStickerKeywords', { sticker: fileId, keywords: JSON.stringify(keywords) })
    },
    async setStickerSetTitle(name, title) {
      await call('setStickerSetTitle', { name, title })
    },
    async deleteStickerSet(name) {
      try {
        await call('deleteStickerSet', { name })
        return true
      } catch (error) {
        if (setGone(error)) return false
        throw error
      }
    },
  }
}

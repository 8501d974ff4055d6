/**
 * TEST SUPPORT: a stand-in for Telegram's Bot API (https://core.telegram.org/bots/api), in process, written from
 * its documentation for the sticker set methods: `POST /bot<token>/<method>` with parameters as multipart form
 * data, URL-encoded form or JSON; answers `{ ok: true, result }` or `{ ok: false, error_code, description,
 * parameters? }`. It checks each call as Telegram does: the token; the set's name (English letters, digits and
 * single underscores, starting with a letter, 1-64 characters, ending in `_by_<bot username>`), title (1-64);
 * the owner (a user who started the bot); 1-50 stickers per create, at most 120 in a set; each InputSticker's
 * format, 1-20 emoji, 0-20 keywords of at most 64 characters together, and its file (attach://<field> to a
 * part of the request, or a file_id it gave out): a TGS is gzipped Lottie JSON, 512x512 at 60 fps, at most
 * 64 KB; a WEBM or PNG/WEBP carries its format's magic bytes. A custom emoji set (`sticker_type: 'custom_emoji'`,
 * up to 200) takes 100x100 files instead (a TGS's canvas, a PNG's header), and a regular set refuses those. Told to, it answers 429 with `retry_after`
 * every Nth call (that call does nothing).
 * Messages (issue 36): a user "presses Start" with `userSends` (they are then one who started the bot, and the
 * message waits as an Update); getUpdates gives the updates from `offset` on (those before are confirmed and
 * dropped), waiting up to `timeout` seconds for one; sendMessage reaches only users who started the bot
 * (else 403 "Forbidden: bot can't initiate conversation with a user"), kept in `messages`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { gunzipSync } from 'node:zlib'

export interface StandInSticker {
  file_id: string
  file_unique_id: string
  type: 'regular' | 'custom_emoji'
  width: number
  height: number
  is_animated: boolean
  is_video: boolean
  emoji: string
  set_name: string
  /** Not in Telegram's Sticker object: what the stand-in keeps to check the calls. */
  emoji_list: string[]
  keywords: string[]
  bytes: number
}

export interface StandInSet {
  name: string
  title: string
  sticker_type: 'regular' | 'custom_emoji'
  owner: number
  stickers: StandInSticker[]
}

export interface BotApiCall {
  method: string
  /** Bytes of the files the call carried. */
  fileBytes: number
  files: number
  /** The answer's error code; undefined when it succeeded. */
  error?: number
}

export interface BotApiStandIn {
  /** Base URL, as TELEGRAM_API_URL takes it. */
  url: string
  token: string
  username: string
  /** The sets as Telegram holds them, by name. */
  sets: Map<string, StandInSet>
  /** Every call, in order. */
  calls: BotApiCall[]
  /** Users who started the bot (only they may own sets). */
  users: Set<number>
  /** Answer 429 with retry_after `retryAfter` seconds to every `every`th call (0: never). */
  rateLimit: { every: number; retryAfter: number }
  /** Messages the bot sent, in order. */
  messages: Array<{ chatId: number; text: string }>
  /** A Telegram user sends the bot a private message (`/start <code>` when they press Start on a t.me link). */
  userSends(userId: number, text: string): void
  /** Updates not yet confirmed by a getUpdates offset. */
  readonly pendingUpdates: number
  /** Answer this many more successful calls; those after are done but their answers held until close (a crash mid-call). */
  holdAfter?: number
  close(): Promise<void>
}

/** The stand-in's own (not Telegram's) path for `userSends` from another process: POST `?user_id=&text=`. */
export const USER_SENDS_PATH = '/_stand-in/user-sends'

const TGS_MAX_BYTES = 64 * 1024
const STATIC_MAX_BYTES = 512 * 1024
const WEBM_MAX_BYTES = 256 * 1024

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number },
  ) {
    super(description)
  }
}
const bad = (what: string) => new ApiError(400, `Bad Request: ${what}`)

type Params = Map<string, string>
type Files = Map<string, Uint8Array>

export async function startBotApiStandIn(
  options: { token?: string; username?: string; owners?: number[]; rateLimit?: { every: number; retryAfter: number } } = {},
): Promise<BotApiStandIn> {
  const token = options.token ?? `123456:${randomBytes(26).toString('base64url')}`
  const botId = Number(token.split(':')[0])
  const username = options.username ?? 'WumpusGalleryBot'
  const sets = new Map<string, StandInSet>()
  const calls: BotApiCall[] = []
  const uploaded = new Map<string, { bytes: number; format: string; owner: number; type?: StandInSet['sticker_type'] }>()
  const held: Array<() => void> = []
  let counted = 0
  const updates: Array<{ update_id: number; message: unknown }> = []
  let nextUpdateId = 1000
  const waiting = new Set<() => void>()

  const stand: BotApiStandIn = {
    url: '',
    token,
    username,
    sets,
    calls,
    users: new Set(options.owners ?? []),
    rateLimit: options.rateLimit ?? { every: 0, retryAfter: 1 },
    messages: [],
    userSends(userId, text) {
      stand.users.add(userId)
      const date = Math.floor(Date.now() / 1000)
      const from = { id: userId, is_bot: false, first_name: `User ${userId}` }
      updates.push({
        update_id: nextUpdateId++,
        message: { message_id: nextUpdateId, from, chat: { id: userId, type: 'private' }, date, text },
      })
      for (const wake of [...waiting]) wake()
    },
    get pendingUpdates() {
      return updates.length
    },
    close: async () => {
      for (const wake of [...waiting]) wake()
      for (const release of held.splice(0)) release()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }

  const newFileId = () => randomBytes(18).toString('base64url')

  function owner(params: Params): number {
    const id = Number(params.get('user_id'))
    if (!Number.isInteger(id) || id <= 0) throw bad('invalid user_id specified')
    if (!stand.users.has(id)) throw bad('PEER_ID_INVALID')
    return id
  }

  function checkName(name: string | undefined): string {
    if (!name) throw bad('sticker set name must be non-empty')
    const suffix = `_by_${username.toLowerCase()}`
    if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name) || name.includes('__') || !name.toLowerCase().endsWith(suffix)) {
      throw bad('invalid sticker set name is specified')
    }
    return name
  }

  function checkTitle(title: string | undefined): string {
    const length = [...(title ?? '')].length
    if (length < 1 || length > 64) throw bad('invalid sticker set title specified')
    return title!
  }

  function existingSet(params: Params): StandInSet {
    const set = sets.get(params.get('name') ?? '')
    if (!set) throw bad('STICKERSET_INVALID')
    return set
  }

  /** `type`: the set's; custom emoji are 100x100, stickers 512x512 (a PNG's width and height are read from its header). */
  function checkFile(bytes: Uint8Array, format: string, type: StandInSet['sticker_type']): void {
    const side = type === 'custom_emoji' ? 100 : 512
    if (format === 'animated') {
      if (bytes.length > TGS_MAX_BYTES) throw bad('file is too big')
      let lottie: { w?: unknown; h?: unknown; fr?: unknown; layers?: unknown; ip?: unknown; op?: unknown }
      try {
        lottie = JSON.parse(gunzipSync(bytes).toString('utf8')) as typeof lottie
      } catch {
        throw bad('STICKER_TGS_NOTGS')
      }
      if (lottie.w !== side || lottie.h !== side) throw bad('STICKER_TGS_NODIMENSIONS')
      if (lottie.fr !== 60 || !Array.isArray(lottie.layers)) throw bad('STICKER_TGS_NOTGS')
      const seconds = (Number(lottie.op) - Number(lottie.ip)) / 60
      if (!(seconds > 0 && seconds <= 3)) throw bad('STICKER_TGS_TOO_LONG')
    } else if (format === 'video') {
      if (bytes.length > WEBM_MAX_BYTES) throw bad('file is too big')
      if (!(bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)) throw bad('STICKER_VIDEO_NOWEBM')
    } else if (format === 'static') {
      if (bytes.length > STATIC_MAX_BYTES) throw bad('file is too big')
      const png = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47
      const webp = Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP'
      if (!png && !webp) throw bad('STICKER_PNG_NOPNG')
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      if (png && type === 'custom_emoji' && (view.getUint32(16) !== side || view.getUint32(20) !== side))
        throw bad('STICKER_PNG_DIMENSIONS')
    } else throw bad('invalid sticker format specified')
  }

  function checkEmoji(list: unknown): string[] {
    if (!Array.isArray(list) || list.length < 1 || list.length > 20 || list.some((e) => typeof e !== 'string' || e === '')) {
      throw bad('invalid sticker emojis')
    }
    return list as string[]
  }

  function checkKeywords(list: unknown): string[] {
    if (list === undefined) return []
    if (!Array.isArray(list) || list.length > 20 || list.some((k) => typeof k !== 'string')) throw bad('invalid sticker keywords')
    if ((list as string[]).reduce((sum, k) => sum + [...k].length, 0) > 64) throw bad('invalid sticker keywords')
    return list as string[]
  }

  /** One InputSticker, its file checked. */
  function inputSticker(value: unknown, files: Files, setName: string, type: StandInSet['sticker_type']): StandInSticker {
    if (typeof value !== 'object' || value === null) throw bad("can't parse InputSticker JSON object")
    const input = value as { sticker?: unknown; format?: unknown; emoji_list?: unknown; keywords?: unknown }
    const format = typeof input.format === 'string' ? input.format : ''
    if (!['static', 'animated', 'video'].includes(format)) throw bad('invalid sticker format specified')
    const emojiList = checkEmoji(input.emoji_list)
    const keywords = checkKeywords(input.keywords)
    let bytes: number
    if (typeof input.sticker === 'string' && input.sticker.startsWith('attach://')) {
      const file = files.get(input.sticker.slice('attach://'.length))
      if (!file) throw bad('wrong file identifier/HTTP URL specified')
      checkFile(file, format, type)
      bytes = file.length
    } else if (typeof input.sticker === 'string' && uploaded.has(input.sticker)) {
      const known = uploaded.get(input.sticker)!
      if (known.format !== format) throw bad('wrong sticker format')
      if (known.type !== undefined && known.type !== type) throw bad('STICKER_FILE_INVALID')
      bytes = known.bytes
    } else throw bad('wrong file identifier/HTTP URL specified')
    return {
      file_id: newFileId(),
      file_unique_id: randomBytes(8).toString('base64url'),
      type,
      width: type === 'custom_emoji' ? 100 : 512,
      height: type === 'custom_emoji' ? 100 : 512,
      is_animated: format === 'animated',
      is_video: format === 'video',
      emoji: emojiList[0]!,
      set_name: setName,
      emoji_list: emojiList,
      keywords,
      bytes,
    }
  }

  function json(params: Params, key: string): unknown {
    const raw = params.get(key)
    if (raw === undefined) throw bad(`parameter "${key}" is required`)
    try {
      return JSON.parse(raw)
    } catch {
      throw bad(`can't parse ${key} JSON object`)
    }
  }

  function findSticker(fileId: string | undefined): { set: StandInSet; index: number } {
    for (const set of sets.values()) {
      const index = set.stickers.findIndex((s) => s.file_id === fileId)
      if (index >= 0) return { set, index }
    }
    throw bad('STICKER_INVALID')
  }

  const publicSet = (set: StandInSet) => ({
    name: set.name,
    title: set.title,
    sticker_type: set.sticker_type,
    stickers: set.stickers.map(({ emoji_list: _e, keywords: _k, bytes: _b, ...sticker }) => sticker),
  })

  const methods: Record<string, (params: Params, files: Files, req: IncomingMessage) => unknown> = {
    getMe: () => ({ id: botId, is_bot: true, first_name: 'Wumpus Gallery', username }),

    getUpdates: async (params, _files, req) => {
      const offset = params.has('offset') ? Number(params.get('offset')) : undefined
      const timeout = Number(params.get('timeout') ?? 0)
      if (!Number.isInteger(timeout) || timeout < 0) throw bad('invalid timeout specified')
      if (offset !== undefined) {
        if (!Number.isInteger(offset)) throw bad('invalid offset specified')
        while (updates.length > 0 && updates[0]!.update_id < offset) updates.shift()
      }
      if (updates.length === 0 && timeout > 0) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake)
            clearTimeout(timer)
            req.socket.off('close', wake)
            resolve()
          }
          const timer = setTimeout(wake, timeout * 1000)
          waiting.add(wake)
          // The caller gave up (its signal): the connection closes.
          req.socket.once('close', wake)
        })
      }
      return updates.slice(0, 100)
    },

    sendMessage: (params) => {
      const chatId = Number(params.get('chat_id'))
      const text = params.get('text') ?? ''
      if (!Number.isInteger(chatId)) throw bad('chat not found')
      if (text.trim() === '' || text.length > 4096) throw bad('message text is empty')
      if (!stand.users.has(chatId)) throw new ApiError(403, "Forbidden: bot can't initiate conversation with a user")
      stand.messages.push({ chatId, text })
      return { message_id: stand.messages.length, chat: { id: chatId, type: 'private' }, date: Math.floor(Date.now() / 1000), text }
    },

    getStickerSet: (params) => publicSet(existingSet(params)),

    uploadStickerFile: (params, files) => {
      const user = owner(params)
      const format = params.get('sticker_format') ?? ''
      const file = files.get('sticker')
      if (!file) throw bad('parameter "sticker" is required')
      // uploadStickerFile names no set type: a file whose size fits one type only is used only in sets of that type.
      const fits = (type: StandInSet['sticker_type']) => {
        try {
          checkFile(file, format, type)
          return true
        } catch {
          return false
        }
      }
      const regular = fits('regular')
      const emoji = fits('custom_emoji')
      if (!regular && !emoji) checkFile(file, format, 'regular')
      const type = regular && emoji ? undefined : regular ? ('regular' as const) : ('custom_emoji' as const)
      const fileId = newFileId()
      uploaded.set(fileId, { bytes: file.length, format, owner: user, type })
      return { file_id: fileId, file_unique_id: randomBytes(8).toString('base64url'), file_size: file.length }
    },

    createNewStickerSet: (params, files) => {
      const user = owner(params)
      const name = checkName(params.get('name'))
      const title = checkTitle(params.get('title'))
      const type = (params.get('sticker_type') ?? 'regular') as StandInSet['sticker_type']
      if (type !== 'regular' && type !== 'custom_emoji') throw bad('invalid sticker type specified')
      const list = json(params, 'stickers')
      if (!Array.isArray(list) || list.length < 1 || list.length > 50) throw bad('STICKERS_TOO_MUCH')
      if (sets.has(name)) throw bad('sticker set name is already occupied')
      const stickers = list.map((input) => inputSticker(input, files, name, type))
      sets.set(name, { name, title, sticker_type: type, owner: user, stickers })
      return true
    },

    addStickerToSet: (params, files) => {
      const user = owner(params)
      const set = existingSet(params)
      if (set.owner !== user) throw bad('STICKERSET_INVALID')
      const sticker = inputSticker(json(params, 'sticker'), files, set.name, set.sticker_type)
      if (set.stickers.length >= (set.sticker_type === 'custom_emoji' ? 200 : 120)) throw bad('STICKERS_TOO_MUCH')
      set.stickers.push(sticker)
      return true
    },

    deleteStickerFromSet: (params) => {
      const { set, index } = findSticker(params.get('sticker'))
      set.stickers.splice(index, 1)
      return true
    },

    setStickerPositionInSet: (params) => {
      const { set, index } = findSticker(params.get('sticker'))
      const position = Number(params.get('position'))
      if (!Number.isInteger(position) || position < 0 || position >= set.stickers.length) throw bad('STICKER_POSITION_INVALID')
      const [sticker] = set.stickers.splice(index, 1)
      set.stickers.splice(position, 0, sticker!)
      return true
    },

    setStickerEmojiList: (params) => {
      const { set, index } = findSticker(params.get('sticker'))
      const list = checkEmoji(json(params, 'emoji_list'))
      set.stickers[index] = { ...set.stickers[index]!, emoji_list: list, emoji: list[0]! }
      return true
    },

    setStickerKeywords: (params) => {
      const { set, index } = findSticker(params.get('sticker'))
      const keywords = params.has('keywords') ? checkKeywords(json(params, 'keywords')) : []
      set.stickers[index] = { ...set.stickers[index]!, keywords }
      return true
    },

    setStickerSetTitle: (params) => {
      const set = existingSet(params)
      set.title = checkTitle(params.get('title'))
      return true
    },

    deleteStickerSet: (params) => {
      const set = existingSet(params)
      sets.delete(set.name)
      return true
    },
  }

  async function readParams(req: IncomingMessage, url: URL): Promise<{ params: Params; files: Files }> {
    const params: Params = new Map(url.searchParams)
    const files: Files = new Map()
    const type = req.headers['content-type'] ?? ''
    if (req.method !== 'POST' || type === '') return { params, files }
    // A streamed body needs `duplex` (Node's fetch); the DOM's RequestInit does not name it.
    const init: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { 'content-type': type },
      body: Readable.toWeb(req) as ReadableStream,
      duplex: 'half',
    }
    const request = new Request(url, init)
    if (type.startsWith('application/json')) {
      const body = (await request.json()) as Record<string, unknown>
      for (const [key, value] of Object.entries(body)) params.set(key, typeof value === 'string' ? value : JSON.stringify(value))
      return { params, files }
    }
    const form = await request.formData()
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') params.set(key, value)
      else files.set(key, new Uint8Array(await value.arrayBuffer()))
    }
    return { params, files }
  }

  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in')
      // Not Telegram's: how a test in another process has a user message the bot (`?user_id=&text=`).
      if (url.pathname === USER_SENDS_PATH) {
        const userId = Number(url.searchParams.get('user_id'))
        const text = url.searchParams.get('text') ?? ''
        if (!Number.isInteger(userId) || userId <= 0 || text === '') return answer(400, { ok: false })
        stand.userSends(userId, text)
        return answer(200, { ok: true })
      }
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname)
      const call: BotApiCall = { method: match?.[2] ?? url.pathname, fileBytes: 0, files: 0 }
      calls.push(call)
      try {
        const { params, files } = await readParams(req, url)
        call.files = files.size
        call.fileBytes = [...files.values()].reduce((sum, file) => sum + file.length, 0)
        if (!match || match[1] !== token) throw new ApiError(401, 'Unauthorized')
        const method = Object.hasOwn(methods, match[2]!) ? methods[match[2]!] : undefined
        if (!method) throw new ApiError(404, 'Not Found')
        counted++
        const { every, retryAfter } = stand.rateLimit
        if (every > 0 && counted % every === 0) {
          throw new ApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter })
        }
        const result = await method(params, files, req)
        if (stand.holdAfter !== undefined && stand.holdAfter-- <= 0) {
          // Done on Telegram's side, but the answer never comes back: a crash mid-call as the caller sees it.
          call.error = 0
          await new Promise<void>((resolve) => held.push(resolve))
          res.destroy()
          return
        }
        answer(200, { ok: true, result })
      } catch (error) {
        const e = error instanceof ApiError ? error : new ApiError(400, `Bad Request: ${(error as Error).message}`)
        call.error = e.code
        answer(e.code, { ok: false, error_code: e.code, description: e.description, ...(e.parameters ? { parameters: e.parameters } : {}) })
      }
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  stand.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return stand
}

/**
 * TEST SUPPORT: a stand-in for Discord (https://discord.com/developers/docs), in process, written from its
 * documentation for what "Add to my Discord server" uses:
 * - `GET /oauth2/authorize` (the page where a person picks a server for a bot): checks client_id,
 *   response_type=code, a scope with `bot` and a redirect_uri, and at once sends the browser back to the redirect
 *   with `code`, `state`, `guild_id` and `permissions`, as Discord does once the person has chosen (the server is
 *   `guild_id` in the query when given, else `pick`);
 * - `POST /oauth2/token` (form-encoded): client_id and client_secret, grant_type=authorization_code, a code it gave
 *   out (once) and the same redirect_uri; answers the token and, for the bot scope, the `guild`;
 * - `Authorization: Bot <token>` on every guild call; `GET /guilds/{id}` with `premium_tier`;
 *   `GET/POST /guilds/{id}/stickers` (multipart: name 2-30, description empty or 2-100, tags the Discord name of a
 *   unicode emoji (EmojiOne's names, as JoyPixels lists them first), file PNG/APNG
 *   or GIF by its bytes, at most 512 KiB; slots 5/15/30/60 by tier, else 400 code 30039);
 *   `GET/POST /guilds/{id}/emojis` (JSON: name 2-32 of A-Za-z0-9_, image a data URI of PNG/GIF/JPEG/WebP at most
 *   256 KiB; 50/100/150/250 of each kind, else 400 code 30008); a bot without the expressions permissions on a
 *   server gets 403 code 50013;
 * - told to, 429 with `retry_after` (seconds, JSON) and `global` to every Nth guild call (that call does nothing);
 * - told to (a server's `failing`), 503 to every call about that server, as when Discord's side fails there.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import joypixelsShortcodes from 'emojibase-data/en/shortcodes/joypixels.json'

export interface StandInExpression {
  id: string
  name: string
  /** Stickers: tags and description as sent; emoji: animated (a GIF). */
  tags?: string
  description?: string
  animated?: boolean
  bytes: number
}

export interface StandInGuild {
  id: string
  name: string
  premium_tier: 0 | 1 | 2 | 3
  stickers: StandInExpression[]
  emojis: StandInExpression[]
  /** Whether the bot holds the expressions permissions there (default true). */
  botPermitted: boolean
  /** Every call about this server answers 503 (default false). */
  failing: boolean
}

export interface DiscordCall {
  method: string
  path: string
  status: number
  /** Bytes of the file the call carried (stickers: the part; emoji: the decoded data URI). */
  fileBytes: number
}

export interface DiscordStandIn {
  /** The REST base, as DISCORD_API_URL takes it. */
  apiUrl: string
  /** The authorize page, as DISCORD_AUTHORIZE_URL takes it. */
  authorizeUrl: string
  clientId: string
  clientSecret: string
  botToken: string
  guilds: Map<string, StandInGuild>
  /** The server a person picks on the authorize page when the query names none. */
  pick: string
  /** Every call, in order (the authorize page's too). */
  calls: DiscordCall[]
  /** The query of every authorize page opened. */
  authorizations: URLSearchParams[]
  /** Answer 429 with retry_after `retryAfter` seconds to every `every`th guild call (0: never). */
  rateLimit: { every: number; retryAfter: number; global?: boolean }
  addGuild(guild: Partial<StandInGuild> & { id: string }): StandInGuild
  close(): Promise<void>
}

/** Guild stickers' tags: "the Discord name of a unicode emoji representing the sticker's expression". */
// Discord's names are EmojiOne's, listed first by its successor JoyPixels (Discord does not publish its list).
const EMOJI_NAMES = new Set(
  Object.values(joypixelsShortcodes as Record<string, string | string[]>).map((c) => (Array.isArray(c) ? c[0] : c)),
)

const STICKER_MAX_BYTES = 512 * 1024
const EMOJI_MAX_BYTES = 256 * 1024
const STICKER_SLOTS = [5, 15, 30, 60]
const EMOJI_SLOTS = [50, 100, 150, 250]

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.error))
  }
}

const invalidForm = (field: string, message: string) =>
  new ApiError(400, { code: 50035, message: 'Invalid Form Body', errors: { [field]: { _errors: [{ code: 'BASE_TYPE_BAD', message }] } } })

const isPng = (b: Uint8Array) => b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47
const isGif = (b: Uint8Array) => b.length > 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38
const isJpeg = (b: Uint8Array) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8
const isWebp = (b: Uint8Array) => b.length > 12 && Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP'

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export async function startDiscordStandIn(
  options: { rateLimit?: DiscordStandIn['rateLimit']; guilds?: Array<Partial<StandInGuild> & { id: string }> } = {},
): Promise<DiscordStandIn> {
  const codes = new Map<string, { redirectUri: string; guildId: string }>()
  let counted = 0
  const snowflake = () => String(BigInt(Date.now() - 1420070400000) * 4194304n + BigInt(Math.floor(Math.random() * 4194304)))

  const stand: DiscordStandIn = {
    apiUrl: '',
    authorizeUrl: '',
    clientId: String(100000000000000000n + BigInt(Math.floor(Math.random() * 1e9))),
    clientSecret: randomBytes(24).toString('base64url'),
    botToken: `${randomBytes(18).toString('base64url')}.${randomBytes(4).toString('base64url')}.${randomBytes(27).toString('base64url')}`,
    guilds: new Map(),
    pick: '',
    calls: [],
    authorizations: [],
    rateLimit: options.rateLimit ?? { every: 0, retryAfter: 1 },
    addGuild(guild) {
      const made: StandInGuild = {
        name: `Server ${guild.id}`,
        premium_tier: 0,
        stickers: [],
        emojis: [],
        botPermitted: true,
        failing: false,
        ...guild,
      }
      stand.guilds.set(made.id, made)
      stand.pick ||= made.id
      return made
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  for (const guild of options.guilds ?? []) stand.addGuild(guild)

  function guildOf(id: string): StandInGuild {
    const guild = stand.guilds.get(id)
    if (!guild) throw new ApiError(404, { code: 10004, message: 'Unknown Guild' })
    return guild
  }

  function permitted(guild: StandInGuild): void {
    if (!guild.botPermitted) throw new ApiError(403, { code: 50013, message: 'Missing Permissions' })
  }

  function authorize(url: URL): { status: number; headers: Record<string, string> } {
    const q = url.searchParams
    stand.authorizations.push(q)
    const redirect = q.get('redirect_uri')
    if (q.get('client_id') !== stand.clientId) throw new ApiError(400, { error: 'invalid_client', message: 'Unknown application' })
    if (q.get('response_type') !== 'code')
      throw new ApiError(400, { error: 'unsupported_response_type', message: 'response_type must be code' })
    if (!(q.get('scope') ?? '').split(/[ +]/).includes('bot'))
      throw new ApiError(400, { error: 'invalid_scope', message: 'scope must have bot' })
    if (!redirect || !/^https?:\/\//.test(redirect)) throw new ApiError(400, { error: 'invalid_request', message: 'Invalid redirect_uri' })
    if (!/^\d+$/.test(q.get('permissions') ?? '')) throw new ApiError(400, { error: 'invalid_request', message: 'Invalid permissions' })
    const guildId = q.get('guild_id') ?? stand.pick
    guildOf(guildId)
    const code = randomBytes(15).toString('base64url')
    codes.set(code, { redirectUri: redirect, guildId })
    const back = new URL(redirect)
    back.searchParams.set('code', code)
    if (q.has('state')) back.searchParams.set('state', q.get('state')!)
    back.searchParams.set('guild_id', guildId)
    back.searchParams.set('permissions', q.get('permissions')!)
    return { status: 302, headers: { Location: back.href } }
  }

  async function token(request: IncomingMessage): Promise<unknown> {
    const form = new URLSearchParams((await readBody(request)).toString('utf8'))
    if (!/application\/x-www-form-urlencoded/.test(request.headers['content-type'] ?? '')) {
      throw new ApiError(400, { error: 'invalid_request', error_description: 'form-encoded body expected' })
    }
    if (form.get('client_id') !== stand.clientId || form.get('client_secret') !== stand.clientSecret) {
      throw new ApiError(401, { error: 'invalid_client' })
    }
    if (form.get('grant_type') !== 'authorization_code') throw new ApiError(400, { error: 'unsupported_grant_type' })
    const code = codes.get(form.get('code') ?? '')
    if (!code) throw new ApiError(400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' })
    codes.delete(form.get('code')!)
    if (form.get('redirect_uri') !== code.redirectUri) {
      throw new ApiError(400, { error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' })
    }
    const guild = guildOf(code.guildId)
    return {
      access_token: randomBytes(15).toString('base64url'),
      token_type: 'Bearer',
      expires_in: 604800,
      refresh_token: randomBytes(15).toString('base64url'),
      scope: 'bot',
      guild: { id: guild.id, name: guild.name, premium_tier: guild.premium_tier },
    }
  }

  async function createSticker(guild: StandInGuild, request: IncomingMessage, call: DiscordCall): Promise<unknown> {
    const type = request.headers['content-type'] ?? ''
    if (!type.startsWith('multipart/form-data')) throw invalidForm('file', 'This field is required')
    const form = await new Request('http://stand.in/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(await readBody(request)),
    }).formData()
    const text = (field: string) => {
      const value = form.get(field)
      return typeof value === 'string' ? value : ''
    }
    const name = text('name')
    const description = text('description')
    const tags = text('tags')
    const file = form.get('file')
    if (name.length < 2 || name.length > 30) throw invalidForm('name', 'Must be between 2 and 30 in length.')
    if (description !== '' && (description.length < 2 || description.length > 100))
      throw invalidForm('description', 'Must be between 2 and 100 in length.')
    if (tags.length < 2 || tags.length > 200) throw invalidForm('tags', 'Must be between 2 and 200 in length.')
    if (!EMOJI_NAMES.has(tags)) throw invalidForm('tags', 'Must be the name of a unicode emoji.')
    if (!(file instanceof Blob)) throw invalidForm('file', 'This field is required')
    const bytes = new Uint8Array(await file.arrayBuffer())
    call.fileBytes = bytes.length
    if (!isPng(bytes) && !isGif(bytes)) throw invalidForm('file', 'Invalid Asset')
    if (bytes.length > STICKER_MAX_BYTES) throw new ApiError(400, { code: 50045, message: 'File uploaded exceeds the maximum size' })
    permitted(guild)
    const slots = STICKER_SLOTS[guild.premium_tier]!
    if (guild.stickers.length >= slots) throw new ApiError(400, { code: 30039, message: `Maximum number of stickers reached (${slots})` })
    const sticker: StandInExpression = { id: snowflake(), name, description, tags, bytes: bytes.length }
    guild.stickers.push(sticker)
    return { id: sticker.id, name, description, tags, type: 2, format_type: isGif(bytes) ? 4 : 2, available: true, guild_id: guild.id }
  }

  async function createEmoji(guild: StandInGuild, request: IncomingMessage, call: DiscordCall): Promise<unknown> {
    let body: { name?: unknown; image?: unknown }
    try {
      body = JSON.parse((await readBody(request)).toString('utf8')) as typeof body
    } catch {
      throw new ApiError(400, { code: 50109, message: 'The request body contains invalid JSON.' })
    }
    const name = typeof body.name === 'string' ? body.name : ''
    if (!/^[A-Za-z0-9_]{2,32}$/.test(name))
      throw invalidForm('name', 'Must be between 2 and 32 in length and contain only A-Z, a-z, 0-9 and _.')
    const match = typeof body.image === 'string' ? /^data:image\/(png|gif|jpeg|webp);base64,([A-Za-z0-9+/=]+)$/.exec(body.image) : null
    if (!match) throw invalidForm('image', 'Invalid image data')
    const bytes = new Uint8Array(Buffer.from(match[2]!, 'base64'))
    call.fileBytes = bytes.length
    if (!(isPng(bytes) || isGif(bytes) || isJpeg(bytes) || isWebp(bytes))) throw invalidForm('image', 'Invalid image data')
    if (bytes.length > EMOJI_MAX_BYTES) throw invalidForm('image', 'File cannot be larger than 256.0 kb.')
    permitted(guild)
    const animated = isGif(bytes)
    const slots = EMOJI_SLOTS[guild.premium_tier]!
    if (guild.emojis.filter((e) => (e.animated ?? false) === animated).length >= slots) {
      throw new ApiError(400, {
        code: animated ? 30018 : 30008,
        message: `Maximum number of ${animated ? 'animated ' : ''}emojis reached (${slots})`,
      })
    }
    const emoji: StandInExpression = { id: snowflake(), name, animated, bytes: bytes.length }
    guild.emojis.push(emoji)
    return { id: emoji.id, name, animated, available: true, require_colons: true, managed: false, roles: [] }
  }

  async function guildCall(request: IncomingMessage, path: string, call: DiscordCall): Promise<unknown> {
    if (request.headers.authorization !== `Bot ${stand.botToken}`) throw new ApiError(401, { code: 0, message: '401: Unauthorized' })
    const { every, retryAfter, global } = stand.rateLimit
    counted++
    if (every > 0 && counted % every === 0) {
      throw new ApiError(429, { message: 'You are being rate limited.', retry_after: retryAfter, global: global ?? false })
    }
    const match = /^\/guilds\/(\d+)(?:\/(stickers|emojis))?$/.exec(path)
    if (!match) throw new ApiError(404, { code: 0, message: '404: Not Found' })
    const guild = guildOf(match[1]!)
    if (guild.failing) throw new ApiError(503, { code: 0, message: 'upstream connect error' })
    const part = match[2]
    const strip = ({ bytes: _bytes, ...e }: StandInExpression) => e
    if (request.method === 'GET' && !part) return { id: guild.id, name: guild.name, premium_tier: guild.premium_tier }
    if (request.method === 'GET' && part === 'stickers') return guild.stickers.map(strip)
    if (request.method === 'GET' && part === 'emojis') return guild.emojis.map(strip)
    if (request.method === 'POST' && part === 'stickers') return createSticker(guild, request, call)
    if (request.method === 'POST' && part === 'emojis') return createEmoji(guild, request, call)
    throw new ApiError(405, { code: 0, message: '405: Method Not Allowed' })
  }

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand.in')
    const call: DiscordCall = { method: request.method ?? 'GET', path: url.pathname, status: 0, fileBytes: 0 }
    stand.calls.push(call)
    const answer = async () => {
      if (request.method === 'GET' && url.pathname === '/oauth2/authorize') return authorize(url)
      if (request.method === 'POST' && url.pathname === '/api/v10/oauth2/token') return { status: 200, body: await token(request) }
      if (url.pathname.startsWith('/api/v10/guilds/'))
        return { status: 200, body: await guildCall(request, url.pathname.slice('/api/v10'.length), call) }
      throw new ApiError(404, { code: 0, message: '404: Not Found' })
    }
    answer().then(
      (result: { status: number; body?: unknown; headers?: Record<string, string> }) => {
        call.status = result.status
        response.writeHead(result.status, { 'Content-Type': 'application/json', ...result.headers })
        response.end(result.body === undefined ? '' : JSON.stringify(result.body))
      },
      (error: unknown) => {
        const failure = error instanceof ApiError ? error : new ApiError(500, { code: 0, message: String(error) })
        call.status = failure.status
        response.writeHead(failure.status, { 'Content-Type': 'application/json' })
        response.end(JSON.stringify(failure.body))
      },
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  stand.apiUrl = `${origin}/api/v10`
  stand.authorizeUrl = `${origin}/oauth2/authorize`
  return stand
}

// A small client of Discord's REST API (https://discord.com/developers/docs) for what "Add to my Discord server"
// needs: the OAuth2 code exchange (the app's client id and secret) and the guild calls the bot makes
// (`Authorization: Bot <token>`). Its errors carry Discord's status, JSON error code and message, never a secret.

export interface DiscordGuild {
  id: string
  premium_tier: number
}

export interface DiscordExpression {
  id: string
  name: string
  /** Emoji only: whether it is animated (counted apart from static ones). */
  animated?: boolean
}

/** Discord refused the call (or could not be reached: status 0). */
export class DiscordApiError extends Error {
  constructor(
    readonly call: string,
    readonly status: number,
    /** Discord's JSON error code (50013 Missing Permissions, 30039 Maximum number of stickers reached, …); 0 if none. */
    readonly code: number,
    readonly description: string,
  ) {
    super(`Discord's ${call} answered ${status === 0 ? 'nothing' : status}: ${description}`)
    this.name = 'DiscordApiError'
  }
}

/** 429: wait `retryAfterSeconds` before the next call (`global`: the bot's limit over all routes). */
export class DiscordRetryError extends DiscordApiError {
  constructor(
    call: string,
    description: string,
    readonly retryAfterSeconds: number,
    readonly global: boolean,
  ) {
    super(call, 429, 0, description)
    this.name = 'DiscordRetryError'
  }
}

export interface DiscordApi {
  /** Exchanges an authorization code; answers the guild the bot was added to, when Discord names it. */
  exchangeCode(code: string, redirectUri: string): Promise<{ guildId?: string }>
  getGuild(guildId: string): Promise<DiscordGuild>
  listStickers(guildId: string): Promise<DiscordExpression[]>
  listEmojis(guildId: string): Promise<DiscordExpression[]>
  createSticker(
    guildId: string,
    sticker: { name: string; description: string; tags: string; bytes: Uint8Array; contentType: string; filename: string },
  ): Promise<DiscordExpression>
  createEmoji(guildId: string, emoji: { name: string; bytes: Uint8Array; contentType: string }): Promise<DiscordExpression>
  /** Bytes of sticker and emoji files sent so far (base64 counted as the bytes it carries). */
  readonly uploadedBytes: number
}

/** A call that takes longer is given up (and tried again by the job). */
const CALL_TIMEOUT_MS = 60_000

export function createDiscordApi(options: { baseUrl: string; botToken: string; clientId: string; clientSecret: string }): DiscordApi {
  const base = options.baseUrl.replace(/\/+$/, '')
  let uploadedBytes = 0

  async function call<T>(
    name: string,
    path: string,
    init: { method?: string; body?: FormData | URLSearchParams; json?: unknown; bot?: boolean },
  ): Promise<T> {
    const headers: Record<string, string> = {}
    if (init.bot !== false) headers.Authorization = `Bot ${options.botToken}`
    let body: FormData | URLSearchParams | string | undefined = init.body
    if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(init.json)
    }
    let response: Response
    try {
      response = await fetch(`${base}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      })
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      throw new DiscordApiError(name, 0, 0, timedOut ? 'no answer in time' : 'Discord cannot be reached')
    }
    let answer: unknown
    try {
      answer = await response.json()
    } catch {
      throw new DiscordApiError(name, response.status, 0, 'an answer that is not Discord’s JSON')
    }
    if (response.ok) return answer as T
    const error = (answer ?? {}) as { code?: number; message?: string; retry_after?: number; global?: boolean; error?: string }
    const description = String(error.message ?? error.error ?? 'no description')
    if (response.status === 429) {
      const seconds = Number(error.retry_after ?? response.headers.get('retry-after') ?? 1)
      throw new DiscordRetryError(name, description, Number.isFinite(seconds) && seconds > 0 ? seconds : 1, error.global === true)
    }
    throw new DiscordApiError(name, response.status, Number(error.code ?? 0), description)
  }

  return {
    get uploadedBytes() {
      return uploadedBytes
    },
    async exchangeCode(code, redirectUri) {
      const form = new URLSearchParams({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
      })
      // The token is not kept: the bot, not the person, does the uploads.
      const answer = await call<{ guild?: { id?: string } }>('the code exchange', '/oauth2/token', {
        method: 'POST',
        body: form,
        bot: false,
      })
      return answer.guild?.id ? { guildId: String(answer.guild.id) } : {}
    },
    getGuild: (guildId) => call('Get Guild', `/guilds/${encodeURIComponent(guildId)}`, {}),
    listStickers: (guildId) => call('List Guild Stickers', `/guilds/${encodeURIComponent(guildId)}/stickers`, {}),
    listEmojis: (guildId) => call('List Guild Emoji', `/guilds/${encodeURIComponent(guildId)}/emojis`, {}),
    async createSticker(guildId, sticker) {
      const form = new FormData()
      form.set('name', sticker.name)
      form.set('description', sticker.description)
      form.set('tags', sticker.tags)
      form.set('file', new Blob([new Uint8Array(sticker.bytes)], { type: sticker.contentType }), sticker.filename)
      const made = await call<DiscordExpression>('Create Guild Sticker', `/guilds/${encodeURIComponent(guildId)}/stickers`, {
        method: 'POST',
        body: form,
      })
      uploadedBytes += sticker.bytes.length
      return made
    },
    async createEmoji(guildId, emoji) {
      const image = `data:${emoji.contentType};base64,${Buffer.from(emoji.bytes).toString('base64')}`
      const made = await call<DiscordExpression>('Create Guild Emoji', `/guilds/${encodeURIComponent(guildId)}/emojis`, {
        method: 'POST',
        json: { name: emoji.name, image },
      })
      uploadedBytes += emoji.bytes.length
      return made
    },
  }
}

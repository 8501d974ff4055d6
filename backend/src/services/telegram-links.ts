// Telegram sets of one's own packs (issue 36; README: Telegram sets): a gallery account is linked to a Telegram
// user through the bot. The owner of a personal pack asks for its set; unlinked, they get a one-time start link
// `https://t.me/<bot>?start=<code>` (the answer is a CONFLICT carrying it). The code is random (144 bits), lives
// CODE_TTL_MS, only its SHA-256 is stored, only an account's newest works, and it works once. The bot learns
// `/start <code>` from getUpdates (one long poller per process, its offset confirming what it read) or, with
// TELEGRAM_WEBHOOK_SECRET, from Telegram's POST to the webhook route; it links the sender to the account, answers
// them in Telegram, and asks for the waiting pack's set, owned by that Telegram user.
import { createHash, randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { busy, conflict, forbidden, notFound, unavailable } from '../domain/errors'
import type { Logger } from '../logger'
import type { Store } from '../store/port'
import { TelegramRetryError, type BotApi, type BotUpdate } from './telegram-bot-api'
import type { TelegramSetService, TelegramSetView } from './telegram-sets'

/** How long a start code works. */
export const CODE_TTL_MS = 15 * 60_000

/** What the profile shows (never a token or a code). */
export interface TelegramLinkView {
  linked: boolean
  linkedAt?: string
}

export interface TelegramLinkService {
  /**
   * "Add to Telegram" on a pack: an admin's on a public pack (as before), its owner's on a personal one. Unlinked
   * owners get CONFLICT with details `{ reason: 'telegram-not-linked', startUrl }`; NOT_FOUND for no such pack
   * (or a private one of someone else), FORBIDDEN for anyone else.
   */
  requestSet(asker: { email: string; isAdmin: boolean }, packId: string): Promise<TelegramSetView>
  view(email: string): Promise<TelegramLinkView>
  unlink(email: string): Promise<boolean>
  /** One update from Telegram (the poller's or the webhook's): `/start <code>` links its sender. */
  handleUpdate(update: BotUpdate): Promise<void>
  /** Starts the long poller (not with a webhook). */
  start(): void
  close(): Promise<void>
}

export interface TelegramLinkServiceDeps {
  store: Store
  logger: Logger
  bot: BotApi
  sets: TelegramSetService
  /** Seconds a getUpdates call waits for an update (default 30). */
  pollSeconds?: number
  /** Wait after getUpdates failed (default 5 s). */
  retryMs?: number
}

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex')

const START = /^\/start(?:@\w+)?(?:\s+(\S+))?\s*$/

export function createTelegramLinkService({
  store,
  logger,
  bot,
  sets,
  pollSeconds = 30,
  retryMs = 5_000,
}: TelegramLinkServiceDeps): TelegramLinkService {
  let offset: number | undefined
  let polling: Promise<void> | undefined
  const stop = new AbortController()

  async function reply(chatId: number, text: string): Promise<void> {
    try {
      await bot.sendMessage(chatId, text)
    } catch (error) {
      logger.info('telegram links: a reply was not sent', { error: String(error) })
    }
  }

  /** The personal pack's set for its owner's Telegram user; undefined when the pack is gone or no longer theirs. */
  async function ownersSet(email: string, packId: string, telegramUserId: number): Promise<TelegramSetView | undefined> {
    const pack = await store.packs.get(packId)
    if (!pack || pack.visibility === 'public' || pack.createdBy !== email) return undefined
    return sets.request(packId, telegramUserId)
  }

  async function handleUpdate(update: BotUpdate): Promise<void> {
    const message = update.message
    const from = message?.from?.id
    const start = START.exec(message?.text?.trim() ?? '')
    if (!message || typeof from !== 'number' || !start || message.from?.is_bot) return
    const chat = message.chat?.id ?? from
    const code = start[1]
    if (!code) {
      await reply(
        chat,
        'Hello! To add one of your Wumpus Gallery packs to Telegram, press “Add to Telegram” on its page and follow the link it gives.',
      )
      return
    }
    const taken = code.length <= 64 ? await store.telegramLinks.takeCode(hashOf(code), new Date()) : undefined
    if (!taken) {
      await reply(
        chat,
        'This link does not work any more (a link works once, for 15 minutes). Press “Add to Telegram” in Wumpus Gallery again for a new one.',
      )
      return
    }
    await store.telegramLinks.link(taken.email, from, new Date())
    logger.info('telegram links: an account was linked', { email: taken.email })
    let making = false
    if (taken.packId) {
      try {
        making = (await ownersSet(taken.email, taken.packId, from)) !== undefined
      } catch (error) {
        logger.error('telegram links: the waiting set was not asked for', { pack: taken.packId, error: String(error) })
      }
    }
    await reply(
      chat,
      `Linked to Wumpus Gallery (${taken.email}).${making ? ' Your sticker set is being made: go back to the gallery to add it.' : ''}`,
    )
  }

  async function poll(): Promise<void> {
    while (!stop.signal.aborted) {
      try {
        const updates = await bot.getUpdates({ offset, timeout: pollSeconds, signal: stop.signal })
        for (const update of updates) {
          // Confirmed by the next call: never read again, even when handling it failed.
          offset = update.update_id + 1
          await handleUpdate(update).catch((error: unknown) =>
            logger.error('telegram links: an update was not handled', { update: update.update_id, error: String(error) }),
          )
        }
      } catch (error) {
        if (stop.signal.aborted) return
        const wait = error instanceof TelegramRetryError ? error.retryAfterSeconds * 1000 : retryMs
        logger.info('telegram links: getUpdates failed', { error: String(error), retryInMs: wait })
        await sleep(wait, undefined, { signal: stop.signal }).catch(() => undefined)
      }
    }
  }

  return {
    async requestSet({ email, isAdmin }, packId) {
      const pack = await store.packs.get(packId)
      if (!pack) throw notFound('No pack with this id')
      if (pack.visibility === 'public') {
        if (!isAdmin) throw forbidden('Only admins make the Telegram sets of public packs')
        return sets.request(packId)
      }
      if (pack.createdBy !== email) {
        if (pack.visibility === 'private') throw notFound('No pack with this id')
        throw forbidden('Only the pack’s owner can add it to Telegram')
      }
      const link = await store.telegramLinks.get(email)
      if (link) return sets.request(packId, link.telegramUserId)
      const code = randomBytes(18).toString('base64url')
      await store.telegramLinks.putCode(email, { hash: hashOf(code), expiresAt: new Date(Date.now() + CODE_TTL_MS), packId })
      let name: string
      try {
        name = await sets.botUsername()
      } catch (error) {
        if (error instanceof TelegramRetryError) throw busy('Telegram asks the bot to wait, try again shortly', error.retryAfterSeconds)
        logger.error('telegram links: the bot cannot be read', { error: String(error) })
        throw unavailable('Telegram cannot be reached right now, try again shortly')
      }
      throw conflict('Link your Telegram account first: open the bot in Telegram and press Start', {
        reason: 'telegram-not-linked',
        startUrl: `https://t.me/${name}?start=${code}`,
      })
    },

    async view(email) {
      const link = await store.telegramLinks.get(email)
      return link ? { linked: true, linkedAt: link.linkedAt.toISOString() } : { linked: false }
    },

    unlink: (email) => store.telegramLinks.unlink(email),

    handleUpdate,

    start() {
      polling ??= poll()
    },

    async close() {
      stop.abort()
      await polling
    },
  }
}

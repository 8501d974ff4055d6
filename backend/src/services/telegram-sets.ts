// Telegram sticker sets made by the gallery's bot, one per public pack (TELEGRAM_BOT_TOKEN, owned by the
// operator's TELEGRAM_SET_OWNER_ID), and one per personal pack whose owner asked (owned by their linked Telegram
// user, the record's ownerUserId: services/telegram-links.ts). An admin asks for a pack's set; from then on every edit of the pack, and
// its deletion, asks again. Each ask is a run kept in the store (port TelegramSetRepository): claimed with a
// lease, one at a time in this process, taken over by another instance (or this one after a restart) once the
// lease ends, waiting out Telegram's retry_after in the store. A run brings the set in step with the pack as it
// is then: it reads the set (getStickerSet), recognises the stickers it made by what it recorded (a sticker it
// sent but never recorded is found there, not sent twice), removes what the pack no longer has, adds what is
// new, puts them in the pack's order, and sets emoji, keywords and title; a pack deleted takes its set with it.
// A pack has two sets, each its own record and run (a failure of one leaves the other be): its sticker set, made
// of the `telegram` export, and its custom emoji set (`sticker_type: 'custom_emoji'`, up to 200), made of the
// `telegram-emoji` export, which exists on Telegram only while some of the pack's stickers have that file.
import { randomBytes } from 'node:crypto'
import { conflict, notFound, unavailable } from '../domain/errors'
import type { Logger } from '../logger'
import { currentDerived } from '../store/records'
import type {
  PackRecord,
  Store,
  TelegramSetJob,
  TelegramSetKind,
  TelegramSetProgress,
  TelegramSetRecord,
  TelegramSetSticker,
} from '../store/port'
import { TelegramApiError, TelegramRetryError, type BotApi, type BotStickerSet } from './telegram-bot-api'
import { EMOJI_SET_MAX, SET_MAX, setName, setTitle, setUrl, splitForCreate, stickerEmoji, stickerKeywords } from './telegram-set-rules'

/** What the pack's page shows of one of its sets. */
export interface TelegramSetStateView {
  state: TelegramSetRecord['state']
  /** Once the set exists on Telegram. */
  url?: string
  reason?: string
}

/** What the pack's page shows of its sets: the sticker set's, and its custom emoji set's beside. */
export interface TelegramSetView extends TelegramSetStateView {
  emoji?: TelegramSetStateView
}

const KINDS: readonly TelegramSetKind[] = ['stickers', 'emoji']

export interface TelegramSetService {
  /**
   * An admin's ask: make the pack's sets (its sticker set, and its custom emoji set), or bring them in step, now. NOT_FOUND for no such pack, CONFLICT for a personal one
   * unless `ownerUserId` is given: its owner's ask (services/telegram-links.ts checked who asks), a set owned by their
   * linked Telegram user (kept from its first ask).
   */
  request(packId: string, ownerUserId?: number): Promise<TelegramSetView>
  /** The pack's set as its page shows it; undefined when none was asked for. */
  view(packId: string): Promise<TelegramSetView | undefined>
  /** The pack (public or personal) was edited or deleted: a set made of it follows (nothing happens for packs without one). */
  packChanged(packId: string, change: 'edited' | 'deleted'): void
  /** An animation was edited (emoji, keywords, files) or deleted: the sets holding its sticker follow. */
  animationChanged(wumpusId: string): void
  /** The bot's username (getMe, asked once and kept; asked again after a failure). */
  botUsername(): Promise<string>
  /** Looks for runs left by others (an instance that stopped, a retry time that came); runs them one at a time. */
  start(): void
  /** Stops taking runs and waits for the one under way to stop at its next step. */
  close(): Promise<void>
}

export interface TelegramSetServiceDeps {
  store: Store
  logger: Logger
  bot: BotApi
  /** The Telegram user who owns the sets (they must have started the bot). */
  ownerId: number
  /** How long a claimed run is held without renewal (default 2 minutes). */
  leaseMs?: number
  /** How often the store is looked at for runs left by others (default 30 s). */
  pollMs?: number
  /** Wait before trying again after Telegram could not be reached (default 30 s). */
  retryMs?: number
}

class LeaseLost extends Error {}

/** A sticker of the set as the pack wants it. */
type Wanted = TelegramSetSticker

/** How many times in a row a run may meet an unreachable Telegram before the set is marked failed. */
const UNREACHABLE_MAX = 5

export function createTelegramSetService({
  store,
  logger,
  bot,
  ownerId,
  leaseMs = 120_000,
  pollMs = 30_000,
  retryMs = 30_000,
}: TelegramSetServiceDeps): TelegramSetService {
  const owner = `telegram-${randomBytes(6).toString('hex')}`
  let username: Promise<string> | undefined
  let running: Promise<void> | undefined
  let again = false
  let closed = false
  let timer: NodeJS.Timeout | undefined
  /** Unreachable answers in a row, per set (`<pack id>:<kind>`, in this process). */
  const unreachable = new Map<string, number>()

  function botUsername(): Promise<string> {
    username ??= bot.getMe().then(
      (me) => me.username,
      (error: unknown) => {
        username = undefined
        throw error
      },
    )
    return username
  }

  const viewOf = (record: TelegramSetRecord): TelegramSetStateView => ({
    state: record.state,
    ...(record.created ? { url: setUrl(record.name, record.kind) } : {}),
    ...(record.reason ? { reason: record.reason } : {}),
  })
  const viewOfBoth = (stickers: TelegramSetRecord, emoji: TelegramSetRecord | undefined): TelegramSetView => ({
    ...viewOf(stickers),
    ...(emoji && !emoji.removing ? { emoji: viewOf(emoji) } : {}),
  })

  /** Runs due runs one after another until none is due; asked again meanwhile, looks again. */
  function kick(): void {
    if (closed) return
    if (running) {
      again = true
      return
    }
    running = drain()
      .catch((error: unknown) => logger.error('telegram sets: a run failed', { error: String(error) }))
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          kick()
        } else void schedule()
      })
  }

  async function drain(): Promise<void> {
    while (!closed) {
      const job = await store.telegramSets.claim({ owner, leaseMs, now: new Date() })
      if (!job) return
      await work(job)
    }
  }

  /** The next look: at the earliest retry time, or after pollMs. */
  async function schedule(): Promise<void> {
    if (closed) return
    clearTimeout(timer)
    let delay = pollMs
    try {
      const next = await store.telegramSets.nextRetry()
      if (next) delay = Math.min(delay, Math.max(0, next.getTime() - Date.now()))
    } catch (error) {
      logger.error('telegram sets: the store cannot be read', { error: String(error) })
    }
    if (closed) return
    timer = setTimeout(kick, delay)
    timer.unref()
  }

  async function work(job: TelegramSetJob): Promise<void> {
    const packId = job.record.packId
    const key = `${packId}:${job.record.kind}`
    try {
      const outcome = await run(job)
      unreachable.delete(key)
      await store.telegramSets.finish(job, outcome)
    } catch (error) {
      if (error instanceof LeaseLost) return
      const now = Date.now()
      if (error instanceof TelegramRetryError) {
        await store.telegramSets.finish(job, {
          retryAt: new Date(now + error.retryAfterSeconds * 1000),
          reason: `Telegram asked the bot to wait ${error.retryAfterSeconds} s`,
        })
        return
      }
      const transient = error instanceof TelegramApiError ? error.code === 0 || error.code >= 500 : true
      const times = (unreachable.get(key) ?? 0) + 1
      if (transient && times < UNREACHABLE_MAX) {
        unreachable.set(key, times)
        if (!(error instanceof TelegramApiError))
          logger.error('telegram sets: a run stopped', { pack: packId, kind: job.record.kind, error: String(error) })
        await store.telegramSets.finish(job, { retryAt: new Date(now + retryMs * times), reason: `${reasonOf(error)}; trying again` })
        return
      }
      unreachable.delete(key)
      const reason = reasonOf(error, job.record.ownerUserId !== undefined)
      logger.info('telegram sets: a set failed', { pack: packId, kind: job.record.kind, reason })
      await store.telegramSets.finish(job, { state: 'failed', reason })
    }
  }

  /** One run: the set brought in step with its pack (or removed with it). */
  async function run(job: TelegramSetJob) {
    const { record } = job
    const { kind } = record
    const emojiSet = kind === 'emoji'
    let userId = record.ownerUserId ?? ownerId
    const progress: TelegramSetProgress = {
      created: record.created,
      title: record.title,
      stickers: record.stickers.map((s) => ({ ...s })),
      pending: record.pending.map((s) => ({ ...s })),
    }
    /** Before each call to Telegram: the lease still ours, renewed when half spent. */
    const hold = async () => {
      if (closed) throw new LeaseLost()
      if (job.leaseUntil.getTime() - Date.now() < leaseMs / 2) {
        const until = new Date(Date.now() + leaseMs)
        if (!(await store.telegramSets.renew(job, until))) throw new LeaseLost()
        job.leaseUntil = until
      }
    }
    const save = async () => {
      if (!(await store.telegramSets.save(job, progress))) throw new LeaseLost()
    }

    const pack = await store.packs.get(record.packId)
    // A personal pack's set (it has its own owner) stays while the pack does.
    if (record.removing || !pack || (pack.visibility !== 'public' && record.ownerUserId === undefined)) {
      await hold()
      if (progress.created || progress.pending.length > 0) await bot.deleteStickerSet(record.name)
      return { removed: true } as const
    }

    const { wanted, waiting } = await wantedStickers(pack, kind)
    // Files still being made (a new animation, a Lottie just replaced): the set is left as it is until they are.
    if (waiting > 0) {
      const file = emojiSet ? 'custom emoji file' : 'Telegram file'
      const files = waiting === 1 ? `One sticker’s ${file} is` : `${waiting} stickers’ ${file}s are`
      return { retryAt: new Date(Date.now() + pollMs), reason: `${files} still being made` }
    }
    if (wanted.length === 0 && emojiSet) {
      // No custom emoji files (any more): no emoji set on Telegram, the record kept to follow the pack.
      await hold()
      if (progress.created || progress.pending.length > 0) await bot.deleteStickerSet(record.name)
      Object.assign(progress, { created: false, stickers: [], pending: [] })
      await save()
      return { state: 'ready' } as const
    }
    if (wanted.length === 0) return { state: 'failed', reason: 'None of this pack’s stickers has a Telegram file' } as const
    const title = setTitle(pack)

    await hold()
    let set = await bot.getStickerSet(record.name)
    if (!set) {
      // New, or removed on Telegram by hand, or a create whose answer never came that did not happen: made
      // from the first 50, the rest added below.
      const { create } = splitForCreate(wanted, kind)
      // A personal set not made yet is made for the account its owner links now (they may have relinked since
      // asking); once made, Telegram keeps its owner.
      if (record.ownerUserId !== undefined) {
        const link = await store.telegramLinks.get(pack.createdBy)
        if (!link)
          return { state: 'failed', reason: 'Your Telegram account is no longer linked: press Add to Telegram to link it again' } as const
        userId = link.telegramUserId
        progress.ownerUserId = userId
      }
      progress.created = false
      progress.stickers = []
      progress.pending = create
      await save()
      await hold()
      await bot.createNewStickerSet({
        userId,
        name: record.name,
        title,
        stickers: await uploads(create),
        stickerType: emojiSet ? 'custom_emoji' : 'regular',
      })
      progress.created = true
      progress.title = title
      progress.stickers = create
      progress.pending = []
      await save()
      await hold()
      set = await bot.getStickerSet(record.name)
    }
    if (!set) throw new TelegramApiError('getStickerSet', 0, 'the set was not there after it was made')
    progress.created = true
    const foreign = identify(progress, set)
    await save()

    const same = (a: TelegramSetSticker, b: Wanted) => a.wumpusId === b.wumpusId && a.source === b.source
    // What the pack no longer has (or has with another file), and stickers the gallery did not make: removed,
    // all but one when none would be left (Telegram keeps no empty set), that one after the adds.
    const seen = new Set<string>()
    const stale = progress.stickers.filter((sticker) => {
      const keep = wanted.some((w) => same(sticker, w)) && !seen.has(sticker.wumpusId)
      seen.add(sticker.wumpusId)
      return !keep
    })
    const last = stale.length === progress.stickers.length && foreign.length === 0 ? stale.pop() : undefined
    for (const fileId of [...foreign.map((s) => s.file_id), ...stale.map((s) => s.fileId!)]) {
      await hold()
      await bot.deleteStickerFromSet(fileId)
      progress.stickers = progress.stickers.filter((s) => s.fileId !== fileId)
      await save()
    }

    const missing = wanted.filter((w) => !progress.stickers.some((s) => same(s, w)))
    for (const sticker of missing) {
      progress.pending = [sticker]
      await save()
      await hold()
      const [upload] = await uploads([sticker])
      await bot.addStickerToSet({ userId, name: record.name, sticker: upload! })
      progress.stickers.push(sticker)
      progress.pending = []
      await save()
    }
    if (missing.length > 0) {
      await hold()
      set = (await bot.getStickerSet(record.name)) ?? set
      // Stickers made meanwhile by someone else stay for the next run to remove.
      identify(progress, set)
      await save()
    }
    if (last) {
      await hold()
      await bot.deleteStickerFromSet(last.fileId!)
      progress.stickers = progress.stickers.filter((s) => s.fileId !== last.fileId)
      await save()
    }

    // The pack's order.
    for (let i = 0; i < wanted.length; i++) {
      const at = progress.stickers.findIndex((s) => same(s, wanted[i]!))
      if (at === i || at < 0) continue
      await hold()
      await bot.setStickerPositionInSet(progress.stickers[at]!.fileId!, i)
      const [moved] = progress.stickers.splice(at, 1)
      progress.stickers.splice(i, 0, moved!)
      await save()
    }

    // Emoji and keywords.
    for (const sticker of progress.stickers) {
      const want = wanted.find((w) => same(sticker, w))
      if (!want) continue
      if (want.emoji.join() !== sticker.emoji.join()) {
        await hold()
        await bot.setStickerEmojiList(sticker.fileId!, want.emoji)
        sticker.emoji = want.emoji
        await save()
      }
      if (want.keywords.join() !== sticker.keywords.join()) {
        await hold()
        await bot.setStickerKeywords(sticker.fileId!, want.keywords)
        sticker.keywords = want.keywords
        await save()
      }
    }

    if (set.title !== title) {
      await hold()
      await bot.setStickerSetTitle(record.name, title)
    }
    progress.title = title
    await save()
    return { state: 'ready' } as const
  }

  /**
   * The pack's stickers with a file for the set's kind (the `telegram` export, or `telegram-emoji`), in order (at most
   * a set's 120, or 200 custom emoji), and how many have no media made from their current Lottie yet (those that
   * were made without such a file are left out, not waited for).
   */
  async function wantedStickers(pack: PackRecord, kind: TelegramSetKind): Promise<{ wanted: Wanted[]; waiting: number }> {
    const platform = kind === 'emoji' ? 'telegram-emoji' : 'telegram'
    const records = await Promise.all(pack.wumpusIds.map((id) => store.wumpuses.get(id)))
    const wanted: Wanted[] = []
    let waiting = 0
    for (const record of records) {
      // A hidden animation leaves the pack's set too.
      if (!record || record.hidden) continue
      const derived = currentDerived(record)
      if (!derived) waiting++
      const made = derived?.exports.find((e) => e.platform === platform)
      if (!made?.file || wanted.some((w) => w.wumpusId === record._id)) continue
      wanted.push({ wumpusId: record._id, source: made.file.id, emoji: stickerEmoji(record), keywords: stickerKeywords(record) })
    }
    return { wanted: wanted.slice(0, kind === 'emoji' ? EMOJI_SET_MAX : SET_MAX), waiting }
  }

  async function uploads(stickers: Wanted[]) {
    return Promise.all(
      stickers.map(async (sticker) => {
        const file = await store.files.read(sticker.source)
        if (!file) throw new Error(`the file ${sticker.source} is gone`)
        return { bytes: file.bytes, format: 'animated' as const, emoji: sticker.emoji, keywords: sticker.keywords }
      }),
    )
  }

  return {
    async request(packId, ownerUserId) {
      const pack = await store.packs.get(packId)
      if (!pack) throw notFound('No pack with this id')
      if (pack.visibility !== 'public' && ownerUserId === undefined)
        throw conflict('Telegram sets are made for public packs only', { reason: 'not-public' })
      const owner = pack.visibility === 'public' ? undefined : ownerUserId
      const [stickers, emoji] = await Promise.all(
        KINDS.map(async (kind) => {
          let name = (await store.telegramSets.get(packId, kind))?.name
          if (name === undefined) {
            try {
              name = setName(pack, await botUsername(), kind)
            } catch (error) {
              logger.error('telegram sets: the bot cannot be read', { error: reasonOf(error) })
              throw unavailable('Telegram cannot be reached right now, try again shortly')
            }
          }
          return (await store.telegramSets.request(packId, kind, { name, ownerUserId: owner, now: new Date() }))!
        }),
      )
      kick()
      return viewOfBoth(stickers!, emoji)
    },

    async view(packId) {
      const [stickers, emoji] = await Promise.all(KINDS.map((kind) => store.telegramSets.get(packId, kind)))
      return stickers && !stickers.removing ? viewOfBoth(stickers, emoji) : undefined
    },

    packChanged(packId, change) {
      const remove = change === 'deleted'
      Promise.all(KINDS.map((kind) => store.telegramSets.request(packId, kind, { remove, now: new Date() })))
        .then(async ([stickers, emoji]) => {
          // A sticker set asked for before emoji sets were made (no emoji record): its emoji set joins it now.
          if (stickers && !emoji && !remove) {
            const pack = await store.packs.get(packId)
            if (pack) {
              const name = setName(pack, await botUsername(), 'emoji')
              await store.telegramSets.request(packId, 'emoji', { name, ownerUserId: stickers.ownerUserId, now: new Date() })
            }
          }
          if (stickers || emoji) kick()
        })
        .catch((error: unknown) => logger.error('telegram sets: a pack change was not recorded', { pack: packId, error: String(error) }))
    },

    animationChanged(wumpusId) {
      store.telegramSets.requestHolding(wumpusId, new Date()).then(
        (asked) => asked > 0 && kick(),
        (error: unknown) => logger.error('telegram sets: an animation change was not recorded', { wumpus: wumpusId, error: String(error) }),
      )
    },

    botUsername,

    start() {
      kick()
    },

    async close() {
      closed = true
      clearTimeout(timer)
      await running
    },
  }
}

/**
 * Matches what the set holds with what the run recorded: its own stickers by Telegram's unique id; stickers it
 * sent but has no id for yet (added, or pending: sent in a call whose answer never came) in the order they were
 * sent, to the set's unknown stickers in theirs. Pending ones not there were never added. Answers the set's
 * stickers the gallery did not make.
 */
export function identify(progress: TelegramSetProgress, set: BotStickerSet): BotStickerSet['stickers'] {
  const known = new Map(progress.stickers.filter((s) => s.fileUniqueId).map((s) => [s.fileUniqueId!, s]))
  const unnamed = [...progress.stickers.filter((s) => !s.fileUniqueId), ...progress.pending]
  const stickers: TelegramSetSticker[] = []
  const foreign: BotStickerSet['stickers'] = []
  for (const sticker of set.stickers) {
    const mine = known.get(sticker.file_unique_id) ?? unnamed.shift()
    if (mine) stickers.push({ ...mine, fileId: sticker.file_id, fileUniqueId: sticker.file_unique_id })
    else foreign.push(sticker)
  }
  progress.stickers = stickers
  progress.pending = []
  return foreign
}

/** Why a run stopped, in words for the pack's page (never the token); `personal`: a set owned by its pack's owner (issue 36). */
export function reasonOf(error: unknown, personal = false): string {
  if (!(error instanceof TelegramApiError)) return 'The set could not be made: something went wrong on the server'
  const { code, description } = error
  if (code === 0) return `Telegram cannot be reached (${description})`
  if (code === 401 || code === 404) return 'Telegram refused the bot’s token: check TELEGRAM_BOT_TOKEN'
  if (personal && /PEER_ID_INVALID|user not found|USER_ID_INVALID/i.test(description))
    return 'Telegram does not know your linked account any more: open the bot in Telegram, press Start, and try again'
  if (/PEER_ID_INVALID|user not found|USER_ID_INVALID/i.test(description))
    return 'Telegram does not know the set’s owner: TELEGRAM_SET_OWNER_ID must be the id of a user who started the bot'
  if (/name is already occupied/i.test(description)) return 'Another sticker set already has this set’s name'
  if (/STICKER_|file is too big/i.test(description))
    return `Telegram refused a sticker’s file (${description.replace(/^Bad Request: /, '')})`
  if (/STICKERS_TOO_MUCH/i.test(description)) return 'The set holds as many stickers as Telegram allows'
  if (code >= 500) return `Telegram failed to answer (${code})`
  return `Telegram refused ${error.method}: ${description.replace(/^Bad Request: /, '')}`
}

// "Add to my Discord server" (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET, DISCORD_BOT_TOKEN; README: Discord app).
// A signed-in person who can open a pack gets a ticket (signed, 10 minutes, bound to their account and the pack);
// the page opens GET /api/packs/{id}/discord?ticket=…, which sends the browser to Discord's authorize page with the
// ticket as OAuth2's `state`. Discord sends the person back to the callback with a code and the server they
// picked: the state is checked, the code exchanged, and an upload job made in the store (port
// DiscordUploadRepository; one job per state, so a state is used once). Jobs run one at a time, oldest first
// (the bot's rate limits are the bot's), with a lease: a restart or another instance resumes them, Discord's
// retry_after is waited out in the store with the job keeping its turn, a job backing off from an unreachable
// Discord gives its turn to the others, and an upload is recorded as pending before it is sent, so a crash
// between the upload and its record finds the sticker on the server by its name instead of sending it twice.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { DiscordProblem } from '../../../contract/discord-problems'
import { notFound } from '../domain/errors'
import type { Viewer } from '../domain/viewer'
import type { Logger } from '../logger'
import { newId } from '../store/ids'
import { currentDerived } from '../store/records'
import type { Store, WumpusRecord } from '../store/port'
import type {
  DiscordItemKind,
  DiscordNotFitted,
  DiscordUploadJob,
  DiscordUploadProgress,
  DiscordUploadRecord,
  DiscordUploaded,
} from '../store/discord-uploads-port'
import { DiscordApiError, DiscordRetryError, type DiscordApi, type DiscordExpression } from './discord-api'
import {
  emojiName,
  emojiSlots,
  EXPRESSIONS_PERMISSIONS,
  noSlotReason,
  stickerName,
  stickerSlots,
  stickerTags,
  uniqueNames,
} from './discord-rules'
import type { PackService } from './packs'

/** How long a ticket (and so the state Discord carries back) is good for. */
export const TICKET_TTL_MS = 10 * 60_000

/** What the pack's page shows of a job. */
export interface DiscordUploadView {
  id: string
  packId: string
  state: DiscordUploadRecord['state']
  reason?: string
  /** The server's sticker slots, once its boost tier was read. */
  stickerSlots?: number
  uploaded: Array<Pick<DiscordUploaded, 'wumpusId' | 'kind' | 'name'>>
  notFitted: DiscordNotFitted[]
}

/** Where the callback sends the browser: a pack's page with the job, or with why there is none. */
export type DiscordCallbackOutcome = { packId: string; jobId: string } | { packId?: string; problem: DiscordProblem }

export interface DiscordUploadService {
  /** A ticket for GET /api/packs/{id}/discord; NOT_FOUND when the viewer cannot open the pack. */
  ticket(packId: string, viewer: NonNullable<Viewer>): Promise<{ url: string }>
  /**
   * Discord's authorize page for a ticket, or why the ticket is no good (expired, another pack's, forged).
   * `redirectUri`: `<PUBLIC_URL>/api/discord/callback` (the request's origin without PUBLIC_URL), as registered with the app.
   */
  authorizeUrl(packId: string, ticket: string, redirectUri: string): { url: string } | { problem: 'expired' | 'unknown' }
  /** Discord's redirect back: the state checked, the code exchanged (with the same redirect), a job made. */
  callback(query: { code?: string; state?: string; guildId?: string; error?: string }, redirectUri: string): Promise<DiscordCallbackOutcome>
  /** A job as its starter sees it; NOT_FOUND for anyone else. */
  view(jobId: string, email: string): Promise<DiscordUploadView>
  start(): void
  close(): Promise<void>
}

export interface DiscordUploadServiceDeps {
  store: Store
  logger: Logger
  api: DiscordApi
  packs: Pick<PackService, 'detail'>
  clientId: string
  authorizeUrl: string
  /** Signs tickets (derived from the session secret). */
  secret: string
  leaseMs?: number
  pollMs?: number
  retryMs?: number
  /** How long a job waits for stickers whose Discord files the gallery is still making (default 10 minutes). */
  filesWaitMs?: number
  now?: () => number
}

class LeaseLost extends Error {}
/** Some of the pack's Discord files are still being made: the job comes back for them. */
class FilesNotReady extends Error {}

/** Unreachable answers in a row before a job fails. */
const UNREACHABLE_MAX = 5

interface Ticket {
  a: string
  p: string
  e: number
  n: string
}

export function createDiscordUploadService({
  store,
  logger,
  api,
  packs,
  clientId,
  authorizeUrl,
  secret,
  leaseMs = 120_000,
  pollMs = 30_000,
  retryMs = 30_000,
  filesWaitMs = 10 * 60_000,
  now = Date.now,
}: DiscordUploadServiceDeps): DiscordUploadService {
  const owner = `discord-${randomBytes(6).toString('hex')}`
  const key = createHmac('sha256', secret).update('discord-ticket').digest()
  let running: Promise<void> | undefined
  let again = false
  let closed = false
  let timer: NodeJS.Timeout | undefined
  const unreachable = new Map<string, number>()

  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url')

  function mint(ticket: Ticket): string {
    const body = Buffer.from(JSON.stringify(ticket)).toString('base64url')
    return `${body}.${sign(body)}`
  }

  /** The ticket's content when its signature is ours (expiry not checked). */
  function read(value: string | undefined): Ticket | undefined {
    const [body, mac, extra] = (value ?? '').split('.')
    if (!body || !mac || extra !== undefined) return undefined
    const want = Buffer.from(sign(body))
    const got = Buffer.from(mac)
    if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined
    try {
      const ticket = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Ticket
      return typeof ticket.a === 'string' && typeof ticket.p === 'string' && typeof ticket.e === 'number' ? ticket : undefined
    } catch {
      return undefined
    }
  }

  function kick(): void {
    if (closed) return
    if (running) {
      again = true
      return
    }
    running = drain()
      .catch((error: unknown) => logger.error('discord uploads: a run failed', { error: String(error) }))
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
      const job = await store.discordUploads.claim({ owner, leaseMs, now: new Date(now()) })
      if (!job) return
      await work(job)
    }
  }

  async function schedule(): Promise<void> {
    if (closed) return
    clearTimeout(timer)
    let delay = pollMs
    try {
      const next = await store.discordUploads.nextRetry()
      if (next) delay = Math.min(delay, Math.max(0, next.getTime() - now()))
    } catch (error) {
      logger.error('discord uploads: the store cannot be read', { error: String(error) })
    }
    if (closed) return
    timer = setTimeout(kick, delay)
    timer.unref()
  }

  async function work(job: DiscordUploadJob): Promise<void> {
    const id = job.record.id
    const at = () => new Date(now())
    try {
      await run(job)
      unreachable.delete(id)
      await store.discordUploads.finish(job, { state: 'done' }, at())
    } catch (error) {
      if (error instanceof LeaseLost) {
        // Stopping: the job is left due at once for the next instance (a no-op when the lease was lost).
        if (closed)
          await store.discordUploads.finish(job, { retryAt: at(), reason: 'Resuming after a server restart', keepsTurn: true }, at())
        return
      }
      if (error instanceof FilesNotReady) {
        // Not the bot's limit: the job gives up its turn while the gallery renders.
        const reason = 'Waiting for the gallery to finish some of the pack’s Discord files'
        await store.discordUploads.finish(job, { retryAt: new Date(now() + retryMs), reason, keepsTurn: false }, at())
        return
      }
      if (error instanceof DiscordRetryError) {
        const seconds = error.retryAfterSeconds
        const reason = `Discord asked the bot to wait ${Math.ceil(seconds)} s${error.global ? ' (for all servers)' : ''}`
        // The bot's limit, whoever asked: the job keeps its turn and every job waits.
        await store.discordUploads.finish(job, { retryAt: new Date(now() + Math.ceil(seconds * 1000)), reason, keepsTurn: true }, at())
        return
      }
      const transient = error instanceof DiscordApiError ? error.status === 0 || error.status >= 500 : !(error instanceof JobError)
      const times = (unreachable.get(id) ?? 0) + 1
      if (transient && times < UNREACHABLE_MAX) {
        unreachable.set(id, times)
        if (!(error instanceof DiscordApiError)) logger.error('discord uploads: a run stopped', { job: id, error: String(error) })
        await store.discordUploads.finish(
          job,
          // Backing off gives up the turn: other ready jobs run meanwhile.
          { retryAt: new Date(now() + retryMs * times), reason: `${reasonOf(error)}; trying again`, keepsTurn: false },
          at(),
        )
        return
      }
      unreachable.delete(id)
      logger.info('discord uploads: a job failed', { job: id, reason: reasonOf(error) })
      await store.discordUploads.finish(job, { state: 'failed', reason: reasonOf(error) }, at())
    }
  }

  interface Wanted {
    wumpusId: string
    kind: DiscordItemKind
    name: string
    file?: { id: string; filename: string }
    tags: string
    /** Why there is nothing to send, when there is no file. */
    missing?: string
    /** No file yet because the gallery has not rendered the animation's current Lottie yet. */
    making?: boolean
  }

  /** The pack's stickers and emoji, in its order, named as Discord takes them (unique within the pack). */
  function wantedOf(records: WumpusRecord[]): { stickers: Wanted[]; emoji: Wanted[] } {
    const lists = { sticker: [] as Wanted[], emoji: [] as Wanted[] }
    for (const record of records) {
      const derived = currentDerived(record)
      for (const kind of ['sticker', 'emoji'] as const) {
        const made = derived?.exports.find((e) => e.platform === (kind === 'sticker' ? 'discord' : 'discord-emoji'))
        // Emoji files where they exist (or may, once rendered); a sticker without its file is reported.
        if (kind === 'emoji' && derived && !made?.file) continue
        lists[kind].push({
          wumpusId: record._id,
          kind,
          name: kind === 'sticker' ? stickerName(record.name) : emojiName(record.name),
          tags: stickerTags(record),
          ...(made?.file ? { file: { id: made.file.id, filename: made.file.filename } } : {}),
          ...(made?.file
            ? {}
            : {
                missing: derived
                  ? `It has no Discord sticker file: ${made?.notes.join('; ') || 'none could be made'}`
                  : 'Its Discord file was not made in time: add the pack again later',
                making: !derived,
              }),
        })
      }
    }
    const named = (list: Wanted[], kind: DiscordItemKind) => {
      const names = uniqueNames(
        list.map((w) => w.name),
        kind,
      )
      return list.map((w, i) => ({ ...w, name: names[i]! }))
    }
    return { stickers: named(lists.sticker, 'sticker'), emoji: named(lists.emoji, 'emoji') }
  }

  async function run(job: DiscordUploadJob): Promise<void> {
    const { record } = job
    const progress: DiscordUploadProgress = {
      ...(record.tier !== undefined ? { tier: record.tier } : {}),
      uploaded: [...record.uploaded],
      notFitted: [...record.notFitted],
      ...(record.pending ? { pending: record.pending } : {}),
    }
    const hold = async () => {
      if (closed) throw new LeaseLost()
      if (job.leaseUntil.getTime() - now() < leaseMs / 2) {
        const until = new Date(now() + leaseMs)
        if (!(await store.discordUploads.renew(job, until))) throw new LeaseLost()
        job.leaseUntil = until
      }
    }
    const save = async () => {
      if (!(await store.discordUploads.save(job, progress, new Date(now())))) throw new LeaseLost()
    }

    const pack = await store.packs.get(record.packId)
    if (!pack) throw new JobError('The pack was deleted before its stickers were uploaded')
    const records = (await Promise.all(pack.wumpusIds.map((id) => store.wumpuses.get(id)))).filter(
      (w): w is WumpusRecord => w !== undefined && !w.hidden,
    )
    const { stickers, emoji } = wantedOf(records)

    await hold()
    const guild = await api.getGuild(record.guildId)
    progress.tier = guild.premium_tier
    await hold()
    const onServer = { sticker: await api.listStickers(record.guildId), emoji: [] as DiscordExpression[] }
    if (emoji.length > 0) {
      await hold()
      onServer.emoji = await api.listEmojis(record.guildId)
    }
    await save()

    const done = (w: Wanted) =>
      progress.uploaded.some((u) => u.wumpusId === w.wumpusId && u.kind === w.kind) ||
      progress.notFitted.some((n) => n.wumpusId === w.wumpusId && n.kind === w.kind)
    const notFit = (w: Wanted, reason: string) => progress.notFitted.push({ wumpusId: w.wumpusId, kind: w.kind, name: w.name, reason })

    // Files still being made are waited for (a while), keeping the pack's order: what comes after one waits too.
    const mayWait = now() - record.createdAt.getTime() < filesWaitMs
    const waitingFor = new Set<DiscordItemKind>()
    for (const w of [...stickers, ...emoji]) {
      if (done(w)) continue
      if (waitingFor.has(w.kind) || (mayWait && w.making)) {
        waitingFor.add(w.kind)
        continue
      }
      // Emoji go only where their files were made.
      if (w.kind === 'emoji' && !w.file) continue
      const there = onServer[w.kind]
      // Emoji files are GIFs: animated ones, counted apart from static emoji.
      const counted = w.kind === 'sticker' ? there : there.filter((e) => e.animated)
      const slots = w.kind === 'sticker' ? stickerSlots(guild.premium_tier) : emojiSlots(guild.premium_tier)
      const same = there.find((e) => e.name.toLowerCase() === w.name.toLowerCase())
      const pending = progress.pending
      if (same && pending && pending.wumpusId === w.wumpusId && pending.kind === w.kind && pending.name === w.name) {
        // Sent by a run that stopped before recording it: there, not sent again.
        progress.uploaded.push({ wumpusId: w.wumpusId, kind: w.kind, name: w.name, discordId: same.id, bytes: 0 })
        delete progress.pending
        await save()
        continue
      }
      if (same) notFit(w, `The server already has ${w.kind === 'sticker' ? 'a sticker' : 'an emoji'} named “${same.name}”`)
      else if (!w.file) notFit(w, w.missing ?? 'It has no Discord file')
      else if (counted.length >= slots) notFit(w, noSlotReason(w.kind, counted.length, slots, guild.premium_tier))
      else {
        const file = await store.files.read(w.file.id)
        if (!file) {
          notFit(w, 'Its Discord file is gone from the gallery')
        } else {
          progress.pending = { wumpusId: w.wumpusId, kind: w.kind, name: w.name }
          await save()
          await hold()
          try {
            const made =
              w.kind === 'sticker'
                ? await api.createSticker(record.guildId, {
                    name: w.name,
                    description: `From the Wumpus Gallery pack “${pack.name}”`.slice(0, 100),
                    tags: w.tags,
                    bytes: file.bytes,
                    contentType: 'image/png',
                    filename: w.file.filename,
                  })
                : await api.createEmoji(record.guildId, { name: w.name, bytes: file.bytes, contentType: 'image/gif' })
            there.push({ id: made.id, name: w.name, animated: w.kind === 'emoji' })
            progress.uploaded.push({ wumpusId: w.wumpusId, kind: w.kind, name: w.name, discordId: made.id, bytes: file.bytes.length })
          } catch (error) {
            if (!(error instanceof DiscordApiError) || error instanceof DiscordRetryError || !refusesOnlyThis(error)) {
              throw error
            }
            notFit(w, reasonOf(error))
            // Full after all (slots used by others meanwhile): the rest finds none either.
            if ([30039, 30008, 30018].includes(error.code)) while (counted.length < slots) counted.push({ id: '', name: '' })
          }
          delete progress.pending
        }
      }
      await save()
    }
    if (waitingFor.size > 0) throw new FilesNotReady()
  }

  return {
    async ticket(packId, viewer) {
      await packs.detail(packId, viewer)
      const ticket = mint({ a: viewer.email, p: packId, e: now() + TICKET_TTL_MS, n: randomBytes(12).toString('base64url') })
      return { url: `/api/packs/${encodeURIComponent(packId)}/discord?ticket=${encodeURIComponent(ticket)}` }
    },

    authorizeUrl(packId, value, redirectUri) {
      const ticket = read(value)
      if (!ticket || ticket.p !== packId) return { problem: 'unknown' }
      if (ticket.e <= now()) return { problem: 'expired' }
      const url = new URL(authorizeUrl)
      url.searchParams.set('client_id', clientId)
      url.searchParams.set('scope', 'bot')
      url.searchParams.set('permissions', EXPRESSIONS_PERMISSIONS)
      url.searchParams.set('response_type', 'code')
      url.searchParams.set('redirect_uri', redirectUri)
      url.searchParams.set('state', value)
      return { url: url.href }
    },

    async callback({ code, state, guildId, error }, redirectUri) {
      const ticket = read(state)
      const packId = ticket?.p
      if (error) return { ...(packId ? { packId } : {}), problem: 'denied' }
      if (!ticket) return { problem: 'unknown' }
      if (ticket.e <= now()) return { packId: ticket.p, problem: 'expired' }
      if (!code) return { packId: ticket.p, problem: 'refused' }
      const stateHash = createHash('sha256').update(state!).digest('hex')
      // Used already (a reload of this page): Discord's code is left unspent.
      if (await store.discordUploads.hasState(stateHash)) return { packId: ticket.p, problem: 'used' }
      let exchanged: { guildId?: string }
      try {
        exchanged = await api.exchangeCode(code, redirectUri)
      } catch (failure) {
        logger.info('discord uploads: a code exchange was refused', { reason: reasonOf(failure) })
        return { packId: ticket.p, problem: 'refused' }
      }
      const guild = exchanged.guildId ?? guildId
      if (!guild || !/^\d{1,25}$/.test(guild)) return { packId: ticket.p, problem: 'no-server' }
      const job = await store.discordUploads.create({
        id: newId(),
        stateHash,
        account: ticket.a,
        packId: ticket.p,
        guildId: guild,
        now: new Date(now()),
      })
      if (!job) return { packId: ticket.p, problem: 'used' }
      kick()
      return { packId: ticket.p, jobId: job.id }
    },

    async view(jobId, email) {
      const record = await store.discordUploads.get(jobId)
      if (!record || record.account !== email) throw notFound('No Discord upload with this id')
      return {
        id: record.id,
        packId: record.packId,
        state: record.state,
        ...(record.reason ? { reason: record.reason } : {}),
        ...(record.tier !== undefined ? { stickerSlots: stickerSlots(record.tier) } : {}),
        uploaded: record.uploaded.map(({ wumpusId, kind, name }) => ({ wumpusId, kind, name })),
        notFitted: record.notFitted,
      }
    },

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

/** A run that cannot go on, with a reason for the person. */
class JobError extends Error {}

/** Discord refused this one item (its file, its name, a full server), not the whole job. */
function refusesOnlyThis(error: DiscordApiError): boolean {
  return [30039, 30008, 30018, 50035, 50045, 50046, 50138].includes(error.code)
}

/** Why a run stopped or an item was refused, in words for the pack's page (never a secret). */
export function reasonOf(error: unknown): string {
  if (error instanceof JobError) return error.message
  if (!(error instanceof DiscordApiError)) return 'The upload stopped: something went wrong on the server'
  const { status, code, description } = error
  if (status === 0) return `Discord cannot be reached (${description})`
  if (status === 401) return 'Discord refused the bot’s token: the server’s DISCORD_BOT_TOKEN needs checking'
  if (code === 50013)
    return 'The bot may not add stickers or emoji on this server (Missing Permissions): add it again with the Manage Expressions permission'
  if (code === 10004) return 'The bot is not on this server any more'
  if (code === 30039) return `The server’s sticker slots are full (Discord: ${description})`
  if (code === 30008 || code === 30018) return `The server’s emoji slots are full (Discord: ${description})`
  if (code === 50045 || code === 50046 || code === 50138) return `Discord refused the file (${description})`
  if (code === 50035) return `Discord refused it (${description})`
  if (status >= 500) return `Discord failed to answer (${status})`
  return `Discord refused ${error.call}: ${description}`
}

import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { notFound } from '../domain/errors'
import { createLogger, type Logger } from '../logger'
import { openMongoStore } from '../store/mongo/open-mongo-store'
import type { Store } from '../store/port'
import { startMongoWireServer } from '../../test/support/mongo-wire-server'
import { openTempStore } from '../../test/support/temp-store'
import { startDiscordStandIn, type DiscordStandIn } from '../../test/support/discord-api'
import { addDiscordSticker, addDiscordStickers, addPack, giveDiscordFiles } from '../../test/support/discord-stickers'
import { addWumpus } from '../../test/support/test-server'
import { createDiscordApi } from './discord-api'
import { createDiscordUploadService, TICKET_TTL_MS, type DiscordUploadService } from './discord-uploads'

const STORES: Array<[string, () => Promise<{ store: Store; close: () => Promise<void> }>]> = [
  ['SQLite', () => openTempStore('wumpus-discord-')],
  [
    'MongoDB',
    async () => {
      const wire = await startMongoWireServer()
      const store = await openMongoStore({ uri: wire.uri, dbName: `wumpus_discord_${randomBytes(4).toString('hex')}` })
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

const ANN = { email: 'ann@example.com', role: 'user' as const }
const REDIRECT = 'https://stickers.example.com/api/discord/callback'
const GUILD = '81384788765712384'

describe.each(STORES)('Discord uploads on %s', (_, open) => {
  let temp: { store: Store; close: () => Promise<void> }
  let discord: DiscordStandIn
  const services: DiscordUploadService[] = []
  const logged: string[] = []

  beforeAll(async () => {
    temp = await open()
  })
  afterAll(() => temp.close())
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()))
    await discord?.close()
  })

  function keepingLogger(): Logger {
    const base = createLogger('silent')
    const keep = (level: string) => (message: string, fields?: Record<string, unknown>) =>
      logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`)
    return { ...base, info: keep('info'), error: keep('error'), debug: keep('debug') }
  }

  async function standIn(options: Parameters<typeof startDiscordStandIn>[0] = {}) {
    discord = await startDiscordStandIn({ guilds: [{ id: GUILD, premium_tier: 0 }], ...options })
    return discord
  }

  function service(options: { leaseMs?: number; retryMs?: number; filesWaitMs?: number; now?: () => number } = {}): DiscordUploadService {
    const made = createDiscordUploadService({
      store: temp.store,
      logger: keepingLogger(),
      api: createDiscordApi({
        baseUrl: discord.apiUrl,
        botToken: discord.botToken,
        clientId: discord.clientId,
        clientSecret: discord.clientSecret,
      }),
      packs: {
        detail: async (id) => {
          if (!(await temp.store.packs.get(id))) throw notFound('No pack with this id')
          return {} as never
        },
      },
      clientId: discord.clientId,
      authorizeUrl: discord.authorizeUrl,
      secret: 'a session signing secret of enough length',
      pollMs: 50,
      retryMs: 50,
      ...options,
    })
    services.push(made)
    made.start()
    return made
  }

  /** The person's way through: a ticket, Discord's authorize page (which picks the server), the callback. */
  async function addToDiscord(uploads: DiscordUploadService, packId: string) {
    const { url } = await uploads.ticket(packId, ANN)
    const ticket = new URL(url, 'https://x').searchParams.get('ticket')!
    const authorize = uploads.authorizeUrl(packId, ticket, REDIRECT)
    if (!('url' in authorize)) throw new Error(authorize.problem)
    const back = await fetch(authorize.url, { redirect: 'manual' })
    expect(back.status).toBe(302)
    const query = new URL(back.headers.get('location')!).searchParams
    expect(back.headers.get('location')).toMatch(new RegExp(`^${REDIRECT}\\?`))
    return {
      ticket,
      query,
      outcome: await uploads.callback({ code: query.get('code')!, state: query.get('state')!, guildId: query.get('guild_id')! }, REDIRECT),
    }
  }

  const finished = async (jobId: string) =>
    vi.waitFor(
      async () => {
        const job = await temp.store.discordUploads.get(jobId)
        expect(job?.state === 'done' || job?.state === 'failed').toBe(true)
        return job!
      },
      { timeout: 20_000, interval: 20 },
    )

  it('fills a tier-0 server with the first 5 of a 30-sticker pack through 429s, and says why the rest did not fit', async () => {
    await standIn({ rateLimit: { every: 4, retryAfter: 0.05 } })
    const records = await addDiscordStickers(temp.store, 30, 'Thirty')
    const pack = await addPack(temp.store, 'Thirty Wumpuses', records)
    const uploads = service()

    const { query, outcome } = await addToDiscord(uploads, pack.id)
    const sent = discord.authorizations.at(-1)!
    expect(Object.fromEntries(sent)).toMatchObject({
      client_id: discord.clientId,
      scope: 'bot',
      permissions: String(2 ** 43 + 2 ** 30),
      response_type: 'code',
      redirect_uri: REDIRECT,
    })
    expect(query.get('state')).toBe(sent.get('state'))
    expect(outcome).toEqual({ packId: pack.id, jobId: expect.stringMatching(/^[0-9a-f]{24}$/) })
    const jobId = (outcome as { jobId: string }).jobId

    const job = await finished(jobId)
    expect(job.state).toBe('done')
    const guild = discord.guilds.get(GUILD)!
    expect(guild.stickers.map((s) => s.name)).toEqual(['Thirty 1', 'Thirty 2', 'Thirty 3', 'Thirty 4', 'Thirty 5'])
    expect(
      guild.stickers.every((s) => s.tags === 'slight_smile' && s.description === 'From the Wumpus Gallery pack “Thirty Wumpuses”'),
    ).toBe(true)
    // The stand-in answered 429 along the way, and nothing was sent twice.
    expect(discord.calls.some((call) => call.status === 429)).toBe(true)
    expect(discord.calls.filter((call) => call.method === 'POST' && call.path.endsWith('/stickers') && call.status === 200)).toHaveLength(5)

    const view = await uploads.view(jobId, ANN.email)
    expect(view).toMatchObject({ id: jobId, packId: pack.id, state: 'done', stickerSlots: 5 })
    expect(view.uploaded.map((u) => u.name)).toEqual(guild.stickers.map((s) => s.name))
    expect(view.notFitted).toHaveLength(25)
    expect(view.notFitted[0]).toEqual({
      wumpusId: records[5]!._id,
      kind: 'sticker',
      name: 'Thirty 6',
      reason: 'No sticker slot left: the server holds 5 of 5 (boost level 0)',
    })
    await expect(uploads.view(jobId, 'bob@example.com')).rejects.toMatchObject({ kind: 'not-found' })
    // Secrets stay out of the logs.
    expect(logged.join('\n')).not.toContain(discord.botToken)
    expect(logged.join('\n')).not.toContain(discord.clientSecret)
  })

  it('takes each state once, and refuses forged, expired and refused ones', async () => {
    await standIn()
    const pack = await addPack(temp.store, 'Once', [await addDiscordSticker(temp.store, 'Once')])
    let clock = Date.now()
    const uploads = service({ now: () => clock })
    const { ticket, query, outcome } = await addToDiscord(uploads, pack.id)
    expect(outcome).toHaveProperty('jobId')
    expect(await finished((outcome as { jobId: string }).jobId)).toMatchObject({ state: 'done' })
    // The same state again, with a fresh code from Discord.
    const again = await fetch((uploads.authorizeUrl(pack.id, ticket, REDIRECT) as { url: string }).url, { redirect: 'manual' })
    const code = new URL(again.headers.get('location')!).searchParams.get('code')!
    expect(await uploads.callback({ code, state: query.get('state')!, guildId: GUILD }, REDIRECT)).toEqual({
      packId: pack.id,
      problem: 'used',
    })
    expect(await uploads.callback({ code: 'x', state: `${ticket}x`, guildId: GUILD }, REDIRECT)).toEqual({ problem: 'unknown' })
    expect(await uploads.callback({ error: 'access_denied', state: ticket }, REDIRECT)).toEqual({ packId: pack.id, problem: 'denied' })
    expect(uploads.authorizeUrl('b'.repeat(24), ticket, REDIRECT)).toEqual({ problem: 'unknown' })
    clock += TICKET_TTL_MS
    expect(uploads.authorizeUrl(pack.id, ticket, REDIRECT)).toEqual({ problem: 'expired' })
    expect(await uploads.callback({ code, state: ticket, guildId: GUILD }, REDIRECT)).toEqual({ packId: pack.id, problem: 'expired' })
    await expect(uploads.ticket('c'.repeat(24), ANN)).rejects.toMatchObject({ kind: 'not-found' })
  })

  it('uploads emoji beside the stickers, and a sticker sent before a crash is found by its name, not sent again', async () => {
    await standIn()
    const records = await addDiscordStickers(temp.store, 3, 'Crash', { emojiFile: true })
    const pack = await addPack(temp.store, 'Crash', records)
    // A run that sent "Crash 1" and stopped before recording it: its lease ran out.
    const made = (await temp.store.discordUploads.create({
      id: 'e'.repeat(24),
      stateHash: randomBytes(8).toString('hex'),
      account: ANN.email,
      packId: pack.id,
      guildId: GUILD,
      now: new Date(0),
    }))!
    const dead = (await temp.store.discordUploads.claim({ owner: 'dead', leaseMs: 1, now: new Date(0) }))!
    expect(dead.record.id).toBe(made.id)
    await temp.store.discordUploads.save(
      dead,
      { uploaded: [], notFitted: [], pending: { wumpusId: records[0]!._id, kind: 'sticker', name: 'Crash 1' } },
      new Date(0),
    )
    discord.guilds.get(GUILD)!.stickers.push({ id: '1', name: 'Crash 1', bytes: 100 })

    service()
    const job = await finished(made.id)
    expect(job.state).toBe('done')
    const guild = discord.guilds.get(GUILD)!
    expect(guild.stickers.map((s) => s.name)).toEqual(['Crash 1', 'Crash 2', 'Crash 3'])
    expect(guild.emojis.map((e) => [e.name, e.animated])).toEqual([
      ['Crash_1', true],
      ['Crash_2', true],
      ['Crash_3', true],
    ])
    expect(job.uploaded.find((u) => u.name === 'Crash 1')).toMatchObject({ discordId: '1', bytes: 0 })
    expect(job.pending).toBeUndefined()
  })

  it('runs a second job while the first backs off from a Discord failing for its server, then the first', async () => {
    const OTHER = '81384788765712385'
    await standIn({ guilds: [{ id: GUILD, failing: true }, { id: OTHER }] })
    const pack = await addPack(temp.store, 'Patient', [await addDiscordSticker(temp.store, 'Patient')])
    // A minute between tries: the first job is still backing off when the second is done.
    const uploads = service({ retryMs: 60_000 })
    const first = (await addToDiscord(uploads, pack.id)).outcome as { jobId: string }
    await vi.waitFor(
      async () =>
        expect(await temp.store.discordUploads.get(first.jobId)).toMatchObject({
          state: 'waiting',
          reason: expect.stringContaining('trying again'),
        }),
      { timeout: 20_000, interval: 20 },
    )
    discord.pick = OTHER
    const second = (await addToDiscord(uploads, pack.id)).outcome as { jobId: string }
    expect(await finished(second.jobId)).toMatchObject({ state: 'done', uploaded: [{ name: 'Patient' }] })
    expect(await temp.store.discordUploads.get(first.jobId)).toMatchObject({ state: 'waiting' })
    expect(discord.guilds.get(OTHER)!.stickers.map((s) => s.name)).toEqual(['Patient'])
    // Discord answers again: the first job, tried again (the clock moved past its retry time), is done too.
    discord.guilds.get(GUILD)!.failing = false
    await services.pop()!.close()
    service({ retryMs: 60_000, now: () => Date.now() + 120_000 })
    expect(await finished(first.jobId)).toMatchObject({ state: 'done', uploaded: [{ name: 'Patient' }] })
  })

  it('runs a job backing off, once its retry time has passed, before a job made after that time', async () => {
    const OTHER = '81384788765712385'
    await standIn({ guilds: [{ id: GUILD, failing: true }, { id: OTHER }] })
    const pack = await addPack(temp.store, 'Turns', [await addDiscordSticker(temp.store, 'Turns')])
    let clock = Date.now()
    const uploads = service({ retryMs: 60_000, now: () => clock })
    const first = (await addToDiscord(uploads, pack.id)).outcome as { jobId: string }
    await vi.waitFor(
      async () =>
        expect(await temp.store.discordUploads.get(first.jobId)).toMatchObject({
          state: 'waiting',
          reason: expect.stringContaining('trying again'),
        }),
      { timeout: 20_000, interval: 20 },
    )
    // Discord answers again, and the first job's retry time passes; then a second job is made.
    discord.guilds.get(GUILD)!.failing = false
    clock += 120_000
    discord.pick = OTHER
    const second = (await addToDiscord(uploads, pack.id)).outcome as { jobId: string }
    expect(await finished(second.jobId)).toMatchObject({ state: 'done' })
    expect(await finished(first.jobId)).toMatchObject({ state: 'done' })
    // The first job, ready since its retry time, went first.
    const stickerPosts = discord.calls.filter((call) => call.method === 'POST' && call.path.endsWith('/stickers') && call.status === 200)
    expect(stickerPosts.map((call) => call.path)).toEqual([`/api/v10/guilds/${GUILD}/stickers`, `/api/v10/guilds/${OTHER}/stickers`])
  })

  it('waits for a sticker whose Discord file is still being made, then uploads it in the pack’s order', async () => {
    await standIn()
    const ready = await addDiscordSticker(temp.store, 'Ready')
    const rendering = await addWumpus(temp.store, { name: 'Rendering' })
    const after = await addDiscordSticker(temp.store, 'After')
    const pack = await addPack(temp.store, 'Unfinished', [ready, rendering, after])
    const { outcome } = await addToDiscord(service(), pack.id)
    const jobId = (outcome as { jobId: string }).jobId
    // It uploads what comes before the sticker being made, then waits for it rather than listing it as not fitted.
    await vi.waitFor(
      async () =>
        expect(await temp.store.discordUploads.get(jobId)).toMatchObject({
          state: 'waiting',
          reason: expect.stringContaining('Waiting for the gallery'),
          uploaded: [{ name: 'Ready' }],
          notFitted: [],
        }),
      { timeout: 20_000, interval: 20 },
    )
    expect(discord.guilds.get(GUILD)!.stickers.map((s) => s.name)).toEqual(['Ready'])
    // The render finishes: the job goes on, in the pack's order.
    await giveDiscordFiles(temp.store, rendering)
    expect(await finished(jobId)).toMatchObject({ state: 'done', notFitted: [] })
    expect(discord.guilds.get(GUILD)!.stickers.map((s) => s.name)).toEqual(['Ready', 'Rendering', 'After'])
  })

  it('lists a sticker still being made as not fitted once the job has waited long enough', async () => {
    await standIn()
    const pack = await addPack(temp.store, 'Never rendered', [await addWumpus(temp.store, { name: 'Slow' })])
    const { outcome } = await addToDiscord(service({ filesWaitMs: 0 }), pack.id)
    expect(await finished((outcome as { jobId: string }).jobId)).toMatchObject({
      state: 'done',
      notFitted: [{ name: 'Slow', reason: 'Its Discord file was not made in time: add the pack again later' }],
    })
  })

  it('tags a sticker with the Discord name of its emoji, which Discord takes', async () => {
    await standIn()
    const waving = await addDiscordSticker(temp.store, 'Waving', { emoji: [{ char: '👋', name: 'waving hand' }] })
    const pack = await addPack(temp.store, 'Tagged', [waving])
    const { outcome } = await addToDiscord(service(), pack.id)
    expect(await finished((outcome as { jobId: string }).jobId)).toMatchObject({ state: 'done', notFitted: [] })
    expect(discord.guilds.get(GUILD)!.stickers.map((s) => [s.name, s.tags])).toEqual([['Waving', 'wave']])
  })

  it('fails with a reason a person can read when the bot may not add stickers', async () => {
    await standIn({ guilds: [{ id: GUILD, botPermitted: false }] })
    const pack = await addPack(temp.store, 'Denied', [await addDiscordSticker(temp.store, 'Denied')])
    const { outcome } = await addToDiscord(service(), pack.id)
    const job = await finished((outcome as { jobId: string }).jobId)
    expect(job).toMatchObject({ state: 'failed', reason: expect.stringContaining('Missing Permissions') })
  })
})

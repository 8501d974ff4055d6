import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { REMIXES_MAX } from '../../../contract/limits'
import type { RemixVisibility } from '../../../contract/remix/remix-api'
import type { Platform } from '../../../contract/stickers'
import { sessionKey, signSessionToken } from '../../src/auth/session-token'
import { hardenServer } from '../../src/http/node-server'
import { createApp } from '../../src/app'
import { createRouteDeps, type AppDeps } from '../../src/composition'
import { loadConfig, type Config } from '../../src/config'
import { createLogger, type Logger } from '../../src/logger'
import type { ColourSlotService } from '../../src/services/colour-slots'
import type { DownloadCounter } from '../../src/services/download-counts'
import { createDerivedMediaService, type DerivedMediaService } from '../../src/services/derived-media'
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store'
import type { FileRef, NewPack, NewWumpus, Store, WumpusRecord } from '../../src/store/port'

export interface TestServer {
  url: string
  /** A valid session token of ours for this email (and its session on the server), as the sign-in exchange would give out. */
  sessionToken(email: string, options?: { name?: string; emailVerified?: boolean; ttlSeconds?: number }): Promise<string>
  store: Store
  config: Config
  /** The app's download counter: flush() stores what it counted so far. */
  downloads: DownloadCounter
  dataDir: string
  /** How many connections the server holds open now. */
  connections(): Promise<number>
  /** Makes previews and exports only when the server was started with `deriveMedia: true`. */
  derivedMedia: DerivedMediaService
  /** Reads and stores the originals' colour slots (in the render worker) after each publish and Lottie edit. */
  colourSlots: ColourSlotService
  /** A request to the API as a client sends it: a bearer token when given, a body as JSON (FormData as it is). */
  call(method: string, path: string, token?: string, body?: unknown): Promise<Response>
  close(): Promise<void>
}

export interface TestServerOptions {
  /**
   * Make card previews and platform exports after publishing, in the real render worker (slow: only
   * for tests that look at them; elsewhere animations simply stay without them).
   */
  deriveMedia?: boolean
  /** A data folder to use (it is emptied when the server closes); default: a new temp folder. */
  dataDir?: string
  /** The sessions' clock (ms since the epoch), for tests that let time pass; default Date.now. */
  now?: () => number
  /** Where the server logs; default: a logger at the config's LOG_LEVEL (silent unless given). */
  logger?: Logger
  /** Revokes a Firebase account's sign-ins (tests where Firebase fails); default: firebase-admin on the emulator. */
  revokeSignIns?: (uid: string) => Promise<void>
  /** Telegram set runs' lease, look and retry times (with TELEGRAM_* settings). */
  telegramTimes?: AppDeps['telegramTimes']
  /** The Telegram link poller's times (issue 36); it polls when TELEGRAM_BOT_TOKEN is set without TELEGRAM_WEBHOOK_SECRET. */
  telegramLinkTimes?: AppDeps['telegramLinkTimes']
  /** Discord upload jobs' lease, look and retry times (with DISCORD_* settings). */
  discordTimes?: AppDeps['discordTimes']
}

/**
 * The real Koa app on a real SQLite store in a temp folder, listening on a free port. Rate limits
 * are lifted (tests sign in and upload far more often than people) unless RATE_LIMIT_FACTOR is given.
 */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'wumpus-test-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'static'),
    // No server-rendering build unless a test puts one there.
    SSR_DIR: path.join(dataDir, 'ssr'),
    LOG_LEVEL: 'silent',
    FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
    RATE_LIMIT_FACTOR: '1000',
    BACKUP_DIR: path.join(dataDir, 'backups'),
    ...env,
  })
  const store = await openSqliteStore({ dataDir })
  const logger = options.logger ?? createLogger(config.logLevel)
  const derivedMedia = createDerivedMediaService({ store, logger, enabled: options.deriveMedia ?? false })
  const deps = createRouteDeps({
    config,
    store,
    logger,
    derivedMedia,
    now: options.now,
    revokeSignIns: options.revokeSignIns,
    telegramTimes: options.telegramTimes,
    telegramLinkTimes: options.telegramLinkTimes,
    discordTimes: options.discordTimes,
  })
  deps.telegram?.start()
  if (!config.telegram?.webhookSecret) deps.telegramLinks?.start()
  deps.discord?.start()
  const { downloads, colourSlots } = deps
  const server = hardenServer(createApp(deps).listen(0, '127.0.0.1'))
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  const key = sessionKey(config.jwtSecret)
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    call: (method, path, token, body) =>
      fetch(url + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      }),
    async sessionToken(email, options = {}) {
      const session = await store.sessions.create({ email, uid: `uid-of-${email}`, expiresAt: new Date(Date.now() + 3600_000) })
      const exp = Math.floor(Date.now() / 1000) + (options.ttlSeconds ?? 600)
      return signSessionToken(
        { sid: session.id, email, name: options.name ?? email.split('@')[0]!, emailVerified: options.emailVerified ?? true, exp },
        key,
      )
    },
    store,
    config,
    downloads,
    dataDir,
    derivedMedia,
    colourSlots,
    connections: () => new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await downloads.close()
      await derivedMedia.close()
      await colourSlots.close()
      await deps.telegram?.close()
      await deps.telegramLinks?.close()
      await deps.discord?.close()
      await store.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Stores three small placeholder files and a record pointing at them. */
export async function addWumpus(store: Store, fields: Partial<NewWumpus> = {}): Promise<WumpusRecord> {
  return store.wumpuses.insert({ ...(await addWumpusFields(store)), ...fields })
}

/** The fields of a test animation, with placeholder files of its own. */
async function addWumpusFields(store: Store): Promise<NewWumpus> {
  const put = async (filename: string, contentType: string, text: string): Promise<FileRef> => {
    const info = await store.files.put({ bytes: new TextEncoder().encode(text), contentType, filename })
    return { id: info.id, filename: info.filename }
  }
  return {
    name: 'Test Wumpus',
    description: 'A test animation for the gallery',
    u_email: 'maker@example.com',
    u_name: 'Maker',
    files: {
      gif: await put('test.gif', 'image/gif', 'GIF89a'),
      apng: await put('test.png', 'image/apng', 'PNG'),
      lottie: await put('test.json', 'application/json', '{}'),
    },
  }
}

/** A remix of a new original (placeholder files), `owner`'s and shared as `visibility` says. */
export async function addRemix(
  store: Store,
  owner: string,
  visibility: RemixVisibility,
  fields: Partial<NewWumpus> = {},
): Promise<WumpusRecord> {
  const original = await addWumpus(store)
  const made = await store.wumpuses.insertRemix(
    {
      ...(await addWumpusFields(store)),
      u_email: owner,
      u_name: 'Remix Maker',
      ...fields,
      remix: { of: original._id, recipe: {}, source: original.files.lottie.id, visibility },
    },
    { max: REMIXES_MAX },
  )
  if (made === 'full') throw new Error(`${owner} has ${REMIXES_MAX} remixes already`)
  return made
}

/** An animation whose only derived file is one chat app's export of these bytes, with the facts given. */
async function addWumpusWithExport(
  store: Store,
  fields: Partial<NewWumpus>,
  platform: Platform,
  bytes: Uint8Array,
  file: { contentType: string; filename: string; size: number; frames: number; durationMs: number },
): Promise<WumpusRecord> {
  const record = await addWumpus(store, fields)
  const info = await store.files.put({ bytes, contentType: file.contentType, filename: file.filename, purpose: 'derived' })
  const exported = {
    id: info.id,
    filename: info.filename,
    contentType: info.contentType,
    bytes: bytes.length,
    width: file.size,
    height: file.size,
    frames: file.frames,
    durationMs: file.durationMs,
  }
  await store.wumpuses.setDerived(record._id, record.files.lottie.id, {
    source: record.files.lottie.id,
    version: 1,
    madeAt: new Date(),
    exports: [{ platform, file: exported, notes: [] }],
  })
  return record
}

/** An animation whose derived files are just a Discord emoji GIF of these bytes (what the custom emoji archives take). */
export function addWumpusWithEmojiGif(store: Store, fields: Partial<NewWumpus>, bytes: Uint8Array): Promise<WumpusRecord> {
  const gif = { contentType: 'image/gif', filename: 'wumpus.discord-emoji.gif', size: 128, frames: 2, durationMs: 200 }
  return addWumpusWithExport(store, fields, 'discord-emoji', bytes, gif)
}

/**
 * A pack of one animation with a Signal export of `signalBytes` (placeholder bytes: the ZIPs are tested in
 * packs.test.ts); an admin's public pack unless `pack` says otherwise.
 */
export async function addPackWithSignalFile(
  store: Store,
  name: string,
  signalBytes: Uint8Array,
  pack: Pick<NewPack, 'visibility' | 'createdBy'> = { createdBy: 'admin@example.com' },
): Promise<string> {
  const apng = { contentType: 'image/apng', filename: 'wumpus.signal.png', size: 512, frames: 30, durationMs: 1000 }
  const record = await addWumpusWithExport(store, { name: `${name} Wumpus` }, 'signal', signalBytes, apng)
  return (await store.packs.insert({ name: `${name} Pack`, description: '', wumpusIds: [record._id], ...pack })).id
}

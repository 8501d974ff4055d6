import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { signSessionToken } from '../../src/auth/session-token'
import { createApp } from '../../src/app'
import { loadConfig, type Config } from '../../src/config'
import { createLogger } from '../../src/logger'
import { DownloadCounter } from '../../src/services/download-counts'
import { openEmbeddedStore } from '../../src/store/embedded'
import type { FileRef, NewWumpus, Store, WumpusRecord } from '../../src/store/port'

export interface TestServer {
  url: string
  /** A valid session token of ours for this email, as the sign-in exchange would give out. */
  sessionToken(email: string, options?: { name?: string; emailVerified?: boolean; ttlSeconds?: number }): string
  store: Store
  config: Config
  /** The app's download counter: flush() stores what it counted so far. */
  downloads: DownloadCounter
  dataDir: string
  close(): Promise<void>
}

/** The real Koa app on a real embedded store in a temp folder, listening on a free port. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-test-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'static'),
    // No server-rendering build unless a test puts one there.
    SSR_DIR: path.join(dataDir, 'ssr'),
    LOG_LEVEL: 'silent',
    FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
    ...env,
  })
  const store = await openEmbeddedStore({ dataDir })
  const logger = createLogger('silent')
  const downloads = new DownloadCounter(store, { logger })
  const server = createApp({ config, store, logger, downloads }).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    sessionToken: (email, options = {}) =>
      signSessionToken(
        { email, name: options.name ?? email.split('@')[0]!, emailVerified: options.emailVerified ?? true },
        config.jwtSecret,
        options.ttlSeconds ?? 600,
      ),
    store,
    config,
    downloads,
    dataDir,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await downloads.close()
      await store.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Stores three small placeholder files and a record pointing at them. */
export async function addWumpus(store: Store, fields: Partial<NewWumpus> = {}): Promise<WumpusRecord> {
  const put = async (filename: string, contentType: string, text: string): Promise<FileRef> => {
    const info = await store.putFile({ bytes: new TextEncoder().encode(text), contentType, filename })
    return { id: info.id, filename: info.filename }
  }
  const name = fields.name ?? 'Test Wumpus'
  return store.insertWumpus({
    name,
    description: 'A test animation for the gallery',
    u_email: 'maker@example.com',
    u_name: 'Maker',
    files: {
      gif: await put('test.gif', 'image/gif', 'GIF89a'),
      apng: await put('test.png', 'image/apng', 'PNG'),
      lottie: await put('test.json', 'application/json', '{}'),
    },
    ...fields,
  })
}

import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { signSessionToken } from '../../src/auth/session-token'
import { createApp } from '../../src/app'
import { loadConfig, type Config } from '../../src/config'
import { createLogger } from '../../src/logger'
import { createDerivedMediaService, type DerivedMediaService } from '../../src/services/derived-media'
import { openEmbeddedStore } from '../../src/store/embedded'
import type { FileRef, NewWumpus, Store, WumpusRecord } from '../../src/store/port'

export interface TestServer {
  url: string
  /** A valid session token of ours for this email, as the sign-in exchange would give out. */
  sessionToken(email: string, options?: { name?: string; emailVerified?: boolean; ttlSeconds?: number }): string
  store: Store
  config: Config
  dataDir: string
  /** Makes previews and exports only when the server was started with `deriveMedia: true`. */
  derivedMedia: DerivedMediaService
  close(): Promise<void>
}

export interface TestServerOptions {
  /**
   * Make card previews and platform exports after publishing, in the real render worker (slow: only
   * for tests that look at them; elsewhere animations simply stay without them).
   */
  deriveMedia?: boolean
}

/** The real Koa app on a real embedded store in a temp folder, listening on a free port. */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-test-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'static'),
    LOG_LEVEL: 'silent',
    FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
    ...env,
  })
  const store = await openEmbeddedStore({ dataDir })
  const logger = createLogger('silent')
  const derivedMedia = createDerivedMediaService({ store, logger, enabled: options.deriveMedia ?? false })
  const server = createApp({ config, store, logger, derivedMedia }).listen(0, '127.0.0.1')
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
    dataDir,
    derivedMedia,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await derivedMedia.close()
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

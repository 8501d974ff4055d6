// The in-process set-up the server benches share: an embedded store in a temporary folder, the config a
// bench runs with (limits lifted: one account here writes far more often than a person would), the real
// app listening on a free port, and session tokens for accounts made on the spot.
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp } from '../../backend/src/app'
import { sessionKey, signSessionToken } from '../../backend/src/auth/session-token'
import type { RouteDeps } from '../../backend/src/routes/route-deps'
import { loadConfig, type Config } from '../../backend/src/config'
import type { Store } from '../../backend/src/store/port'
import { openSqliteStore } from '../../backend/src/store/sqlite/open-sqlite-store'

export interface BenchStore {
  dataDir: string
  store: Store
  config: Config
  /** Closes the store and deletes its folder. */
  remove(): Promise<void>
}

/** A fresh embedded store in `wumpus-bench-<name>-…` and the config over it, with `env` added. */
export async function openBenchStore(name: string, env: Record<string, string> = {}): Promise<BenchStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `wumpus-bench-${name}-`))
  const store = await openSqliteStore({ dataDir })
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'static'),
    SSR_DIR: path.join(dataDir, 'ssr'),
    LOG_LEVEL: 'error',
    RATE_LIMIT_FACTOR: '1000',
    ...env,
  })
  return {
    dataDir,
    store,
    config,
    remove: async () => {
      await store.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The real app on a free port of 127.0.0.1: its base URL, and how to stop it. */
export async function listen(deps: RouteDeps): Promise<{ url: string; close: () => void }> {
  const server = createApp(deps).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

/** A verified account (made or updated now) and a session token for it, valid for an hour. */
export async function sessionTokenFor(bench: BenchStore, email: string, name: string, role?: 'admin'): Promise<string> {
  await bench.store.users.upsert(email, { user_name: name, ...(role ? { role } : {}) })
  const session = await bench.store.sessions.create({ email, uid: email, expiresAt: new Date(Date.now() + 3600_000) })
  const claims = { sid: session.id, email, name, emailVerified: true, exp: Math.floor(Date.now() / 1000) + 3600 }
  return signSessionToken(claims, sessionKey(bench.config.jwtSecret))
}

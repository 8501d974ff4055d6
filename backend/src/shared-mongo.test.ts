import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { userSchema } from '../../contract/user'
import { wumpusListSchema, wumpusSchema } from '../../contract/wumpus'
import { startMongoWireServer, type MongoWireServer } from '../test/support/mongo-wire-server'
import { createApp } from './app'
import { createRouteDeps } from './composition'
import { sessionKey, signSessionToken } from './auth/session-token'
import { loadConfig } from './config'
import { hardenServer } from './http/node-server'
import { RATE_LIMITS } from './http/rate-limit'
import { createLogger } from './logger'
import { buildGif } from '../test/fixtures/gif'
import { lottieBytes } from '../test/fixtures/lottie'
import { buildApng } from '../test/fixtures/png'
import { openMongoStore } from './store/mongo/open-mongo-store'
import type { Store } from './store/port'

/** How long an instance may serve a list page from its cache on MongoDB (see PageCache in wumpuses.ts). */
const LIST_CACHE_WINDOW_MS = 2000
const FACTOR = 0.1
const SECRET = 's'.repeat(40)

interface Instance {
  url: string
  store: Store
  close(): Promise<void>
}

// Against a real MongoDB when MONGODB_TEST_URI is set, else the in-process wire-protocol server.
let wire: MongoWireServer | undefined
let a: Instance
let b: Instance
const dbName = `wumpus_shared_${Date.now().toString(36)}`

async function startInstance(uri: string): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-instance-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: dataDir,
    MONGODB_URI: uri,
    JWT_SECRET: SECRET,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_FACTOR: String(FACTOR),
    FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
  })
  const store = await openMongoStore({ uri, dbName })
  const server = hardenServer(createApp(createRouteDeps({ config, store, logger: createLogger('silent') })).listen(0, '127.0.0.1'))
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    store,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await store.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A session made on the shared store, valid on every instance (they share JWT_SECRET). */
async function sessionFor(email: string): Promise<string> {
  const session = await a.store.sessions.create({ email, uid: `uid-${email}`, expiresAt: new Date(Date.now() + 3600_000) })
  return signSessionToken(
    { sid: session.id, email, name: email.split('@')[0]!, emailVerified: true, exp: Math.floor(Date.now() / 1000) + 600 },
    sessionKey(SECRET),
  )
}

const call = (instance: Instance, method: string, pathname: string, token?: string, body?: unknown) =>
  fetch(instance.url + pathname, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  })

beforeAll(async () => {
  const uri = process.env.MONGODB_TEST_URI ?? (wire = await startMongoWireServer()).uri
  a = await startInstance(uri)
  b = await startInstance(uri)
})
afterAll(async () => {
  await a?.close()
  await b?.close()
  await wire?.close()
})

describe('two server instances on one MongoDB', () => {
  it("serve each other's writes: a publish on one is in the other's gallery within the list cache window", async () => {
    await a.store.users.upsert('admin@example.com', { user_name: 'Shared Admin', role: 'admin' })
    const admin = await sessionFor('admin@example.com')
    // B has the gallery page and a search in its caches before the write.
    const before = wumpusListSchema.parse(await (await call(b, 'GET', '/api/wumpuses')).json())
    expect(wumpusListSchema.parse(await (await call(b, 'GET', '/api/wumpuses?q=shared')).json())).toEqual([])
    const form = new FormData()
    form.append('name', 'Shared Wumpus')
    form.append('description', 'Published through instance A')
    form.append('gif', new Blob([new Uint8Array(buildGif())]), 's.gif')
    form.append('apng', new Blob([new Uint8Array(buildApng())]), 's.png')
    form.append('lottie', new Blob([new Uint8Array(lottieBytes())]), 's.json')
    const published = wumpusSchema.parse(await (await call(a, 'POST', '/api/wumpuses', admin, form)).json())
    expect(before.some((w) => w._id === published._id)).toBe(false)

    // The detail and the files are read from the database at once; the list within its cache window.
    expect(wumpusSchema.parse(await (await call(b, 'GET', `/api/wumpus/${published._id}`)).json()).name).toBe('Shared Wumpus')
    expect((await call(b, 'GET', published.gif)).status).toBe(200)
    await vi.waitFor(
      async () =>
        expect(wumpusListSchema.parse(await (await call(b, 'GET', '/api/wumpuses')).json()).map((w) => w._id)).toContain(published._id),
      { timeout: LIST_CACHE_WINDOW_MS + 1000, interval: 100 },
    )
    // A search page may come from matches the store kept for as long again (the mongo adapter's search cache).
    await vi.waitFor(
      async () =>
        expect(wumpusListSchema.parse(await (await call(b, 'GET', '/api/wumpuses?q=shared')).json()).map((w) => w._id)).toEqual([
          published._id,
        ]),
      { timeout: 2 * LIST_CACHE_WINDOW_MS + 1000, interval: 100 },
    )
  })

  it('share sessions: a sign-out on one is refused by the other at once', async () => {
    await a.store.users.upsert('walker@example.com', { user_name: 'Walker' })
    const token = await sessionFor('walker@example.com')
    expect((await call(b, 'GET', '/api/profile/walker@example.com', token)).status).toBe(200)
    expect((await call(a, 'DELETE', '/api/session', token)).status).toBe(204)
    expect((await call(b, 'GET', '/api/profile/walker@example.com', token)).status).toBe(401)
  })

  it('count against the same rate limits', async () => {
    await a.store.users.upsert('writer@example.com', { user_name: 'Writer' })
    const token = await sessionFor('writer@example.com')
    const allowed = Math.round(RATE_LIMITS.profile.perAccount * FACTOR)
    const statuses: number[] = []
    for (let i = 0; i <= allowed; i++)
      statuses.push((await call(i % 2 ? b : a, 'PUT', '/api/user/writer@example.com', token, { job: `Job ${i}` })).status)
    expect(statuses).toEqual([...Array(allowed).fill(200), 429])
    // A profile update through one is read through the other (profiles are not cached).
    expect(userSchema.parse(await (await call(b, 'GET', '/api/profile/writer@example.com', token)).json()).job).toBe(`Job ${allowed - 1}`)
  })
})

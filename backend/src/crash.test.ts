import { mkdtempSync, rmSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { wumpusListSchema, wumpusSchema } from '../../contract/wumpus'
import { freePortRun } from '../test/support/ports'
import { spawnServer, waitUntilReady } from '../test/support/server-process'
import { sessionKey, signSessionToken } from './auth/session-token'
import { loadConfig } from './config'
import { buildGif } from '../test/fixtures/gif'
import { lottieBytes } from '../test/fixtures/lottie'
import { buildApng } from '../test/fixtures/png'
import { openSqliteStore } from './store/sqlite/open-sqlite-store'

/**
 * The real server process is killed (SIGKILL) in the middle of an upload, a burst of profile writes
 * and publishes, then started again on the same data: it must start, keep every write it
 * acknowledged, list nothing half-written, and sweep what the crash left behind.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-crash-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const WRITERS = 6
const users = Array.from({ length: WRITERS }, (_, i) => `writer-${i}@example.com`)
const ADMIN = 'crash-admin@example.com'

const startServer = (port: number) => spawnServer({ port, dataDir, env: { RATE_LIMIT_FACTOR: '1000' } })

function publishForm(name: string): FormData {
  const form = new FormData()
  form.append('name', name)
  form.append('description', 'Published while the server was killed')
  form.append('gif', new Blob([new Uint8Array(buildGif({ width: 16, height: 16 }))]), 'c.gif')
  form.append('apng', new Blob([new Uint8Array(buildApng({ width: 16, height: 16 }))]), 'c.png')
  form.append('lottie', new Blob([new Uint8Array(lottieBytes())]), 'c.json')
  return form
}

/** Starts a multipart upload and sends only part of it: the server holds a temp file when it dies. */
function halfAnUpload(port: number, token: string): net.Socket {
  const boundary = 'crash-boundary'
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.gif"\r\nContent-Type: image/gif\r\n\r\n`
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.write(
    `POST /api/uploads/animation?format=gif HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 5000000\r\n\r\n${head}`,
  )
  socket.write(Buffer.alloc(256 * 1024, 7))
  return socket
}

describe('crash: SIGKILL during an upload, profile writes and publishes', () => {
  it('restarts on the same data with every acknowledged write and nothing half-written', async () => {
    // Accounts and sessions, as sign-ins would have made them.
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
    const key = sessionKey(config.jwtSecret)
    const setup = await openSqliteStore({ dataDir })
    const tokens = new Map<string, string>()
    for (const email of [...users, ADMIN]) {
      await setup.users.upsert(email, { user_name: email.split('@')[0]!, ...(email === ADMIN ? { role: 'admin' as const } : {}) })
      const session = await setup.sessions.create({ email, uid: `uid-${email}`, expiresAt: new Date(Date.now() + 3600_000) })
      tokens.set(
        email,
        signSessionToken({ sid: session.id, email, name: email, emailVerified: true, exp: Math.floor(Date.now() / 1000) + 3600 }, key),
      )
    }
    await setup.close()

    const port = await freePortRun(1)
    const base = `http://127.0.0.1:${port}`
    let server = startServer(port)
    await waitUntilReady(base, server)

    // A second server on the same folder refuses to start, naming it.
    const second = spawnServer({ port: await freePortRun(1), dataDir, stderr: 'pipe' })
    let refusal = ''
    second.stderr!.on('data', (chunk: Buffer) => (refusal += chunk.toString()))
    expect(await new Promise((resolve) => second.once('exit', resolve))).toBe(1)
    expect(refusal.trim()).toBe(
      `The data folder ${dataDir} is in use by another Wumpus Gallery server. Stop that server first, or give this one its own DATA_DIR.`,
    )

    const upload = halfAnUpload(port, tokens.get(ADMIN)!)
    await vi.waitFor(async () => expect(await readdir(path.join(dataDir, 'upload-tmp'))).toHaveLength(1), { timeout: 10_000 })

    // Writers, each one write after another: the last acknowledged value of each is known.
    const acknowledged = new Map<string, number>()
    const published: string[] = []
    let killed = false
    const writer = async (email: string) => {
      for (let n = 1; !killed; n++) {
        try {
          const res = await fetch(`${base}/api/user/${email}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${tokens.get(email)}`, 'content-type': 'application/json' },
            body: JSON.stringify({ job: `write ${n}` }),
          })
          if (res.ok) acknowledged.set(email, n)
        } catch {
          return // the server is gone
        }
      }
    }
    const publisher = async () => {
      for (let n = 1; !killed; n++) {
        try {
          const res = await fetch(`${base}/api/wumpuses`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokens.get(ADMIN)}` },
            body: publishForm(`Crash Wumpus ${n}`),
          })
          if (res.status === 201) published.push(wumpusSchema.parse(await res.json())._id)
        } catch {
          return
        }
      }
    }
    const running = [...users.map(writer), publisher(), publisher()]
    await vi.waitFor(() => expect([...acknowledged.values()].reduce((sum, n) => sum + n, 0)).toBeGreaterThan(150), {
      timeout: 60_000,
      interval: 20,
    })
    await vi.waitFor(() => expect(published.length).toBeGreaterThan(3), { timeout: 60_000, interval: 20 })
    server.kill('SIGKILL')
    killed = true
    await new Promise((resolve) => server.once('exit', resolve))
    await Promise.all(running)
    upload.destroy()

    server = startServer(port)
    await waitUntilReady(base, server)
    let storedBytes: string[]
    try {
      // Every acknowledged profile write is there (or the one after it, sent but not yet answered).
      for (const email of users) {
        const job = (
          (await (await fetch(`${base}/api/profile/${email}`, { headers: { authorization: `Bearer ${tokens.get(email)}` } })).json()) as {
            job: string
          }
        ).job
        const stored = Number(/^write (\d+)$/.exec(job)?.[1] ?? 0)
        expect(stored === acknowledged.get(email) || stored === acknowledged.get(email)! + 1, `${email}: ${job}`).toBe(true)
      }
      // Every acknowledged publish is listed, and everything listed is whole.
      const listed = wumpusListSchema.parse(await (await fetch(`${base}/api/wumpuses?limit=100`)).json())
      expect(listed.map((w) => w._id)).toEqual(expect.arrayContaining(published))
      for (const wumpus of listed) {
        for (const url of [wumpus.gif, wumpus.apng, wumpus.lottie]) {
          const res = await fetch(base + url)
          expect(res.status, url).toBe(200)
          expect((await res.arrayBuffer()).byteLength, url).toBeGreaterThan(0)
        }
      }
      // What the crash left is gone: the half upload's temp file, temp names, bytes without a record.
      expect(await readdir(path.join(dataDir, 'upload-tmp'))).toEqual([])
      storedBytes = (await readdir(path.join(dataDir, 'files'))).filter((name) => !name.startsWith('.')).sort()
    } finally {
      server.kill('SIGTERM')
      await new Promise((resolve) => server.once('exit', resolve))
    }
    const store = await openSqliteStore({ dataDir })
    const recorded = (await store.files.list({ createdBefore: new Date(Date.now() + 60_000), limit: 100_000 })).map((f) => f.id).sort()
    await store.close()
    expect(storedBytes).toEqual(recorded)
  }, 120_000)
})

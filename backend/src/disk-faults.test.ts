import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/support/test-server'
import { buildGif } from '../test/fixtures/gif'
import { openSqliteStore } from './store/sqlite/open-sqlite-store'

/**
 * The data folder on a small file system of its own (a tmpfs), filled up and then made read-only while
 * the real server runs: writes that cannot be stored answer 503 in the error shape, nothing acknowledged
 * is lost, and once there is room again the server stores writes without a restart.
 */
const mountPoint = mkdtempSync(path.join(tmpdir(), 'wumpus-disk-'))
const dataDir = path.join(mountPoint, 'data')
const filler = path.join(mountPoint, 'filler')
const EMAIL = 'writer@example.com'

let server: TestServer
let token: string

beforeAll(async () => {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', mountPoint])
  mkdirSync(dataDir)
  server = await startTestServer({}, { dataDir })
  await server.store.users.upsert(EMAIL, { user_name: 'Writer' })
  token = await server.sessionToken(EMAIL)
})

afterAll(async () => {
  await server?.close().catch(() => undefined)
  execFileSync('umount', ['--lazy', mountPoint])
  rmSync(mountPoint, { recursive: true, force: true })
})

const profileWrite = (n: number) =>
  fetch(`${server.url}/api/user/${EMAIL}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ job: `write ${n}`, description: `Write number ${n}. `.repeat(20) }),
  })

const storedJob = async () => {
  const res = await fetch(`${server.url}/api/profile/${EMAIL}`, { headers: { authorization: `Bearer ${token}` } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { job: string }).job
}

const upload = () => {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(buildGif({ width: 64, height: 64 }))]), 'photo.gif')
  return fetch(`${server.url}/api/uploads/image`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
}

/** Writes until the disk refuses one; answers the last write acknowledged. */
async function writeUntilRefused(start: number): Promise<number> {
  let acknowledged = start - 1
  for (let n = start; n < start + 5000; n++) {
    const res = await profileWrite(n)
    if (res.ok) {
      acknowledged = n
      continue
    }
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: { code: 'STORE_UNAVAILABLE', message: expect.any(String) } })
    return acknowledged
  }
  throw new Error('the disk never refused a write')
}

async function fillTheDisk(): Promise<void> {
  const handle = await open(filler, 'w')
  try {
    for (;;) await handle.write(Buffer.alloc(256 * 1024, 1))
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
  } finally {
    await handle.close()
  }
}

describe('a full disk', () => {
  it('answers 503 for writes it cannot store, keeps what it acknowledged, and stores again once there is room', async () => {
    expect((await profileWrite(1)).status).toBe(200)
    expect((await upload()).status).toBe(201)

    await fillTheDisk()
    const beforeFull = await writeUntilRefused(2)
    const refusedUpload = await upload()
    expect(refusedUpload.status, await refusedUpload.clone().text()).toBe(503)
    expect(await refusedUpload.json()).toMatchObject({ error: { code: 'STORE_UNAVAILABLE' } })
    // Reads go on, and show the last acknowledged write.
    expect(await storedJob()).toBe(`write ${beforeFull}`)
    expect((await fetch(`${server.url}/api/wumpuses`)).status).toBe(200)

    // Room again: writes are stored, no restart.
    await rm(filler)
    expect((await profileWrite(beforeFull + 1)).status).toBe(200)
    expect(await storedJob()).toBe(`write ${beforeFull + 1}`)
    expect((await upload()).status).toBe(201)

    // Everything acknowledged is there after a restart.
    await server.store.close()
    const reopened = await openSqliteStore({ dataDir })
    try {
      expect((await reopened.users.get(EMAIL))?.job).toBe(`write ${beforeFull + 1}`)
      expect(await reopened.files.listByOwner(EMAIL, 'image')).toHaveLength(2)
    } finally {
      await reopened.close()
    }
  }, 120_000)
})

describe('a read-only data folder', () => {
  it('stops the server at start with a message naming the folder, and is used again once writable', async () => {
    const store = await openSqliteStore({ dataDir })
    await store.users.upsert('kept@example.com', { job: 'kept' })
    await store.close()
    // Files open for writing keep a file system from going read only: only a stopped server can meet one.
    execFileSync('mount', ['-o', 'remount,ro', mountPoint])
    try {
      const started = spawnSync(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
        cwd: path.resolve(import.meta.dirname, '../..'),
        encoding: 'utf8',
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: '0',
          DATA_DIR: dataDir,
          STATIC_DIR: dataDir,
          SEED_DEMO: 'false',
          LOG_LEVEL: 'error',
        },
      })
      expect(started.status).toBe(1)
      // The error's code (EROFS, or SQLite's name for it) in brackets.
      expect(started.stderr.trim()).toMatch(/^The data folder (.+) cannot be written \([A-Z_]+\): the server keeps its data there\.$/)
      expect(started.stderr).toContain(dataDir)
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mountPoint])
    }
    const reopened = await openSqliteStore({ dataDir })
    expect((await reopened.users.get('kept@example.com'))?.job).toBe('kept')
    await reopened.close()
  }, 60_000)
})

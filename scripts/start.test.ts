import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePortRun, listening } from '../backend/test/support/ports'

const root = path.resolve(import.meta.dirname, '..')
const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-start-'))
// A stand-in build, newer than the sources, so this test does not wait for a real one.
const staticDir = path.join(dataDir, 'static')
mkdirSync(staticDir)
writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>stand-in</title>')
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const ACCOUNT = { email: 'restart@example.com', password: 'secret-pass-1', returnSecureToken: true }

describe('npm start', () => {
  it('stops everything on Ctrl-C and reuses the data on the next start', async () => {
    const port = await freePortRun(1)
    const emulatorPort = await freePortRun(3)
    const env = {
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      AUTH_EMULATOR_PORT: String(emulatorPort),
      LOG_LEVEL: 'error',
    }
    const base = `http://127.0.0.1:${port}`
    const auth = `http://127.0.0.1:${emulatorPort}/identitytoolkit.googleapis.com/v1/accounts`

    const first = await start(env, base)
    const total = (await fetch(`${base}/api/wumpuses`)).headers.get('x-total-count')
    expect(Number(total)).toBeGreaterThanOrEqual(12)
    const signUp = await fetch(`${auth}:signUp?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ACCOUNT),
    })
    expect(signUp.status).toBe(200)

    // A second start on the same folder is refused before it starts anything; the first keeps serving.
    const otherEmulatorPort = await freePortRun(3)
    const second = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, ...env, PORT: String(await freePortRun(1)), AUTH_EMULATOR_PORT: String(otherEmulatorPort) },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let refusal = ''
    second.stderr.on('data', (chunk: Buffer) => (refusal += chunk.toString()))
    expect(await new Promise((resolve) => second.once('exit', resolve))).toBe(1)
    expect(refusal).toContain(`The data folder ${dataDir} is in use by another Wumpus Gallery server`)
    expect(await listening(otherEmulatorPort)).toBe(false)
    expect((await fetch(`${base}/api/wumpuses`)).headers.get('x-total-count')).toBe(total)

    expect(await stop(first)).toBe(0)
    expect(await listening(port)).toBe(false)
    expect(await listening(emulatorPort)).toBe(false)
    expect(existsSync(path.join(dataDir, 'auth-emulator', 'firebase-export-metadata.json'))).toBe(true)

    const restarted = await start(env, base)
    // Same gallery (not seeded twice) and the same accounts.
    expect((await fetch(`${base}/api/wumpuses`)).headers.get('x-total-count')).toBe(total)
    const signIn = await fetch(`${auth}:signInWithPassword?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ACCOUNT),
    })
    expect(signIn.status, await signIn.clone().text()).toBe(200)
    // The demo admin printed at start can sign in, with a verified email.
    const admin = await fetch(`${auth}:signInWithPassword?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@wumpus.gallery', password: 'wumpus-admin', returnSecureToken: true }),
    })
    expect(admin.status).toBe(200)
    const { idToken } = (await admin.json()) as { idToken: string }
    expect(JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()).email_verified).toBe(true)
    expect(await stop(restarted)).toBe(0)
  }, 150_000)
})

async function start(env: Record<string, string>, base: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${base}/ready`)).ok) return child
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill('SIGINT')
  throw new Error('npm start did not become ready')
}

function stop(child: ChildProcess): Promise<number | null> {
  child.kill('SIGINT')
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

// Starts the Firebase Auth emulator (firebase-tools) for one data folder; used by `npm start` and tests.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Resolves once the emulator answers, with `{ host, process }`. Accounts are imported from and
 * exported (on SIGINT) to `<dataDir>/auth-emulator`. firebase.json holds the default ports; `port`
 * moves the emulator, and its hub and logging ports to the two after it, so instances can run side by side.
 */
export async function startAuthEmulator({ dataDir, projectId = 'demo-wumpus', port, env = process.env }) {
  mkdirSync(dataDir, { recursive: true })
  const firebaseConfig = JSON.parse(readFileSync(path.join(root, 'firebase.json'), 'utf8'))
  if (port !== undefined) {
    firebaseConfig.emulators.auth.port = port
    firebaseConfig.emulators.hub.port = port + 1
    firebaseConfig.emulators.logging.port = port + 2
  }
  const authPort = firebaseConfig.emulators.auth.port
  const configFile = path.join(dataDir, 'firebase.json')
  writeFileSync(configFile, JSON.stringify(firebaseConfig, null, 2))
  const saved = path.join(dataDir, 'auth-emulator')
  const firebase = path.join(root, 'node_modules/firebase-tools/lib/bin/firebase.js')
  const args = [firebase, 'emulators:start', '--config', configFile, '--only', 'auth', '--project', projectId, '--export-on-exit', saved]
  if (existsSync(path.join(saved, 'firebase-export-metadata.json'))) args.push('--import', saved)
  const logFile = path.join(dataDir, 'auth-emulator.log')
  const log = openSync(logFile, 'a')
  // The emulator finds its hub (for export-on-exit) through a file named after the project in TMPDIR;
  // a private TMPDIR keeps two instances of the same project from exporting each other's accounts.
  const tmp = path.join(dataDir, 'auth-emulator-tmp')
  mkdirSync(tmp, { recursive: true })
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', log, log],
    env: { ...env, TMPDIR: tmp, CI: '1', NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
  })
  const host = `127.0.0.1:${authPort}`
  // A busy 2-core machine has taken over a minute to start it.
  const deadline = Date.now() + 150_000
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`http://${host}/`)).ok) return { host, process: child, logFile }
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  child.kill('SIGKILL')
  throw new Error(
    `The Auth emulator did not start; see ${logFile}. Its ports (${authPort}, ${firebaseConfig.emulators.hub.port}, ${firebaseConfig.emulators.logging.port}) must be free.`,
  )
}

/** Stops it the way Ctrl-C does, so it exports its accounts first. */
export function stopAuthEmulator(emulator) {
  if (emulator.process.exitCode !== null) return Promise.resolve()
  emulator.process.kill('SIGINT')
  return new Promise((resolve) => emulator.process.once('exit', resolve))
}

/** Makes sure an email/password account exists in the emulator (for the printed demo admin). */
export async function ensureAccount(host, { email, password, displayName, emailVerified = true }) {
  const api = (path, body, headers = {}) =>
    fetch(`http://${host}/identitytoolkit.googleapis.com/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then(async (res) => ({ ok: res.ok, body: await res.json() }))
  let result = await api('accounts:signUp?key=demo-api-key', { email, password, displayName, returnSecureToken: true })
  if (!result.ok) result = await api('accounts:signInWithPassword?key=demo-api-key', { email, password, returnSecureToken: true })
  if (!result.ok) throw new Error(`Could not prepare the demo account ${email}: ${result.body.error?.message}`)
  await api(
    'projects/demo-wumpus/accounts:update',
    { localId: result.body.localId, emailVerified, displayName },
    { authorization: 'Bearer owner' },
  )
}

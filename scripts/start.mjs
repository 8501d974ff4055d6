// npm start: build the PWA if needed, start the Firebase Auth emulator (zero-config runs), start the server.
// Ctrl-C stops both; the emulator exports its accounts under DATA_DIR on the way out.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(root)
if (existsSync('.env')) process.loadEnvFile('.env')

const env = { ...process.env }
const dataDir = path.resolve(env.DATA_DIR ?? './data')
const staticDir = path.resolve(env.STATIC_DIR ?? './dist')
mkdirSync(dataDir, { recursive: true })

if (needsBuild()) {
  console.log('Building the app...')
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit', env: { ...env, NODE_ENV: 'production' } })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const children = []
const projectId = env.FIREBASE_PROJECT_ID ?? 'demo-wumpus'
if (projectId.startsWith('demo-') && !env.FIREBASE_AUTH_EMULATOR_HOST) {
  env.FIREBASE_AUTH_EMULATOR_HOST = await startAuthEmulator()
}

const server = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], { stdio: 'inherit', env })
children.push(server)
server.on('exit', (code, signal) => {
  if (!stopping) {
    console.error(`The server stopped (${signal ?? code}).`)
    stop(code ?? 1)
  }
})

let stopping = false
function stop(code = 0) {
  if (stopping) return
  stopping = true
  for (const child of children) if (child.exitCode === null) child.kill('SIGINT')
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code))
  setTimeout(() => process.exit(code), 15_000).unref()
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

function needsBuild() {
  const built = path.join(staticDir, 'index.html')
  if (!existsSync(built)) return true
  const builtAt = statSync(built).mtimeMs
  return newestChange(['app', 'contract', 'vite.config.ts', 'package.json']) > builtAt
}

function newestChange(paths) {
  let newest = 0
  for (const p of paths) {
    if (!existsSync(p)) continue
    const info = statSync(p)
    if (info.isDirectory()) {
      newest = Math.max(newest, newestChange(readdirSync(p).map((name) => path.join(p, name))))
    } else newest = Math.max(newest, info.mtimeMs)
  }
  return newest
}

async function startAuthEmulator() {
  // firebase.json holds the default ports; AUTH_EMULATOR_PORT moves the emulator (and its hub and
  // logging ports, to the two after it) so that two instances can run side by side.
  const firebaseConfig = JSON.parse(readFileSync('firebase.json', 'utf8'))
  const port = Number(env.AUTH_EMULATOR_PORT ?? firebaseConfig.emulators.auth.port)
  if (env.AUTH_EMULATOR_PORT) {
    firebaseConfig.emulators.hub.port = port + 1
    firebaseConfig.emulators.logging.port = port + 2
  }
  firebaseConfig.emulators.auth.port = port
  const configFile = path.join(dataDir, 'firebase.json')
  writeFileSync(configFile, JSON.stringify(firebaseConfig, null, 2))
  const host = `127.0.0.1:${port}`
  const saved = path.join(dataDir, 'auth-emulator')
  const args = ['node_modules/firebase-tools/lib/bin/firebase.js', 'emulators:start', '--config', configFile, '--only', 'auth', '--project', projectId, '--export-on-exit', saved]
  if (existsSync(path.join(saved, 'firebase-export-metadata.json'))) args.push('--import', saved)
  const log = openSync(path.join(dataDir, 'auth-emulator.log'), 'a')
  // The emulator finds its hub (for export-on-exit) through a file named after the project in TMPDIR;
  // a private TMPDIR keeps two instances of the same project from exporting each other's accounts.
  const tmp = path.join(dataDir, 'auth-emulator-tmp')
  mkdirSync(tmp, { recursive: true })
  const emulator = spawn(process.execPath, args, {
    stdio: ['ignore', log, log],
    env: { ...env, TMPDIR: tmp, CI: '1', NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
  })
  children.push(emulator)
  let exited = false
  emulator.on('exit', (code) => {
    exited = true
    if (!stopping) {
      console.error(`The Auth emulator stopped (${code}); see ${path.join(dataDir, 'auth-emulator.log')}.`)
      stop(1)
    }
  })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(`http://${host}/`)
      if (res.ok) return host
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  console.error(`The Auth emulator did not start; see ${path.join(dataDir, 'auth-emulator.log')}. The emulator's ports (${port} and the hub and logging ports in firebase.json) must be free.`)
  stop(1)
  return new Promise(() => {})
}

// npm start: build the PWA if needed, start the Firebase Auth emulator (zero-config runs), start the server.
// Ctrl-C stops both; the emulator exports its accounts under DATA_DIR on the way out.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import { ensureAccount, startAuthEmulator } from './auth-emulator.mjs'
import { buildApp } from './build.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(root)
await import('./load-env.mjs')

const env = { ...process.env }
const dataDir = path.resolve(env.DATA_DIR ?? './data')
const staticDir = path.resolve(env.STATIC_DIR ?? './dist')
const ssrDir = path.resolve(env.SSR_DIR ?? './dist-ssr')
mkdirSync(dataDir, { recursive: true })

// The server refuses a data folder another one uses; checked here too, before the emulator starts: it
// would export stale accounts into that folder when this start gives up.
if (!env.MONGODB_URI) {
  const { assertDataDirFree } = await tsImport('../backend/src/store/sqlite/database.ts', import.meta.url)
  try {
    assertDataDirFree(dataDir)
  } catch (error) {
    console.error(error.message)
    process.exit(1)
  }
}

if (needsBuild()) {
  console.log('Building the app...')
  if (!buildApp({ outDir: staticDir, ssrOutDir: ssrDir })) process.exit(1)
}

const children = []
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

// Zero-config runs get an admin to try the admin screens with; it exists only in the local emulator.
const DEMO_ADMIN = { email: 'admin@wumpus.gallery', password: 'wumpus-admin', displayName: 'Demo Admin' }
const projectId = env.FIREBASE_PROJECT_ID ?? 'demo-wumpus'
if (projectId.startsWith('demo-') && !env.FIREBASE_AUTH_EMULATOR_HOST) {
  try {
    const emulator = await startAuthEmulator({
      dataDir,
      projectId,
      port: env.AUTH_EMULATOR_PORT ? Number(env.AUTH_EMULATOR_PORT) : undefined,
      env,
    })
    children.push(emulator.process)
    emulator.process.on('exit', (code) => {
      if (!stopping) {
        console.error(`The Auth emulator stopped (${code}); see ${emulator.logFile}.`)
        stop(1)
      }
    })
    env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host
    await ensureAccount(emulator.host, DEMO_ADMIN)
    env.ADMIN_EMAILS = [env.ADMIN_EMAILS, DEMO_ADMIN.email].filter(Boolean).join(',')
    console.log(`Demo admin (local emulator): ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`)
  } catch (error) {
    console.error(error.message)
    stop(1)
    await new Promise(() => {})
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], { stdio: 'inherit', env })
children.push(server)
server.on('exit', (code, signal) => {
  if (!stopping) {
    console.error(`The server stopped (${signal ?? code}).`)
    stop(code ?? 1)
  }
})

function needsBuild() {
  const built = [path.join(staticDir, 'index.html'), path.join(ssrDir, 'entry-server.js')]
  if (!built.every((file) => existsSync(file))) return true
  const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs))
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

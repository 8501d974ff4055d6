// npm run bench:files — 20 clients ask the real server process for an 8 MB file and then read nothing
// more: how much the server's memory (RSS) grows while they hang on, and how long their connections
// stay open. SEND_TIMEOUT_SECONDS is passed to the server (default 30, as in production); Node restarts a
// socket's timer once while bytes are still leaving it, so a client is cut off after one to two of them.
// BENCH_SECONDS is how long to watch (default 90); BENCH_SERVER_ROOT runs another checkout's server (before/after).
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePortRun } from '../backend/test/support/ports'
import { createStore } from '../backend/src/store/create-store'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 90)
const CLIENTS = 20
const FILE_BYTES = 8 * 1024 * 1024
const serverRoot = path.resolve(process.env.BENCH_SERVER_ROOT ?? path.join(import.meta.dirname, '..'))

const work = mkdtempSync(path.join(tmpdir(), 'wumpus-bench-files-'))
const dataDir = path.join(work, 'data')
const store = await createStore({ dataDir })
const file = await store.files.put({ bytes: new Uint8Array(randomBytes(FILE_BYTES)), contentType: 'image/gif', filename: 'big.gif' })
await store.close()

const port = await freePortRun(1)
const server = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
  cwd: serverRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(work, 'static'),
    // No sign-in happens here; the emulator is never asked.
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
    LOG_LEVEL: 'error',
    SEED_DEMO: 'false',
  },
})

const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024
/** The local ports of the clients whose connection the server still holds (by `ss`: a paused client never notices the close). */
const heldByServer = (clientPorts: Set<number>) =>
  execFileSync('ss', ['-tnH', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(/:(\d+)\s*$/.exec(line.trim())?.[1]))
    .filter((peer) => clientPorts.has(peer))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

try {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`)
    if (
      await fetch(`http://127.0.0.1:${port}/ready`).then(
        (res) => res.ok,
        () => false,
      )
    )
      break
    await sleep(200)
  }
  // Warm the route once (and let start-up settle) before the baseline.
  await fetch(`http://127.0.0.1:${port}/api/files/${file.id}`).then((res) => res.arrayBuffer())
  await sleep(2000)
  const before = rssMb()

  const started = performance.now()
  let answered = 0
  const sockets = Array.from({ length: CLIENTS }, () => {
    const socket = net.connect(port, '127.0.0.1')
    socket.on('error', () => {})
    socket.once('data', () => {
      answered++
      socket.pause()
    })
    socket.write(`GET /api/files/${file.id}/big.gif HTTP/1.1\r\nHost: localhost\r\n\r\n`)
    return socket
  })
  while (answered < CLIENTS) await sleep(50)
  const clientPorts = new Set(sockets.map((socket) => socket.localPort!))

  let peak = before
  let held = CLIENTS
  let firstClosed: number | undefined
  while (performance.now() - started < SECONDS * 1000 && held > 0) {
    peak = Math.max(peak, rssMb())
    held = heldByServer(clientPorts).length
    if (held < CLIENTS) firstClosed ??= (performance.now() - started) / 1000
    await sleep(250)
  }
  const elapsed = (performance.now() - started) / 1000
  console.log(`server: ${serverRoot}`)
  console.log(`${CLIENTS} clients, ${answered} answered, on a ${FILE_BYTES / 1024 / 1024} MB file; watched up to ${SECONDS} s`)
  console.log(`RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB: +${(peak - before).toFixed(0)} MB`)
  console.log(
    held === 0
      ? `the server closed the first connection after ${firstClosed!.toFixed(1)} s and all of them after ${elapsed.toFixed(1)} s`
      : `after ${elapsed.toFixed(1)} s the server still held ${held} of ${CLIENTS} connections`,
  )
  for (const socket of sockets) socket.destroy()
} finally {
  server.kill('SIGKILL')
  rmSync(work, { recursive: true, force: true })
}

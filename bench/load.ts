// npm run bench:load — 60 s of mixed traffic at 100 connections against the real server process on the
// embedded store (seeded demo gallery): anonymous reads of list pages, details and files, signed-in
// profile reads and updates, and admin publishes of three small files. Then the server is killed
// (SIGKILL), started again on the same data, and every acknowledged write is looked for.
// BENCH_SECONDS changes the duration; BENCH_SERVER_ROOT runs another checkout's server (before/after).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startAuthEmulator, stopAuthEmulator } from '../scripts/auth-emulator.mjs'
import { freePortRun } from '../backend/test/support/ports'
import { buildGif } from '../backend/test/fixtures/gif'
import { lottieBytes } from '../backend/test/fixtures/lottie'
import { buildApng } from '../backend/test/fixtures/png'
import { signedInSession, waitForReady } from './support/server-process'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60)
const CONNECTIONS = 100
const ADMINS = 4
const serverRoot = path.resolve(process.env.BENCH_SERVER_ROOT ?? path.join(import.meta.dirname, '..'))

type Kind = 'list' | 'detail' | 'file' | 'profile' | 'update' | 'publish'
const READS: Kind[] = ['list', 'detail', 'file', 'profile']
/** Share of each kind of request in the mix (out of 100). */
const MIX: [Kind, number][] = [
  ['list', 30],
  ['detail', 25],
  ['file', 25],
  ['profile', 5],
  ['update', 12],
  ['publish', 3],
]

const work = mkdtempSync(path.join(tmpdir(), 'wumpus-bench-load-'))
const dataDir = path.join(work, 'data')
const emulator = await startAuthEmulator({ dataDir: path.join(work, 'emulator'), port: await freePortRun(3) })
const port = await freePortRun(1)
const base = `http://127.0.0.1:${port}`
const adminEmails = Array.from({ length: ADMINS }, (_, i) => `bench-admin-${i}@example.com`)

function startServer(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
    cwd: serverRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(work, 'static'),
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      ADMIN_EMAILS: adminEmails.join(','),
      LOG_LEVEL: 'error',
      // Every account here writes far more often than a person would: lift the limits, keep their cost.
      RATE_LIMIT_FACTOR: '1000',
    },
  })
}

const signIn = (email: string) => signedInSession(emulator.host, base, email)

// ---- HTTP over one keep-alive pool of CONNECTIONS sockets ----

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
interface Answer {
  status: number
  body: Buffer
}
function request(method: string, pathname: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${pathname}`,
      { method, agent, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const BOUNDARY = 'bench-boundary-7d1f'
const publishBody = (name: string) => {
  const parts: Buffer[] = []
  const field = (key: string, value: string) =>
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`))
  const file = (key: string, filename: string, type: string, bytes: Uint8Array) => {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
    )
    parts.push(Buffer.from(bytes), Buffer.from('\r\n'))
  }
  field('name', name)
  field('description', 'Published by the load benchmark')
  file('gif', 'bench.gif', 'image/gif', GIF)
  file('apng', 'bench.png', 'image/png', APNG)
  file('lottie', 'bench.json', 'application/json', LOTTIE)
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return Buffer.concat(parts)
}
const GIF = buildGif({ width: 32, height: 32 })
const APNG = buildApng({ width: 32, height: 32 })
const LOTTIE = lottieBytes()

// ---- The run ----

let server = startServer()
await waitForReady(base, server)
console.log(`server ready (${serverRoot}); signing in ${CONNECTIONS} users and ${ADMINS} admins...`)
const userEmails = Array.from({ length: CONNECTIONS }, (_, i) => `bench-user-${i}@example.com`)
const userTokens: string[] = []
for (const email of userEmails) userTokens.push(await signIn(email))
const adminTokens: string[] = []
for (const email of adminEmails) adminTokens.push(await signIn(email))

const gallery = JSON.parse((await request('GET', '/api/wumpuses?limit=100')).body.toString()) as {
  _id: string
  gif: string
  u_email: string
}[]
if (gallery.length === 0) throw new Error('the seeded gallery is empty')

const latencies = new Map<Kind, number[]>(MIX.map(([kind]) => [kind, []]))
const failures: string[] = []
/** Per user, the job of the last acknowledged profile update. */
const lastJob = new Map<string, string>()
const published: string[] = []
let measuring = false
let stopping = false

function pick(random: number): Kind {
  let at = random * 100
  for (const [kind, share] of MIX) {
    if (at < share) return kind
    at -= share
  }
  return 'list'
}

async function connection(index: number) {
  const email = userEmails[index]!
  const auth = { authorization: `Bearer ${userTokens[index]}` }
  let sequence = 0
  while (!stopping) {
    const kind = pick(Math.random())
    const wumpus = gallery[Math.floor(Math.random() * gallery.length)]!
    const started = performance.now()
    let answer: Answer
    let job = ''
    try {
      if (kind === 'list') answer = await request('GET', Math.random() < 0.5 ? '/api/wumpuses' : '/api/wumpuses?limit=12')
      else if (kind === 'detail') answer = await request('GET', `/api/wumpus/${wumpus._id}`)
      else if (kind === 'file') answer = await request('GET', wumpus.gif)
      // A contributor's public profile, as its page reads it (others' profiles are not shown to other users).
      else if (kind === 'profile') answer = await request('GET', `/api/profile/${wumpus.u_email}`, auth)
      else if (kind === 'update') {
        job = `job ${index}-${++sequence}`
        answer = await request(
          'PUT',
          `/api/user/${email}`,
          { ...auth, 'content-type': 'application/json' },
          Buffer.from(JSON.stringify({ job })),
        )
      } else {
        const admin = index % ADMINS
        answer = await request(
          'POST',
          '/api/wumpuses',
          { authorization: `Bearer ${adminTokens[admin]}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          publishBody(`Bench ${index} ${++sequence}`),
        )
      }
    } catch (error) {
      if (measuring) failures.push(`${kind}: ${(error as Error).message}`)
      continue
    }
    const ms = performance.now() - started
    if (answer.status >= 400) {
      if (measuring) failures.push(`${kind}: ${answer.status} ${answer.body.toString().slice(0, 200)}`)
      continue
    }
    // Writes count as acknowledged whenever they happened, warm-up included.
    if (kind === 'update') lastJob.set(email, job)
    if (kind === 'publish') published.push((JSON.parse(answer.body.toString()) as { _id: string })._id)
    if (measuring) latencies.get(kind)!.push(ms)
  }
}

const WARM_UP_MS = 5000
const running = Array.from({ length: CONNECTIONS }, (_, i) => connection(i))
await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS))
measuring = true
const measureStart = performance.now()
await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000))
measuring = false
const measuredSeconds = (performance.now() - measureStart) / 1000
stopping = true
await Promise.all(running)
agent.destroy()

// ---- Crash and look for every acknowledged write ----

server.kill('SIGKILL')
await new Promise((resolve) => server.once('exit', resolve))
server = startServer()
await waitForReady(base, server)
let lost = 0
for (const [index, email] of userEmails.entries()) {
  const expected = lastJob.get(email)
  if (!expected) continue
  const res = await fetch(`${base}/api/profile/${email}`, { headers: { authorization: `Bearer ${userTokens[index]}` } })
  const job = res.ok ? ((await res.json()) as { job: string }).job : `HTTP ${res.status}`
  if (job !== expected) {
    lost++
    console.log(`lost: ${email} has "${job}", acknowledged "${expected}"`)
  }
}
for (const id of published) {
  const res = await fetch(`${base}/api/wumpus/${id}`)
  const files = res.ok ? ((await res.json()) as Record<'gif' | 'apng' | 'lottie', string>) : undefined
  const readable =
    files && (await Promise.all(['gif', 'apng', 'lottie'].map(async (f) => (await fetch(base + files[f as 'gif'])).ok))).every(Boolean)
  if (!readable) {
    lost++
    console.log(`lost: published animation ${id}`)
  }
}
server.kill('SIGTERM')
await new Promise((resolve) => server.once('exit', resolve))
await stopAuthEmulator(emulator)
rmSync(work, { recursive: true, force: true })

// ---- Report ----

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return `${String(values.length).padStart(6)} requests, ${(values.length / measuredSeconds).toFixed(0).padStart(5)}/s, p50 ${percentile(sorted, 50).toFixed(0).padStart(4)} ms, p99 ${percentile(sorted, 99).toFixed(0).padStart(5)} ms`
}
const reads = READS.flatMap((kind) => latencies.get(kind)!)
console.log(
  `\n${CONNECTIONS} connections, ${measuredSeconds.toFixed(0)} s measured after a ${WARM_UP_MS / 1000} s warm-up, embedded store, seeded gallery`,
)
for (const [kind] of MIX) console.log(`${kind.padEnd(8)} ${summary(latencies.get(kind)!)}`)
console.log(`reads    ${summary(reads)}`)
console.log(`writes   ${summary([...latencies.get('update')!, ...latencies.get('publish')!])}`)
console.log(`errors: ${failures.length}${failures.length ? ` (first: ${failures.slice(0, 3).join(' | ')})` : ''}`)
console.log(
  `acknowledged writes: ${lastJob.size} users' last profile updates and ${published.length} publishes checked after SIGKILL and restart; lost: ${lost}`,
)
process.exit(lost === 0 && failures.length === 0 ? 0 : 1)

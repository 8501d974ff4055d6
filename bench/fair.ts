// npm run bench:fair — is render work shared fairly? Two accounts on one address make remixes of a demo
// mascot (speed 0.5, a caption, the outline left open) as fast as the server lets them; after a while an
// admin publishes an animation from a Lottie. Reported: the time until the admin's chat app files are
// ready, remixes made and refused (by status), the server's CPU while remixing (scaled to 10 minutes)
// and its RSS. BENCH_SECONDS (default 150) is how long the remixing lasts; BENCH_SERVER_ROOT runs another
// checkout's server (before/after).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startAuthEmulator, stopAuthEmulator } from '../scripts/auth-emulator.mjs'
import { freePortRun } from '../backend/test/support/ports'
import { lottieBytes } from '../backend/test/fixtures/lottie'
import { signedInSession, waitForReady } from './support/server-process'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 150)
/** When the admin publishes, after the remixing started. */
const PUBLISH_AFTER_MS = Math.min(30_000, (SECONDS * 1000) / 4)
const serverRoot = path.resolve(process.env.BENCH_SERVER_ROOT ?? path.join(import.meta.dirname, '..'))
const ADMIN = 'bench-admin@example.com'
const REMIXERS = ['bench-remixer-a@example.com', 'bench-remixer-b@example.com']

const work = mkdtempSync(path.join(tmpdir(), 'wumpus-bench-fair-'))
const emulator = await startAuthEmulator({ dataDir: path.join(work, 'emulator'), port: await freePortRun(3) })
const port = await freePortRun(1)
const base = `http://127.0.0.1:${port}`

const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
  cwd: serverRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    DATA_DIR: path.join(work, 'data'),
    STATIC_DIR: path.join(work, 'static'),
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    ADMIN_EMAILS: ADMIN,
    LOG_LEVEL: 'error',
    SEED_DEMO: 'true',
  },
})

const signIn = (email: string) => signedInSession(emulator.host, base, email, 'Bench')

/** The server process's CPU time (all its threads, the render worker's too) in ms, and its RSS in MB. */
function processUse(): { cpuMs: number; rssMb: number } {
  const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  const ticks = Number(stat[11]) + Number(stat[12])
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]!
  return { cpuMs: ticks * 10, rssMb: Math.round(Number(rss) / 1024) }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

try {
  await waitForReady(base, server)
  const admin = await signIn(ADMIN)
  const remixers = await Promise.all(REMIXERS.map(signIn))
  const gallery = (await (await fetch(`${base}/api/wumpuses?limit=100`)).json()) as Array<{ _id: string; name: string }>
  const mascot = gallery.find((item) => item.name.length > 0)
  if (!mascot) throw new Error('the seeded gallery is empty')
  console.log(`server ready (${serverRoot}); two accounts remix "${mascot.name}" for ${SECONDS} s`)

  const statuses = new Map<number, number>()
  const started = performance.now()
  const before = processUse()
  let peakRssMb = before.rssMb
  const end = started + SECONDS * 1000
  const sampling = setInterval(() => (peakRssMb = Math.max(peakRssMb, processUse().rssMb)), 1000)

  const remixer = async (token: string, who: number) => {
    for (let i = 0; performance.now() < end; i++) {
      // A remix still rendering when the time is up is not waited for (counted as status 0).
      const res = await fetch(`${base}/api/wumpus/${mascot._id}/remix`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ speed: 0.5, caption: { text: `Bench ${who}-${i}`, position: 'bottom' } }),
        signal: AbortSignal.timeout(Math.max(1, Math.ceil(end - performance.now()))),
      }).catch(() => undefined)
      if (!res) {
        statuses.set(0, (statuses.get(0) ?? 0) + 1)
        break
      }
      await res.arrayBuffer()
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      if (res.status !== 201) {
        const retryAfter = Number(res.headers.get('retry-after') ?? 1)
        await sleep(Math.min(Math.max(1, retryAfter) * 1000, Math.max(0, end - performance.now())))
      }
    }
  }

  const publish = async (): Promise<string> => {
    await sleep(PUBLISH_AFTER_MS)
    const data = new FormData()
    data.append('name', 'Bench Publish')
    data.append('description', 'Published while remixes are made')
    data.append('lottie', new Blob([new Uint8Array(lottieBytes({ nm: 'bench-publish' }))]), 'bench.json')
    const publishedAt = performance.now()
    const res = await fetch(`${base}/api/wumpuses`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: data })
    if (res.status !== 201) return `publish refused: ${res.status} ${await res.text()}`
    const { _id } = (await res.json()) as { _id: string }
    const publishSeconds = ((performance.now() - publishedAt) / 1000).toFixed(1)
    // Chat app files are ready once no platform is pending any more; waits until the remixing ends at most.
    while (performance.now() < end) {
      const stickers = (await (await fetch(`${base}/api/wumpus/${_id}/stickers`)).json()) as Array<{ status: string }>
      if (stickers.length > 0 && stickers.every((s) => s.status !== 'pending')) {
        return `${((performance.now() - publishedAt) / 1000).toFixed(1)} s (publish answered in ${publishSeconds} s)`
      }
      await sleep(500)
    }
    return `not ready ${((performance.now() - publishedAt) / 1000).toFixed(0)} s after publishing (publish answered in ${publishSeconds} s)`
  }

  const [adminReady] = await Promise.all([publish(), ...remixers.map((token, who) => remixer(token, who))])
  clearInterval(sampling)
  const after = processUse()
  const seconds = (performance.now() - started) / 1000
  const cpuSeconds = (after.cpuMs - before.cpuMs) / 1000
  const answered = [...statuses].sort(([a], [b]) => a - b)
  console.log(`\nbench:fair (${SECONDS} s of remixing by 2 accounts on one address)`)
  console.log(`admin's chat app files ready: ${adminReady}`)
  console.log(`remix answers: ${answered.map(([status, n]) => `${status}: ${n}`).join(', ')}`)
  console.log(`remixes made: ${statuses.get(201) ?? 0}; refused: ${answered.filter(([s]) => s !== 201).reduce((sum, [, n]) => sum + n, 0)}`)
  console.log(
    `server CPU while remixing: ${cpuSeconds.toFixed(0)} s in ${seconds.toFixed(0)} s (${((cpuSeconds * 600) / seconds).toFixed(0)} s per 10 min)`,
  )
  console.log(`server RSS: ${after.rssMb} MB at the end, ${peakRssMb} MB at most (${before.rssMb} MB before)`)
} finally {
  server.kill('SIGTERM')
  await new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.once('exit', resolve)))
  await stopAuthEmulator(emulator)
  rmSync(work, { recursive: true, force: true })
}

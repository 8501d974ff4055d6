// A submission's way through the real server (issue 37), for each of the first RUNS demo mascots sent as a
// Telegram .tgs: from the POST to the moment a reviewer sees it in the queue with its Lottie to play (the
// preview), and from the admin's Publish to every chat app's file made (the animation's stickers all ready or
// refused with a reason). Embedded store, in-process server, the real render worker.
// Run: npm run bench:submission-flow [RUNS=3]
import { gzipSync } from 'node:zlib'
import { stickersPath } from '../contract/api-paths'
import { submissionDecisionPath, submissionFitPath, submissionQueuePath, SUBMISSIONS_PATH } from '../contract/submission-paths'
import { submissionListSchema, type Submission } from '../contract/submissions'
import { createRouteDeps } from '../backend/src/composition'
import { createLogger } from '../backend/src/logger'
import { demoMascots } from '../backend/src/media/demo/demo-set'
import { listen, openBenchStore, sessionTokenFor } from './support/bench-server'

const RUNS = Number(process.env.RUNS ?? 3)
const bench = await openBenchStore('submissions')
const { store, config } = bench
const deps = createRouteDeps({ config, store, logger: createLogger('error') })
const server = await listen(deps)
const url = server.url

const maker = await sessionTokenFor(bench, 'bench-maker@example.com', 'Bench Maker')
const admin = await sessionTokenFor(bench, 'bench-admin@example.com', 'Bench Admin', 'admin')

async function call(method: string, pathname: string, token: string, body?: BodyInit | object): Promise<Response> {
  const json = body !== undefined && !(body instanceof FormData)
  const res = await fetch(url + pathname, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : (body as BodyInit | undefined),
  })
  if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${await res.text()}`)
  return res
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 20))
const rows: string[] = []
for (const mascot of demoMascots().slice(0, RUNS)) {
  const tgs = gzipSync(JSON.stringify(mascot.lottie))
  const form = new FormData()
  for (const [field, value] of Object.entries({
    name: mascot.name,
    description: mascot.description,
    licence: 'CC-BY-4.0',
    original: 'true',
  }))
    form.append(field, value)
  form.append('emoji', mascot.emoji[0]!)
  form.append('file', new Blob([tgs]), `${mascot.slug}.tgs`)

  const sent = performance.now()
  const { id } = (await (await call('POST', SUBMISSIONS_PATH, maker, form)).json()) as { id: string }
  let queued: Submission | undefined
  while (!queued) {
    const queue = submissionListSchema.parse(await (await call('GET', submissionQueuePath('waiting', { limit: 100 }), admin)).json())
    queued = queue.find((item) => item.id === id)
    if (!queued) await pause()
  }
  await (await call('GET', queued.lottie!, admin)).arrayBuffer()
  const previewMs = performance.now() - sent
  // The queue's fit check (whether each app's file fits), as the reviewer's page asks for it beside the preview.
  const fitStarted = performance.now()
  await (await call('GET', submissionFitPath(id), admin)).json()
  const fitMs = performance.now() - fitStarted

  const published = performance.now()
  const decided = (await (await call('POST', submissionDecisionPath(id), admin, { decision: 'publish', note: '' })).json()) as Submission
  const publishMs = performance.now() - published
  let stickers: Array<{ platform: string; status?: string; file?: unknown }> = []
  for (;;) {
    const answer = (await (await call('GET', stickersPath(decided.wumpusId!), admin)).json()) as
      { stickers?: typeof stickers } | typeof stickers
    stickers = Array.isArray(answer) ? answer : (answer.stickers ?? [])
    if (stickers.length > 0 && stickers.every((sticker) => sticker.status !== 'pending')) break
    await pause()
  }
  const filesMs = performance.now() - published
  rows.push(
    `| ${mascot.name} | ${tgs.length.toLocaleString('en-US')} B | ${previewMs.toFixed(0)} ms | ${fitMs.toFixed(1)} ms | ${publishMs.toFixed(0)} ms | ${(filesMs / 1000).toFixed(1)} s (${stickers.length} files) |`,
  )
}

console.log(
  '| demo mascot as .tgs | size | submit to preview in the queue | fit check request | Publish answered | Publish to every app file |',
)
console.log('|---|---|---|---|---|---|')
for (const row of rows) console.log(row)
server.close()
await deps.derivedMedia.close()
await deps.downloads.close()
await bench.remove()
process.exit(0)

// npm run bench:api — GET /api/wumpuses (first page, 10,000 stored animations, embedded store) against
// a bare Koa endpoint answering the same JSON from memory, measured with autocannon in one run.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'

const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 10

const servers = spawn(process.execPath, ['--import', 'tsx', new URL('./api-servers.ts', import.meta.url).pathname], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const line = await new Promise<string>((resolve) => createInterface({ input: servers.stdout! }).once('line', resolve))
const { realUrl, bareUrl, items, count } = JSON.parse(line)

const measure = async (url: string) => {
  await autocannon({ url, connections: CONNECTIONS, duration: 2 }) // warm-up
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { rps: result.requests.average, p99: result.latency.p99 }
}

const bare = await measure(bareUrl)
const real = await measure(realUrl)
servers.kill('SIGTERM')

console.log(`GET /api/wumpuses first page (${items} of ${count} animations, embedded store), ${CONNECTIONS} connections, ${DURATION} s each`)
console.log(`bare Koa, same JSON from memory: ${bare.rps.toFixed(0)} req/s, p99 ${bare.p99} ms`)
console.log(`real endpoint:                   ${real.rps.toFixed(0)} req/s, p99 ${real.p99} ms`)
console.log(`ratio real/bare: ${(real.rps / bare.rps).toFixed(2)} (aim: at least 0.70)`)

// npm run bench:packs — a pack's ZIP per platform as a visitor gets it from the real server: bytes, time to
// the first byte and to the last, for a 12-sticker pack of the demo mascots (their real platform files),
// and for a personal 200-sticker pack (shared by link) every platform's parts (WhatsApp packs of at most 30, Telegram sets of 120,
// LINE sets of 8 to 24) with the server process's peak memory while each platform's ZIPs stream, to show
// the archives are streamed rather than built in memory; and both packs as custom emoji for Misskey, Mastodon and
// Pleroma / Akkoma (each archive, and Pleroma's manifest, whose first answer reads the whole ZIP for its SHA-256).
import { PERSONAL_PACKS_MAX } from '../contract/limits'
import { packDetailSchema } from '../contract/pack'
import { packDownloadPath, packPath } from '../contract/api-paths'
import { PLATFORMS, type Platform } from '../contract/stickers'
import { createRouteDeps } from '../backend/src/composition'
import { createLogger } from '../backend/src/logger'
import { seedDemoGallery } from '../backend/src/seed'
import type { DerivedFile, Store, WumpusRecord } from '../backend/src/store/port'
import { listen, openBenchStore } from './support/bench-server'

const RUNS = 15
const logger = createLogger('error')
const bench = await openBenchStore('packs')
const { store, config } = bench

console.log('Rendering the demo set and its platform files (about a minute)...')
await seedDemoGallery(store, logger)
const deps = createRouteDeps({ config, store, logger })
const { downloads, derivedMedia } = deps
await derivedMedia.backfill()
const mascots = (await store.wumpuses.list({ limit: 100 })).items

/**
 * The one place bench packs are made: an admin's pack, stored directly. Switch it to a personal pack
 * (POST /api/me/packs with a verified user's session) once that API is in.
 */
/** A person's own pack, shared by link (so the bench downloads it without signing in). */
async function makePack(name: string, wumpusIds: string[]): Promise<string> {
  const pack = await store.packs.insertPersonal(
    { name, description: '', wumpusIds, createdBy: 'bench@example.com', visibility: 'link' },
    { max: PERSONAL_PACKS_MAX },
  )
  if (pack === 'full') throw new Error('the bench account has too many packs')
  return pack.id
}

const twelve = await makePack(
  'Demo Twelve',
  mascots.map((m) => m._id),
)
// 200 stickers: the mascots' files copied onto more animations (each file belongs to one animation).
const many = [...mascots.map((m) => m._id)]
for (let i = mascots.length; i < 200; i++) many.push((await copyOf(store, mascots[i % mascots.length]!, i))._id)
const big = await makePack('Demo Two Hundred', many)

const server = await listen(deps)
const base = server.url

async function fetchZip(url: string): Promise<{ bytes: number; ttfbMs: number; totalMs: number }> {
  const started = performance.now()
  const res = await fetch(base + url)
  const ttfbMs = performance.now() - started
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  let bytes = 0
  for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length
  return { bytes, ttfbMs, totalMs: performance.now() - started }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10)
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`.padStart(11)

async function report(pack: string, platforms: readonly Platform[], runs: number) {
  console.log(`${'platform'.padEnd(16)}${'ZIP'.padStart(11)}${'first byte'.padStart(12)}${'total'.padStart(10)}   (median of ${runs})`)
  for (const platform of platforms) {
    const results = []
    for (let i = 0; i < runs; i++) results.push(await fetchZip(packDownloadPath(pack, platform)))
    console.log(
      `${platform.padEnd(16)}${kb(results[0]!.bytes)}  ${ms(median(results.map((r) => r.ttfbMs)))}${ms(median(results.map((r) => r.totalMs)))}`,
    )
  }
}

/** Every part of every platform the pack fits, each ZIP downloaded `runs` times, with the peak RSS per platform. */
async function reportParts(pack: string, runs: number) {
  const detail = packDetailSchema.parse(await (await fetch(base + packPath(pack))).json())
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`.padStart(10)
  console.log(
    `${'platform'.padEnd(16)}${'part'.padStart(6)}${'stickers'.padStart(10)}${'ZIP'.padStart(11)}${'first byte'.padStart(12)}${'total'.padStart(10)}${'peak RSS'.padStart(10)}   (median of ${runs})`,
  )
  for (const download of detail.downloads) {
    if (!download.fits) {
      console.log(`${download.platform.padEnd(16)}  not offered: ${download.message}`)
      continue
    }
    const parts = download.parts.length > 0 ? download.parts : [{ part: 1, url: download.url, stickers: download.stickers }]
    // RSS sampled while this platform's ZIPs stream (same process: the server runs in this one).
    let peak = process.memoryUsage().rss
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
    const rows: string[] = []
    for (const part of parts) {
      const results = []
      for (let i = 0; i < runs; i++) results.push(await fetchZip(part.url))
      rows.push(
        `${download.platform.padEnd(16)}${`${part.part}/${parts.length}`.padStart(6)}${String(part.stickers).padStart(10)}${kb(results[0]!.bytes)} ${ms(median(results.map((r) => r.ttfbMs)))}${ms(median(results.map((r) => r.totalMs)))}`,
      )
    }
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    for (const [i, row] of rows.entries()) console.log(i === rows.length - 1 ? `${row}${mb(peak)}` : row)
    for (const note of download.notes) console.log(`${''.padEnd(16)}  ${note}`)
  }
}

/** The pack as custom emoji for Misskey, Mastodon and Pleroma / Akkoma: each archive's bytes and times, and the Pleroma manifest's. */
async function reportImports(pack: string, runs: number) {
  const detail = packDetailSchema.parse(await (await fetch(base + packPath(pack))).json())
  console.log(
    `${'server'.padEnd(16)}${'emoji'.padStart(6)}${'archive'.padStart(11)}${'first byte'.padStart(12)}${'total'.padStart(10)}   (median of ${runs})`,
  )
  for (const item of detail.imports ?? []) {
    if (!item.fits) {
      console.log(`${item.format.padEnd(16)}  not offered: ${item.message}`)
      continue
    }
    const urls: [string, string][] = [[item.format, item.url]]
    if (item.pleroma) urls.push(['  manifest.json', item.pleroma.manifestUrl])
    for (const [label, url] of urls) {
      const results = []
      for (let i = 0; i < runs; i++) results.push(await fetchZip(url))
      const count = label === item.format ? String(item.emoji) : ''
      console.log(
        `${label.padEnd(16)}${count.padStart(6)}${kb(results[0]!.bytes)} ${ms(median(results.map((r) => r.ttfbMs)))}${ms(median(results.map((r) => r.totalMs)))}`,
      )
    }
    for (const note of item.notes) console.log(`${''.padEnd(16)}  ${note}`)
  }
}

console.log(`\nA 12-sticker pack of the demo mascots:`)
await report(twelve, PLATFORMS, RUNS)
console.log(`\nThe same pack as custom emoji for community servers:`)
await reportImports(twelve, RUNS)
console.log(`\nThe 200-sticker pack as custom emoji for community servers:`)
await reportImports(big, 3)
console.log(`\nA 200-sticker pack, every platform in its parts:`)
const rssBefore = process.memoryUsage().rss
await reportParts(big, 3)
console.log(
  `server process RSS: ${(rssBefore / 1e6).toFixed(0)} MB before the 200-sticker downloads, ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB after (its ZIPs are tens of MB each)`,
)

server.close()
await downloads.close()
await derivedMedia.close()
await bench.remove()

/** An animation with copies of another's files, platform files included. */
async function copyOf(store: Store, source: WumpusRecord, n: number): Promise<WumpusRecord> {
  const copy = async <T extends { id: string }>(ref: T): Promise<T> => {
    const file = (await store.files.read(ref.id))!
    const info = await store.files.put({
      bytes: file.bytes,
      contentType: file.info.contentType,
      filename: file.info.filename,
      purpose: file.info.purpose,
    })
    return { ...ref, id: info.id }
  }
  const record = await store.wumpuses.insert({
    name: `${source.name} ${n}`,
    description: source.description,
    u_email: source.u_email,
    u_name: source.u_name,
    files: { gif: await copy(source.files.gif), apng: await copy(source.files.apng), lottie: await copy(source.files.lottie) },
  })
  const { previews: _shared, ...derived } = source.derived!
  const exports = await Promise.all(
    derived.exports.map(async (e) => ({ ...e, ...(e.file ? { file: await copy<DerivedFile>(e.file) } : {}) })),
  )
  return (await store.wumpuses.setDerived(record._id, record.files.lottie.id, { ...derived, source: record.files.lottie.id, exports }))!
}

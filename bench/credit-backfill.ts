// npm run bench:credit-backfill — the start-up pass that writes the maker into Lotties stored before the
// gallery did (services/lottie-credit.ts createCreditBackfill), on SQLite: the demo mascots stored as a gallery
// seeded before stop 47 left them (Lotties without meta.a, their Telegram sticker and emoji .tgs made from
// those), then the pass (time, Lottie bytes read, bytes written), then the pass again as every later start
// runs it (nothing to write: each Lottie's bytes say so). COPIES=n stores the mascots n times (default 1).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pickMediaFacts } from '../contract/media-facts'
import type { Platform } from '../contract/stickers'
import { createLogger } from '../backend/src/logger'
import { demoMascots } from '../backend/src/media/demo/demo-set'
import { lottieBytes } from '../backend/src/media/encode/lottie-json'
import { lottieWithAuthor } from '../backend/src/media/encode/lottie-meta'
import { exportForPlatform } from '../backend/src/media/exports/platform-exports'
import { createCreditBackfill } from '../backend/src/services/lottie-credit'
import { stickerMaker } from '../backend/src/services/sticker-credits'
import { openSqliteStore } from '../backend/src/store/sqlite/open-sqlite-store'

const COPIES = Number(process.env.COPIES ?? 1)
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-credits-'))
const store = await openSqliteStore({ dataDir })
const owner = 'studio@wumpus.invalid'
const put = (bytes: Uint8Array, contentType: string, filename: string, purpose: 'animation' | 'derived') =>
  store.files.put({ bytes, contentType, filename, owner, purpose })

try {
  let animations = 0
  for (let copy = 0; copy < COPIES; copy++) {
    for (const mascot of demoMascots()) {
      const bytes = lottieBytes(mascot.lottie)
      const [gif, apng, json] = await Promise.all([
        put(new TextEncoder().encode('GIF89a'), 'image/gif', `${mascot.slug}.gif`, 'animation'),
        put(new TextEncoder().encode('PNG'), 'image/apng', `${mascot.slug}.png`, 'animation'),
        put(bytes, 'application/json', `${mascot.slug}.json`, 'animation'),
      ])
      const record = await store.wumpuses.insert({
        name: mascot.name,
        description: mascot.description,
        u_email: owner,
        u_name: 'Wumpus Studio',
        files: { gif, apng, lottie: { id: json.id, filename: json.filename } },
      })
      const exports = []
      for (const platform of ['telegram', 'telegram-emoji'] as Platform[]) {
        const made = (await exportForPlatform(platform, mascot.lottie)).file!
        const file = await put(made.bytes, made.facts.contentType, `${mascot.slug}.${platform}.tgs`, 'derived')
        exports.push({ platform, file: { id: file.id, filename: file.filename, ...pickMediaFacts(made.facts) }, notes: [] })
      }
      const still = await put(new TextEncoder().encode('PNG'), 'image/png', `${mascot.slug}.still.png`, 'derived')
      const ref = {
        id: still.id,
        filename: still.filename,
        contentType: 'image/png',
        bytes: 3,
        width: 512,
        height: 512,
        frames: 1,
        durationMs: 0,
      }
      await store.wumpuses.setDerived(record._id, json.id, {
        source: json.id,
        version: 3,
        madeAt: new Date(),
        previews: { small: ref, large: ref, still: ref },
        exports,
      })
      animations++
    }
  }
  const logger = createLogger('silent')
  const sizes = async () => {
    let lottie = 0
    let tgs = 0
    for (const record of (await store.wumpuses.list({ limit: 100_000, withSensitive: true })).items) {
      lottie += (await store.files.info(record.files.lottie.id))!.size
      for (const entry of record.derived!.exports) if (entry.file) tgs += (await store.files.info(entry.file.id))!.size
    }
    return { lottie, tgs }
  }
  const before = await sizes()
  const first = await createCreditBackfill({ store, logger }).run()
  const after = await sizes()
  console.log(`${animations} animations stored without meta.a (the demo mascots${COPIES > 1 ? ` x${COPIES}` : ''}), SQLite:`)
  console.log(
    `  first pass: ${first.animations} rewritten in ${first.ms} ms; read ${first.bytesRead} B of Lottie; wrote ${after.lottie} B of Lottie and ${after.tgs} B of .tgs (was ${before.lottie} B and ${before.tgs} B)`,
  )
  for (let run = 1; run <= 3; run++) {
    const again = await createCreditBackfill({ store, logger }).run()
    console.log(
      `  a later start's pass (${run}): ${again.animations} rewritten, ${again.checked} checked in ${again.ms} ms, read ${again.bytesRead} B`,
    )
  }
  // The check alone, by the bytes (as the pass does) and by parsing every Lottie, for the choice in the README.
  const lotties = await Promise.all(
    (await store.wumpuses.list({ limit: 100_000, withSensitive: true })).items.map(async (record) => ({
      bytes: (await store.files.read(record.files.lottie.id))!.bytes,
      maker: stickerMaker(record),
    })),
  )
  const time = (check: (bytes: Uint8Array, maker: string) => unknown) => {
    const started = performance.now()
    for (let i = 0; i < 20; i++) for (const { bytes, maker } of lotties) check(bytes, maker)
    return ((performance.now() - started) / 20).toFixed(2)
  }
  const needle = (bytes: Uint8Array, maker: string) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(`"a":${JSON.stringify(maker)}`)
  console.log(`  checking every Lottie without reading: by the bytes ${time(needle)} ms, by parsing ${time(lottieWithAuthor)} ms`)
} finally {
  await store.close()
  rmSync(dataDir, { recursive: true, force: true })
}

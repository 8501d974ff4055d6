// The setup bench/telegram.ts and bench/discord.ts share: a bench store with the platform's settings, the demo
// set rendered with its platform files (about a minute), the real server listening, and packs of copies of the
// demo mascots whose platform file is a copy of the mascot's.
import { createRouteDeps } from '../../backend/src/composition'
import { createLogger } from '../../backend/src/logger'
import { seedDemoGallery } from '../../backend/src/seed'
import type { StickerExportRecord } from '../../backend/src/store/port'
import { currentDerived } from '../../backend/src/store/records'
import { listen, openBenchStore, type BenchStore } from './bench-server'

export interface PlatformBench {
  bench: BenchStore
  deps: ReturnType<typeof createRouteDeps>
  url: string
  /** A pack of `count` stickers (new animations by `person.email`), each with a copy of a mascot's platform file. */
  makePack(count: number, pack?: { createdBy?: string; visibility?: 'link' }): Promise<string>
  /** Stops the server and the route deps' workers (`stop`: the platform's own), and removes the store. */
  close(stop: Array<{ close(): Promise<void> }>): Promise<void>
}

export async function startPlatformBench(
  name: string,
  env: Record<string, string>,
  platform: StickerExportRecord['platform'],
  person: { email: string; name: string },
  /** More of the mascots' platform files each sticker gets a copy of, when they have one (Telegram's emoji files). */
  alsoPlatforms: Array<StickerExportRecord['platform']> = [],
): Promise<PlatformBench> {
  const logger = createLogger('error')
  const bench = await openBenchStore(name, env)
  const { store, config } = bench
  console.log('Rendering the demo set and its platform files (about a minute)...')
  await seedDemoGallery(store, logger)
  const deps = createRouteDeps({ config, store, logger })
  await deps.derivedMedia.backfill()
  const server = await listen(deps)

  const mascots = (await store.wumpuses.list({ limit: 100 })).items
    .map((record) => ({ record, file: currentDerived(record)?.exports.find((e) => e.platform === platform)?.file }))
    .filter((m) => m.file !== undefined)
  console.log(`${mascots.length} demo mascots have a ${platform} file`)

  /** Copies of the mascot's `alsoPlatforms` files, as its derived media's exports. */
  async function alsoCopied(record: (typeof mascots)[number]['record']): Promise<StickerExportRecord[]> {
    const copies: StickerExportRecord[] = []
    for (const also of alsoPlatforms) {
      const made = currentDerived(record)?.exports.find((e) => e.platform === also)?.file
      if (!made) continue
      const stored = (await store.files.read(made.id))!
      const copy = await store.files.put({
        bytes: stored.bytes,
        contentType: made.contentType,
        filename: made.filename,
        purpose: 'derived',
      })
      copies.push({ platform: also, file: { ...made, id: copy.id }, notes: [] })
    }
    return copies
  }

  async function makePack(count: number, pack: { createdBy?: string; visibility?: 'link' } = {}): Promise<string> {
    const ids: string[] = []
    for (let i = 0; i < count; i++) {
      const { record, file } = mascots[i % mascots.length]!
      const bytes = (await store.files.read(file!.id))!.bytes
      const copy = await store.files.put({ bytes, contentType: file!.contentType, filename: file!.filename, purpose: 'derived' })
      const put = async (ref: { id: string; filename: string }) => {
        const stored = (await store.files.read(ref.id))!
        const info = await store.files.put({ bytes: stored.bytes, contentType: stored.info.contentType, filename: ref.filename })
        return { id: info.id, filename: info.filename }
      }
      const files = { gif: await put(record.files.gif), apng: await put(record.files.apng), lottie: await put(record.files.lottie) }
      const added = await store.wumpuses.insert({
        name: `${record.name} ${i + 1}`,
        description: '',
        files,
        u_email: person.email,
        u_name: person.name,
        emoji: record.emoji,
        keywords: record.keywords,
      })
      await store.wumpuses.setDerived(added._id, files.lottie.id, {
        source: files.lottie.id,
        version: record.derived!.version,
        madeAt: new Date(),
        exports: [{ platform, file: { ...file!, id: copy.id }, notes: [] }, ...(await alsoCopied(record))],
      })
      ids.push(added._id)
    }
    return (await store.packs.insert({ name: `Bench ${count}`, description: '', wumpusIds: ids, createdBy: person.email, ...pack })).id
  }

  return {
    bench,
    deps,
    url: server.url,
    makePack,
    async close(stop) {
      server.close()
      for (const worker of stop) await worker.close()
      await deps.derivedMedia.close()
      await deps.downloads.close()
      await bench.remove()
    },
  }
}

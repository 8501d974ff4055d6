// The rules for the files the server makes from an animation's Lottie (card previews and platform
// exports): when they are made, where they are stored, when they are replaced and removed.
//  - They are made when an animation is published, again when its Lottie changes, and at start for
//    every animation that has none, stale ones (another Lottie) or ones made by older rules.
//  - One animation at a time, in the background: requests never wait for them; cards show the GIF
//    until the previews exist.
//  - They are stored through the store port like every file (purpose 'derived', owned by the
//    uploader) and listed on the record with the facts the platform check read from them; a record
//    only takes them while its Lottie is still the one they were made from.
//  - Files a record no longer lists are removed: the previous set when a new one lands, every one
//    when the animation is deleted.
import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { PLATFORM_RULES, PLATFORMS } from '../../../contract/stickers'
import type { Logger } from '../logger'
import { deriveAnimation, type DerivedMedia as MadeMedia } from '../media/render-pool'
import { derivedFileIds } from '../store/records'
import type { DerivedFile, DerivedMedia, Store, WumpusRecord } from '../store/port'

/**
 * Bump when the previews or exports change, so existing animations get new ones at the next start.
 * 2: Discord and Telegram custom emoji.
 */
export const DERIVED_MEDIA_VERSION = 2

export interface DerivedMediaService {
  /** Makes this animation's derived files if they are missing or stale (queued; resolves when done, never rejects). */
  refresh(id: string): Promise<void>
  /** After an edit: when the Lottie changed, the old derived files go and new ones are made. */
  filesChanged(before: WumpusRecord, after: WumpusRecord): Promise<void>
  /** After a delete: removes the animation's derived files. */
  removed(record: WumpusRecord): Promise<void>
  /** Queues every animation whose derived files are missing, stale or made by older rules; resolves when all are done. */
  backfill(): Promise<{ animations: number; ms: number }>
  /** Resolves once nothing is queued or running. */
  idle(): Promise<void>
  /** Takes no new work and waits for the animation in hand. */
  close(): Promise<void>
}

export interface DerivedMediaDeps {
  store: Store
  logger: Logger
  /** Renders the previews and exports (default: the shared render worker). */
  derive?: (lottie: object) => Promise<MadeMedia>
  /** false: nothing is ever made (tests that do not look at derived files). */
  enabled?: boolean
}

/** Whether the record's derived media were made from its current Lottie (by any version of the rules). */
export function derivedIsCurrent(record: WumpusRecord): record is WumpusRecord & { derived: DerivedMedia } {
  return record.derived !== undefined && record.derived.source === record.files.lottie.id
}

function needsWork(record: WumpusRecord): boolean {
  return !derivedIsCurrent(record) || record.derived.version < DERIVED_MEDIA_VERSION || record.derived.error !== undefined
}

/** The animation's name as a file name stem: `Waving Wumpus` -> `waving-wumpus`. */
export function fileStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return stem || 'wumpus'
}

export function createDerivedMediaService({
  store,
  logger,
  derive = deriveAnimation,
  enabled = true,
}: DerivedMediaDeps): DerivedMediaService {
  let chain: Promise<void> = Promise.resolve()
  const queued = new Map<string, Promise<void>>()
  let closed = false

  function refresh(id: string): Promise<void> {
    if (!enabled || closed) return Promise.resolve()
    const existing = queued.get(id)
    if (existing) return existing
    const job = chain.then(async () => {
      queued.delete(id)
      if (closed) return
      await make(id).catch((error: unknown) => logger.error('making derived media failed', { id, error: String(error) }))
    })
    queued.set(id, job)
    chain = job
    return job
  }

  async function make(id: string): Promise<void> {
    const record = await store.wumpuses.get(id)
    if (!record || !needsWork(record)) return
    const started = performance.now()
    const source = record.files.lottie.id
    const file = await store.files.read(source)
    if (!file) {
      logger.error('the Lottie of an animation is missing', { id, lottie: source })
      return
    }
    let made: MadeMedia
    try {
      made = await derive(JSON.parse(new TextDecoder().decode(file.bytes)) as object)
    } catch (error) {
      if (closed) return
      const message = error instanceof Error ? error.message : String(error)
      logger.error('the Lottie could not be rendered for previews and exports', { id, error: message })
      const failed: DerivedMedia = {
        source,
        version: DERIVED_MEDIA_VERSION,
        madeAt: new Date(),
        error: message,
        exports: PLATFORMS.map((platform) => ({ platform, notes: [`Could not be made: ${message}`] })),
      }
      await settle(record, await store.wumpuses.setDerived(id, source, failed), [])
      return
    }

    const stem = fileStem(record.name)
    const stored: string[] = []
    const put = async (
      bytes: Uint8Array,
      filename: string,
      facts: Omit<DerivedFile, 'id' | 'filename' | 'bytes'>,
    ): Promise<DerivedFile> => {
      const info = await store.files.put({ bytes, contentType: facts.contentType, filename, owner: record.u_email, purpose: 'derived' })
      stored.push(info.id)
      return { id: info.id, filename: info.filename, bytes: info.size, ...facts }
    }
    try {
      const preview = (p: MadeMedia['previews']['small'], filename: string) =>
        put(p.bytes, filename, { contentType: 'image/webp', width: p.width, height: p.height, frames: p.frames, durationMs: p.durationMs })
      const previews = {
        small: await preview(made.previews.small, `${stem}.preview.webp`),
        large: await preview(made.previews.large, `${stem}.preview@2x.webp`),
        still: await preview(made.previews.still, `${stem}.still.webp`),
      }
      const exports = []
      for (const e of made.exports) {
        const f = e.file
        const file = f
          ? await put(f.bytes, `${stem}.${PLATFORM_RULES[e.platform].extension}`, {
              contentType: f.facts.contentType,
              width: f.facts.width,
              height: f.facts.height,
              frames: f.facts.frames,
              durationMs: Math.round(f.facts.durationMs),
            })
          : undefined
        exports.push({ platform: e.platform, ...(file ? { file } : {}), notes: e.notes })
      }
      const derived: DerivedMedia = { source, version: DERIVED_MEDIA_VERSION, madeAt: new Date(), previews, exports }
      await settle(record, await store.wumpuses.setDerived(id, source, derived), stored)
      logger.info('made previews and platform exports', {
        id,
        name: record.name,
        ms: Math.round(performance.now() - started),
        exports: exports
          .filter((e) => e.file)
          .map((e) => e.platform)
          .join(' '),
      })
    } catch (error) {
      // Nothing half-written: files stored for a set the record did not take go.
      await Promise.all(stored.map((fileId) => store.files.delete(fileId).catch(() => false)))
      throw error
    }
  }

  /** After setDerivedMedia: the files of the set the record let go (or of the new set, if it took none) are removed. */
  async function settle(before: WumpusRecord, after: WumpusRecord | undefined, stored: string[]): Promise<void> {
    const keep = new Set(derivedFileIds(after?.derived))
    const drop = after ? derivedFileIds(before.derived) : stored
    await Promise.all(drop.filter((fileId) => !keep.has(fileId)).map((fileId) => store.files.delete(fileId)))
  }

  return {
    refresh,

    async filesChanged(before, after) {
      if (before.files.lottie.id === after.files.lottie.id) return
      if (after.derived) {
        // The old set describes another Lottie: it goes now, so nothing offers it meanwhile.
        const cleared = await store.wumpuses.setDerived(after._id, after.files.lottie.id, null)
        if (cleared) await Promise.all(derivedFileIds(after.derived).map((fileId) => store.files.delete(fileId)))
      }
      void refresh(after._id)
    },

    async removed(record) {
      await Promise.all(derivedFileIds(record.derived).map((fileId) => store.files.delete(fileId)))
    },

    async backfill() {
      const started = performance.now()
      const ids: string[] = []
      let cursor: string | undefined
      do {
        const page = await store.wumpuses.list({ limit: 100, cursor })
        for (const record of page.items) if (needsWork(record)) ids.push(record._id)
        cursor = page.nextCursor
        // A page at a time: requests are answered between pages, even in a gallery of 100,000.
        await yieldToEvents()
      } while (cursor)
      if (ids.length > 0) logger.info('making previews and platform exports', { animations: ids.length })
      await Promise.all(ids.map(refresh))
      const ms = Math.round(performance.now() - started)
      if (ids.length > 0) logger.info('previews and platform exports are ready', { animations: ids.length, ms })
      return { animations: ids.length, ms }
    },

    async idle() {
      while (queued.size > 0) await chain
      await chain
    },

    async close() {
      closed = true
      await chain
    },
  }
}

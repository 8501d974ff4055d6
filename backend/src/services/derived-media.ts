// The rules for the files the server makes from an animation's Lottie (card previews and platform
// exports): when they are made, where they are stored, when they are replaced and removed.
//  - They are made when an animation is published, again when its Lottie changes, and for every
//    animation that has none, stale ones (another Lottie), failed ones or ones made by older rules.
//  - The work is claimed through the store (store.renderJobs) with a lease, renewed while the render
//    runs: with several instances on one store each animation is rendered by one of them, and a job
//    whose instance died is taken over once its lease ends. Instances find work at start (backfill),
//    after a publish or edit (refresh) and, with pollMs, every so often (work left by others).
//  - A failed render is tried again after 1 min, 10 min, 1 h, then every day (failures counted in the
//    store), not at every start; a new Lottie or newer rules start again.
//  - One animation at a time per instance, in the background: requests never wait for them; cards
//    show the GIF until the previews exist. The work asked for is taken by priority (an admin's publish
//    or edit, then people's own remixes, then remakes after an original's edit), round-robin between
//    accounts within a priority (services/render-queue.ts); at most maxQueued are held in memory, the
//    rest stays a render job in the store and is taken by a sweep once the queue is empty.
//  - They are stored through the store port like every file (purpose 'derived', owned by the
//    uploader) and listed on the record with the facts the platform check read from them; a record
//    only takes them while its Lottie is still the one they were made from and the job still this
//    instance's.
//  - An animation whose Lottie (and outlined variant) has the bytes of one made recently on this instance
//    takes copies of that one's files instead of rendering them (services/twin-files.ts).
//  - Files a record no longer lists are removed: the previous set when a new one lands, every one
//    when the animation is deleted, the new one when the record refused it.
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Lottie } from '../../../contract/remix/lottie-walk'
import { applyRecipe } from '../../../contract/remix/recipe'
import { PLATFORM_RULES, PLATFORMS, type Platform } from '../../../contract/stickers'
import type { Logger } from '../logger'
import { pickMediaFacts } from '../../../contract/media-facts'
import { captionFont } from '../media/render/caption-font'
import { inspectMedia } from '../media/inspect/inspect'
import type { MadeFile } from '../media/exports/made-file'
import { deriveAnimation, type MadeMedia } from '../media/render/render-pool'
import { derivedFileIds } from '../store/records'
import type { DerivedFile, DerivedMedia, RenderJob, Store, WumpusRecord } from '../store/port'
import { fileStem } from './file-names'
import { createRenderQueue, type RenderPriority } from './render-queue'
import { createTwinIndex, mayShareFiles, sha256Hex } from './twin-files'

/**
 * Bump when the previews or exports change, so existing animations get new ones (once across the fleet).
 * 2: Discord and Telegram custom emoji.
 * 3: Signal in truecolour within 3 s (an indexed APNG is a still on iPhone), WhatsApp's first frame whole (issue 34):
 *    files made under version 2 break these rules and must not stay on offer.
 */
export const DERIVED_MEDIA_VERSION = 3

/** Between a failed render and the next attempt: after the first failure, the second, the third, then always. */
export const RETRY_DELAYS_MS = [60_000, 10 * 60_000, 3600_000, 24 * 3600_000] as const

/** Whose work a refresh is and how urgent (default: an admin's publish, the account unknown). */
export interface RefreshOptions {
  priority?: RenderPriority
  /** The account the work is for: accounts take turns within a priority. */
  account?: string
}

export interface DerivedMediaService {
  /** Makes this animation's derived files if they are missing or stale and no other instance is (queued; resolves when done, never rejects). */
  refresh(id: string, options?: RefreshOptions): Promise<void>
  /** After an edit: when the Lottie changed, the old derived files go and new ones are made. */
  filesChanged(before: WumpusRecord, after: WumpusRecord, options?: RefreshOptions): Promise<void>
  /** How many animations wait in memory at this priority. */
  waiting(priority: RenderPriority): number
  /** Milliseconds this instance spent making remixes' derived media in the last `windowMs`. */
  remixRenderMs(windowMs: number): number
  /** After a delete: removes the animation's derived files. */
  removed(record: WumpusRecord): Promise<void>
  /** Works through every animation that needs derived media and is due, until none is left to claim; resolves with how many this instance took. */
  backfill(): Promise<{ animations: number; ms: number }>
  /** Resolves once nothing is queued or running. */
  idle(): Promise<void>
  /** Stops polling, takes no new work and waits for the animation in hand (its job is released). */
  close(): Promise<void>
}

export interface DerivedMediaDeps {
  store: Store
  logger: Logger
  /**
   * Renders the previews and exports (default: the shared render worker); `outlined` is the animation with
   * a white outline, for the exports of the platforms that recommend one (a remix whose recipe leaves it open).
   */
  derive?: (lottie: object, options?: { outlined?: unknown }) => Promise<MadeMedia>
  /** false: nothing is ever made (tests that do not look at derived files). */
  enabled?: boolean
  /** How often to look in the store for work another instance published or left (default: never). */
  pollMs?: number
  /** How long a claimed job is this instance's without renewal (default 60 s). */
  leaseMs?: number
  /** How often the lease is renewed while rendering (default 20 s). */
  renewMs?: number
  /** The clock leases and retry times are read on (tests move it). */
  now?: () => Date
  /** Animations asked for that are held in memory at most (default 1000); the rest wait in the store. */
  maxQueued?: number
  /**
   * Judges a Lottie the server made before it is rendered (a remix's outlined variant), as an uploaded
   * one is judged; throws when it does not pass (default: the upload's Lottie checks, media/inspect).
   */
  checkLottie?: (bytes: Uint8Array) => void
}

type Outcome = 'made' | 'failed' | 'stale'

/** Previews and exports as bytes with their facts, rendered (MadeMedia) or copied from a twin. */
interface MediaToStore {
  previews: Record<'small' | 'large' | 'still', MadeFile>
  exports: Array<{ platform: Platform; file?: MadeFile; notes: string[] }>
}

export function createDerivedMediaService({
  store,
  logger,
  derive = deriveAnimation,
  enabled = true,
  pollMs,
  leaseMs = 60_000,
  renewMs = 20_000,
  now = () => new Date(),
  maxQueued = 1000,
  checkLottie = (bytes) => void inspectMedia(bytes, 'lottie'),
}: DerivedMediaDeps): DerivedMediaService {
  /** This instance's name on the jobs it holds. */
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  /** Animations refresh() asked for, with the callers waiting on each. */
  const asked = createRenderQueue<Array<() => void>>(maxQueued)
  /** When and how long this instance rendered remixes' derived media, oldest first. */
  const remixRenders: Array<{ at: number; ms: number }> = []
  /** Callers waiting for a sweep: claiming any due job until none is left. */
  let sweepers: Array<() => void> = []
  let working: Promise<void> | undefined
  let closed = false
  /** Jobs this instance has taken (made or failed), for backfill's report. */
  let taken = 0
  /** Records whose derived media were made recently, by the bytes they were made from. */
  const twins = createTwinIndex()
  const polling = enabled && pollMs ? setInterval(() => void sweep(), pollMs) : undefined
  polling?.unref()

  function wake(): void {
    if (working || closed) return
    working = work().finally(() => {
      working = undefined
      if (asked.size > 0 || sweepers.length > 0) wake()
    })
  }

  /** One job at a time: the animations asked for first, then sweeps. */
  async function work(): Promise<void> {
    while (!closed) {
      const next = asked.take()
      if (next) {
        await attempt(next.key, next)
        for (const done of next.value) done()
      } else if (sweepers.length > 0) {
        if (await attempt()) continue
        const done = sweepers
        sweepers = []
        for (const resolve of done) resolve()
      } else return
    }
  }

  function refresh(id: string, { priority = 'publish', account = '' }: RefreshOptions = {}): Promise<void> {
    if (!enabled || closed) return Promise.resolve()
    return new Promise((resolve) => {
      ask(id, priority, account, [resolve])
      wake()
    })
  }

  /** Queues the animation; what the full queue pushes out is left to a sweep (its callers wait for that). */
  function ask(id: string, priority: RenderPriority, account: string, waiting: Array<() => void>): void {
    asked.get(id)?.value.push(...waiting)
    const out = asked.add({ key: id, priority, account, value: asked.get(id) ? [] : waiting })
    if (out) sweepers.push(...out.value)
  }

  function sweep(): Promise<void> {
    if (!enabled || closed) return Promise.resolve()
    return new Promise((resolve) => {
      sweepers.push(resolve)
      wake()
    })
  }

  /** Claims a due job (this animation's, or any) and works it; answers whether there was one. */
  async function attempt(id?: string, asking?: { priority: RenderPriority; account: string }): Promise<boolean> {
    let job: RenderJob | undefined
    try {
      job = await store.renderJobs.claim({ owner, version: DERIVED_MEDIA_VERSION, leaseMs, now: now(), id })
    } catch (error) {
      logger.error('claiming derived media work failed', { error: String(error) })
      return false
    }
    if (!job) return false
    taken++
    const held = job
    const renewing = setInterval(() => {
      store.renderJobs.renew(held, new Date(now().getTime() + leaseMs)).then(
        (still) => still || logger.info('another instance took over making derived media', { id: held.record._id }),
        (error: unknown) => logger.error('renewing derived media work failed', { id: held.record._id, error: String(error) }),
      )
    }, renewMs)
    renewing.unref()
    let outcome: Outcome
    try {
      outcome = await make(job)
    } catch (error) {
      logger.error('making derived media failed', { id: job.record._id, error: String(error) })
      outcome = closed ? 'stale' : 'failed'
    } finally {
      clearInterval(renewing)
    }
    const delay = RETRY_DELAYS_MS[Math.min(job.failures, RETRY_DELAYS_MS.length - 1)]!
    await store.renderJobs
      .release(job, outcome === 'failed' ? { retryAt: new Date(now().getTime() + delay) } : undefined)
      .catch((error: unknown) => logger.error('releasing derived media work failed', { id: held.record._id, error: String(error) }))
    // The record did not take the media: its Lottie changed while this instance held the job, so an edit's
    // refresh (here or on another instance) found the job taken. Ask again now that it is free.
    if (outcome === 'stale' && !closed && !asked.get(held.record._id)) {
      ask(held.record._id, asking?.priority ?? 'remake', asking?.account ?? held.record.u_email, [])
    }
    return true
  }

  /**
   * Makes and stores the job's derived media. 'failed': to be tried again later; 'stale': the record did
   * not take them (its Lottie changed, or another instance took the job over).
   */
  async function make({ record }: RenderJob): Promise<Outcome> {
    const id = record._id
    const started = performance.now()
    const source = record.files.lottie.id
    const file = await store.files.read(source)
    if (!file) {
      logger.error('the Lottie of an animation is missing', { id, lottie: source })
      return 'failed'
    }
    let made: MediaToStore
    let key: string
    let twinId: string | undefined
    try {
      const outlined = await outlinedRemix(record)
      key = `${file.info.sha256} ${outlined ? sha256Hex(JSON.stringify(outlined)) : '-'}`
      const copied = await twinMedia(key, record)
      twinId = copied?.twinId
      made =
        copied?.media ?? (await derive(JSON.parse(new TextDecoder().decode(file.bytes)) as object, outlined ? { outlined } : undefined))
    } catch (error) {
      if (record.remix) spentOnRemix(performance.now() - started)
      if (closed) return 'stale'
      const message = error instanceof Error ? error.message : String(error)
      logger.error('the Lottie could not be rendered for previews and exports', { id, error: message })
      const failed: DerivedMedia = {
        source,
        version: DERIVED_MEDIA_VERSION,
        madeAt: new Date(),
        error: message,
        exports: PLATFORMS.map((platform) => ({ platform, notes: [`Could not be made: ${message}`] })),
      }
      const after = await store.wumpuses.setDerived(id, source, failed, { leaseOwner: owner })
      await settle(record, after, [])
      return after ? 'failed' : 'stale'
    }
    const stem = fileStem(record.name)
    const stored: string[] = []
    let after: WumpusRecord | undefined
    const put = async ({ bytes, facts }: MadeFile, filename: string): Promise<DerivedFile> => {
      const info = await store.files.put({ bytes, contentType: facts.contentType, filename, owner: record.u_email, purpose: 'derived' })
      stored.push(info.id)
      return { id: info.id, filename: info.filename, ...pickMediaFacts(facts), durationMs: Math.round(facts.durationMs) }
    }
    try {
      const previews = {
        small: await put(made.previews.small, `${stem}.preview.webp`),
        large: await put(made.previews.large, `${stem}.preview@2x.webp`),
        still: await put(made.previews.still, `${stem}.still.webp`),
      }
      const exports = []
      for (const e of made.exports) {
        const file = e.file ? await put(e.file, `${stem}.${PLATFORM_RULES[e.platform].extension}`) : undefined
        exports.push({ platform: e.platform, ...(file ? { file } : {}), notes: e.notes })
      }
      const derived: DerivedMedia = { source, version: DERIVED_MEDIA_VERSION, madeAt: new Date(), previews, exports }
      after = await store.wumpuses.setDerived(id, source, derived, { leaseOwner: owner })
    } catch (error) {
      // Nothing half-written: files stored for a set the record did not take go.
      await Promise.all(stored.map((fileId) => store.files.delete(fileId).catch(() => false)))
      throw error
    }
    // Outside the try: once the record lists the new files, a failure to remove the old ones must not remove them.
    await settle(record, after, stored).catch((error: unknown) =>
      logger.error('removing replaced derived files failed', { id, error: String(error) }),
    )
    if (record.remix && !twinId) spentOnRemix(performance.now() - started)
    if (!after) return 'stale'
    twins.remember(key, id)
    logger.info('made previews and platform exports', {
      id,
      name: record.name,
      ms: Math.round(performance.now() - started),
      ...(twinId ? { copiedFrom: twinId } : {}),
      exports: after.derived?.exports
        .filter((e) => e.file)
        .map((e) => e.platform)
        .join(' '),
    })
    return 'made'
  }

  /**
   * Copies of the previews and exports of a record made from the same bytes (`key`: the Lottie's and the
   * outlined variant's), while that record still has them, made by these rules, and `record`'s owner may
   * take them (twin-files.ts); undefined when there is none.
   */
  async function twinMedia(key: string, record: WumpusRecord): Promise<{ media: MediaToStore; twinId: string } | undefined> {
    const twinId = twins.get(key)
    if (!twinId || twinId === record._id) return undefined
    const twin = await store.wumpuses.get(twinId)
    const derived = twin?.derived
    if (!twin || !derived?.previews || derived.error || derived.version !== DERIVED_MEDIA_VERSION) return undefined
    if (derived.source !== twin.files.lottie.id || !mayShareFiles(twin, record.u_email)) return undefined
    if ((await store.files.info(derived.source))?.sha256 !== key.split(' ')[0]) return undefined
    const copy = async (file: DerivedFile) => {
      const read = await store.files.read(file.id)
      if (!read) throw new Error('gone')
      return { bytes: read.bytes, facts: pickMediaFacts(file) }
    }
    try {
      const { small, large, still } = derived.previews
      const media: MediaToStore = {
        previews: { small: await copy(small), large: await copy(large), still: await copy(still) },
        exports: [],
      }
      for (const e of derived.exports)
        media.exports.push({ platform: e.platform, notes: e.notes, ...(e.file ? { file: await copy(e.file) } : {}) })
      return { media, twinId }
    } catch {
      // A file of the twin went meanwhile (it was edited or deleted): render instead.
      return undefined
    }
  }

  /**
   * For a remix whose recipe does not say whether to outline: the same edit with the outline, made from
   * the original's Lottie its files came from (undefined when that is gone: the remix is being made again).
   */
  async function outlinedRemix(record: WumpusRecord): Promise<object | undefined> {
    if (!record.remix || record.remix.recipe.outline !== undefined) return undefined
    const original = await store.files.read(record.remix.source)
    if (!original) return undefined
    const lottie = JSON.parse(new TextDecoder().decode(original.bytes)) as Lottie
    const outlined = applyRecipe(lottie, record.remix.recipe, { font: captionFont(), outline: true })
    // Rendered like any Lottie: it passes the caps an upload does (the outline adds layers and points).
    checkLottie(new TextEncoder().encode(JSON.stringify(outlined)))
    return outlined
  }

  function spentOnRemix(ms: number): void {
    const at = now().getTime()
    remixRenders.push({ at, ms })
    // A day's worth at most: the budget looks back minutes, not days.
    while (remixRenders.length > 0 && remixRenders[0]!.at < at - 24 * 3600_000) remixRenders.shift()
  }

  /** After setDerivedMedia: the files of the set the record let go (or of the new set, if it took none) are removed. */
  async function settle(before: WumpusRecord, after: WumpusRecord | undefined, stored: string[]): Promise<void> {
    const keep = new Set(derivedFileIds(after?.derived))
    const drop = after ? derivedFileIds(before.derived) : stored
    await Promise.all(drop.filter((fileId) => !keep.has(fileId)).map((fileId) => store.files.delete(fileId)))
  }

  return {
    refresh,

    waiting: (priority) => asked.waiting(priority),

    remixRenderMs(windowMs) {
      const since = now().getTime() - windowMs
      return remixRenders.reduce((sum, render) => (render.at >= since ? sum + render.ms : sum), 0)
    },

    async filesChanged(before, after, options) {
      // A credit-only edit remade them with its Lottie (services/lottie-credit.ts): nothing to render.
      if (before.files.lottie.id === after.files.lottie.id || after.derived?.source === after.files.lottie.id) return
      if (after.derived) {
        // The old set describes another Lottie: it goes now, so nothing offers it meanwhile.
        const cleared = await store.wumpuses.setDerived(after._id, after.files.lottie.id, null)
        if (cleared) await Promise.all(derivedFileIds(after.derived).map((fileId) => store.files.delete(fileId)))
      }
      void refresh(after._id, options)
    },

    async removed(record) {
      await Promise.all(derivedFileIds(record.derived).map((fileId) => store.files.delete(fileId)))
    },

    async backfill() {
      const started = performance.now()
      const before = taken
      await sweep()
      const animations = taken - before
      const ms = Math.round(performance.now() - started)
      if (animations > 0) logger.info('previews and platform exports are ready', { animations, ms })
      return { animations, ms }
    },

    async idle() {
      while (working) await working
    },

    async close() {
      closed = true
      clearInterval(polling)
      while (working) await working
      // Callers still waiting get their answer: nothing more is made here.
      for (const done of asked
        .drain()
        .flatMap((entry) => entry.value)
        .concat(sweepers))
        done()
      sweepers = []
    },
  }
}

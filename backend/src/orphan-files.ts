import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { fileIdOfPath } from '../../contract/api-paths'
import type { Logger } from './logger'
import type { Store, StoredFile } from './store/port'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Removes uploads nobody used: animation files no record refers to, derived files (previews and
 * platform exports) no record's derived media lists, and profile images no user's photo or cover
 * points at, once they are a day old (an admin may still be filling in the form). Files without a
 * purpose (from before purposes existed) are left alone.
 */
export async function sweepOrphanFiles(store: Store, options: { now?: number; minAgeMs?: number; batch?: number } = {}): Promise<number> {
  const createdBefore = new Date((options.now ?? Date.now()) - (options.minAgeMs ?? DAY_MS))
  const usedImages = new Set<string>()
  for (const user of await store.users.list()) {
    for (const url of [user.photo, user.cover]) {
      const id = fileIdOfPath(url)
      if (id) usedImages.add(id)
    }
  }
  let removed = 0
  const { listSweepCandidates } = store.files
  if (listSweepCandidates) {
    // The store answers each page's candidates in one query.
    let after: Pick<StoredFile, 'createdAt' | 'id'> | undefined
    for (;;) {
      const page = await listSweepCandidates.call(store.files, { createdBefore, limit: options.batch ?? 2000, after })
      if (!page.last) return removed
      for (const file of page.candidates) {
        if (file.purpose === 'image' && usedImages.has(file.id)) continue
        if (await store.files.delete(file.id)) removed++
      }
      after = page.last
      await yieldToEvents()
    }
  }
  let after: StoredFile | undefined
  for (;;) {
    const page = await store.files.list({ createdBefore, limit: options.batch ?? 500, after })
    if (page.length === 0) return removed
    for (const file of page) {
      const orphan =
        ((file.purpose === 'animation' || file.purpose === 'derived') && !(await store.wumpuses.usesFile(file.id))) ||
        (file.purpose === 'image' && !usedImages.has(file.id))
      if (orphan && (await store.files.delete(file.id))) removed++
    }
    after = page.at(-1)
    // A page at a time: requests go on between pages (a folder may hold a million files).
    await yieldToEvents()
  }
}

const COUNTS_JOB = 'driftedCounts'

/** Bytes without a file record this old are a crash's leftovers, not a write between its two steps. */
const STRAY_BLOB_AGE_MS = 60 * 60 * 1000

/**
 * Sweeps at start and then every `intervalMs`: unused uploads, stored bytes that never got a file
 * record, and sessions past their end or idle for `sessionIdleSeconds`; on a store that has it, corrects
 * tag and emoji counts that drifted (logged on a line of their own). In the background: a start's
 * readiness does not wait for it. Answers a function that stops it.
 */
export function startOrphanSweeper(
  store: Store,
  logger: Logger,
  { sessionIdleSeconds, intervalMs = 60 * 60 * 1000 }: { sessionIdleSeconds: number; intervalMs?: number },
): () => void {
  // Each job on its own: one that fails (a database error, a timeout) is logged and the others still run.
  const jobs: Array<[name: string, run: () => Promise<number>]> = [
    ['unusedUploads', () => sweepOrphanFiles(store)],
    ['strayBlobs', () => store.files.sweepStrayBlobs(new Date(Date.now() - STRAY_BLOB_AGE_MS))],
    ['endedSessions', () => store.sessions.deleteExpired(new Date(), { lastUsedBefore: new Date(Date.now() - sessionIdleSeconds * 1000) })],
  ]
  const { correctCounts } = store.wumpuses
  if (correctCounts) jobs.push([COUNTS_JOB, () => correctCounts.call(store.wumpuses)])
  const sweep = async () => {
    const swept: Record<string, number> = {}
    for (const [name, run] of jobs) {
      try {
        const count = await run()
        if (count > 0) swept[name] = count
      } catch (error) {
        logger.error('sweeping failed', { job: name, error: String(error) })
      }
    }
    const { [COUNTS_JOB]: corrected, ...removed } = swept
    if (corrected) logger.info('tag and emoji counts corrected', { corrected })
    if (Object.keys(removed).length > 0) logger.info('swept', removed)
  }
  void sweep()
  const timer = setInterval(sweep, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * Download counts per animation (the popular order and the detail page's count).
 *
 * A download is a file GET with ?download=1 (the app's download buttons ask for files that way). It counts
 * for the animation the file belongs to, at most once per visitor and animation in a window (a day): a
 * visitor is their network address as the HTTP edge keys it (an IPv6 address by its /64, which one host can
 * rotate through: http/client-address.ts), so reloading or scripting one address does not inflate counts.
 * Nothing about visitors is stored: the window remembers keyed hashes whose random key lives in memory only
 * and is replaced with each window, so earlier marks cannot be tied to anyone. Counts are added to the store in batches, off the request path.
 */
import { createHmac, randomBytes } from 'node:crypto'
import type { Logger } from '../logger'
import type { Store } from '../store/port'

export interface DownloadCounterOptions {
  logger: Logger
  /** How often pending counts go to the store (ms). */
  flushEveryMs?: number
  /** How long one visitor's download of an animation counts once (ms). */
  windowMs?: number
  /** At most this many marks are remembered; a full window starts over early. */
  maxMarks?: number
  /** Pending animations that make a flush start at once. */
  maxPending?: number
}

export interface DownloadCounter {
  /**
   * Counts a download of a stored file for the animation it belongs to (files of no animation are not
   * counted); answers that animation's id when this download counted. Never throws: counting must not fail a download.
   */
  countFile(fileId: string, visitor: string): Promise<string | undefined>
  /** Counts one download of an animation by a visitor (their address key); answers whether it counted. */
  count(wumpusId: string, visitor: string): boolean
  /** Adds the pending counts to the store (one batch at a time); on failure they wait for the next flush. */
  flush(): Promise<void>
  /** Stops the timer and stores what is pending. */
  close(): Promise<void>
}

export function createDownloadCounter(store: Store, options: DownloadCounterOptions): DownloadCounter {
  return new DownloadCounts(store, options)
}

class DownloadCounts implements DownloadCounter {
  private pending = new Map<string, number>()
  private marks = new Set<string>()
  private key = randomBytes(32)
  private windowStart = Date.now()
  private flushing: Promise<void> | undefined
  private readonly timer: NodeJS.Timeout
  private readonly logger: Logger
  private readonly windowMs: number
  private readonly maxMarks: number
  private readonly maxPending: number

  constructor(
    private readonly store: Store,
    options: DownloadCounterOptions,
  ) {
    this.logger = options.logger
    this.windowMs = options.windowMs ?? 24 * 3600 * 1000
    this.maxMarks = options.maxMarks ?? 100_000
    this.maxPending = options.maxPending ?? 1000
    this.timer = setInterval(() => void this.flush(), options.flushEveryMs ?? 5000)
    this.timer.unref()
  }

  async countFile(fileId: string, visitor: string): Promise<string | undefined> {
    try {
      const wumpusId = await this.store.wumpuses.findByFile(fileId)
      return wumpusId && this.count(wumpusId, visitor) ? wumpusId : undefined
    } catch (error) {
      this.logger.error('could not count a download', { error: String(error) })
      return undefined
    }
  }

  count(wumpusId: string, visitor: string): boolean {
    if (Date.now() - this.windowStart >= this.windowMs || this.marks.size >= this.maxMarks) this.startWindow()
    const mark = createHmac('sha256', this.key).update(visitor).update('\0').update(wumpusId).digest('base64url').slice(0, 22)
    if (this.marks.has(mark)) return false
    this.marks.add(mark)
    this.pending.set(wumpusId, (this.pending.get(wumpusId) ?? 0) + 1)
    if (this.pending.size >= this.maxPending) void this.flush()
    return true
  }

  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.pending.size === 0) return
    const batch = this.pending
    this.pending = new Map()
    this.flushing = this.store.wumpuses.addDownloads(batch).catch((error: unknown) => {
      for (const [id, count] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + count)
      this.logger.error('could not store download counts', { animations: batch.size, error: String(error) })
    })
    try {
      await this.flushing
    } finally {
      this.flushing = undefined
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }

  private startWindow(): void {
    this.marks = new Set()
    this.key = randomBytes(32)
    this.windowStart = Date.now()
  }
}

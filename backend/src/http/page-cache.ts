import { createHash } from 'node:crypto'
import type { Context } from 'koa'
import { matchesEtag } from './etag'
import type { Store } from '../store/port'

export interface CachedPage {
  /**
   * A string, not a Buffer: strings live on the JS heap and die young, where many short-lived Buffers add
   * up as external memory and bring full garbage collections (long pauses) every few seconds.
   */
  body: string
  etag: string
  headers: Record<string, string>
}

/** What a page was made from: the animations as written, and the download counts. */
export interface PageRevision {
  records: number
  downloads: number
}

/** Whether a cached page (by its key: a path and query) lists in an order by download counts. */
export const sortsByDownloads = (key: string) => new URLSearchParams(key.split('?')[1] ?? '').get('sort') === 'popular'

/**
 * How long a page may go on showing download counts older than the store's: counts reach the store every
 * few seconds, and dropping every page at each batch would leave the cache nearly useless under load.
 */
export const COUNTS_MAX_AGE_MS = 30_000

/**
 * Serialized list pages, keyed by query string, dropped whenever the store's revision moves; pages the
 * `dependsOnDownloads` option names (an order by download counts) also as soon as counts were added,
 * other pages once they are COUNTS_MAX_AGE_MS old and counts were added since.
 * The SQLite store sees every write (one server per data folder), so its pages stay valid until one
 * happens; with MongoDB other instances may write too, so pages there also expire after `sharedMaxAgeMs`.
 */
export class PageCache {
  private readonly pages = new Map<string, CachedPage & { storedAt: number; downloads: number; exactCounts: boolean }>()
  private records: number
  private readonly maxAgeMs: number
  private readonly dependsOnDownloads: (key: string) => boolean

  constructor(
    private readonly store: Store,
    private readonly options: { maxEntries: number; sharedMaxAgeMs: number; dependsOnDownloads?: (key: string) => boolean },
  ) {
    this.records = store.wumpuses.revision()
    this.maxAgeMs = store.kind === 'sqlite' ? Infinity : options.sharedMaxAgeMs
    this.dependsOnDownloads = options.dependsOnDownloads ?? (() => false)
  }

  /** The store's revision now: take it before computing a page to `set`. */
  revision(): PageRevision {
    return { records: this.store.wumpuses.revision(), downloads: this.store.wumpuses.downloadsRevision() }
  }

  get(key: string): CachedPage | undefined {
    this.dropIfStale()
    const page = this.pages.get(key)
    const age = page ? Date.now() - page.storedAt : 0
    const countsMoved = page !== undefined && page.downloads !== this.store.wumpuses.downloadsRevision()
    if (page && (age > this.maxAgeMs || (countsMoved && (page.exactCounts || age > COUNTS_MAX_AGE_MS)))) {
      this.pages.delete(key)
      return undefined
    }
    return page
  }

  /** The cached page, or computes (as JSON text) and keeps it. */
  async getOrCompute(key: string, compute: () => Promise<{ json: string; headers: Record<string, string> }>): Promise<CachedPage> {
    const cached = this.get(key)
    if (cached) return cached
    const revision = this.revision()
    const { json, headers } = await compute()
    return this.set(key, revision, json, headers)
  }

  /**
   * Answers a JSON list from the cache, or computes, keeps and answers it: with its headers, an ETag,
   * `Cache-Control: no-cache` and 304 when the client already has it.
   */
  async send(ctx: Context, key: string, compute: () => Promise<{ json: string; headers: Record<string, string> }>): Promise<void> {
    const page = await this.getOrCompute(key, compute)
    ctx.set(page.headers)
    ctx.set('Cache-Control', 'no-cache')
    ctx.etag = page.etag
    if (matchesEtag(ctx.get('If-None-Match'), page.etag)) {
      ctx.status = 304
      return
    }
    ctx.type = 'application/json; charset=utf-8'
    ctx.body = page.body
  }

  /** Stores a page computed at `revision`; a write that happened meanwhile makes it worthless. */
  set(key: string, revision: PageRevision, body: string, headers: Record<string, string>): CachedPage {
    const exactCounts = this.dependsOnDownloads(key)
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`
    // The same object is kept and answered: callers key what they know of a page by it (script hashes).
    const page = { body, headers, etag, storedAt: Date.now(), downloads: revision.downloads, exactCounts }
    this.dropIfStale()
    if (revision.records !== this.records) return page
    if (exactCounts && revision.downloads !== this.store.wumpuses.downloadsRevision()) return page
    if (this.pages.size >= this.options.maxEntries) this.pages.delete(this.pages.keys().next().value!)
    this.pages.set(key, page)
    return page
  }

  private dropIfStale() {
    const current = this.store.wumpuses.revision()
    if (current !== this.records) {
      this.pages.clear()
      this.records = current
    }
  }
}

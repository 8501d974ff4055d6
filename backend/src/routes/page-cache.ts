import { createHash } from 'node:crypto'
import type { Store } from '../store/port'

export interface CachedPage {
  body: Buffer
  etag: string
  headers: Record<string, string>
}

/**
 * Serialized list pages, keyed by query string, dropped whenever the store's revision moves.
 * The embedded store sees every write, so its pages stay valid until one happens; with MongoDB other
 * instances may write too, so pages there also expire after `maxAgeMs`.
 */
export class PageCache {
  private readonly pages = new Map<string, CachedPage & { storedAt: number }>()
  private revision: number

  constructor(
    private readonly store: Store,
    private readonly options: { maxEntries: number; maxAgeMs: number },
  ) {
    this.revision = store.wumpusRevision()
  }

  get(key: string): CachedPage | undefined {
    this.dropIfStale()
    const page = this.pages.get(key)
    if (page && Date.now() - page.storedAt > this.options.maxAgeMs) {
      this.pages.delete(key)
      return undefined
    }
    return page
  }

  /** Stores a page computed at `revision`; a write that happened meanwhile makes it worthless. */
  set(key: string, revision: number, body: Buffer, headers: Record<string, string>): CachedPage {
    const page = { body, headers, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, storedAt: Date.now() }
    this.dropIfStale()
    if (revision !== this.revision) return page
    if (this.pages.size >= this.options.maxEntries) this.pages.delete(this.pages.keys().next().value!)
    this.pages.set(key, page)
    return page
  }

  private dropIfStale() {
    const current = this.store.wumpusRevision()
    if (current !== this.revision) {
      this.pages.clear()
      this.revision = current
    }
  }
}

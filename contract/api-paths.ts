/** API paths the app, the service worker and the server agree on. */
import { PAGE_SIZE_DEFAULT } from './limits'
import type { ListSort } from './search'

/** What narrows or orders the gallery list (the home page's search). */
export interface GalleryListFilter {
  q?: string
  tag?: string
  sort?: ListSort
}

/**
 * One page of the gallery: `GET /api/wumpuses`. Keys always come in the same order, so the same page
 * has the same URL everywhere (offline copies, server-rendered answers). The first page has no cursor.
 */
export function wumpusListPath({ limit = PAGE_SIZE_DEFAULT, cursor, q, tag, sort }: GalleryListFilter & { limit?: number; cursor?: string | null } = {}): string {
  const query = new URLSearchParams({ limit: String(limit) })
  if (q) query.set('q', q)
  if (tag) query.set('tag', tag)
  if (sort) query.set('sort', sort)
  if (cursor) query.set('cursor', cursor)
  return `/api/wumpuses?${query}`
}

/** The most used tags with their counts: `GET /api/tags`. */
export function tagListPath(limit: number): string {
  return `/api/tags?limit=${limit}`
}

/** One page of packs, newest first: `GET /api/packs`. */
export function packListPath({ limit = PAGE_SIZE_DEFAULT, cursor }: { limit?: number; cursor?: string | null } = {}): string {
  const query = new URLSearchParams({ limit: String(limit) })
  if (cursor) query.set('cursor', cursor)
  return `/api/packs?${query}`
}

/** One pack with its stickers and downloads: `GET /api/packs/{id}`. */
export function packPath(id: string): string {
  return `/api/packs/${encodeURIComponent(id)}`
}

/** One platform's ZIP of a pack: `GET /api/packs/{id}/download/{platform}`. */
export function packDownloadPath(id: string, platform: string): string {
  return `${packPath(id)}/download/${platform}`
}

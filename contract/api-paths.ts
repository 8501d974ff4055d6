/** API paths the app, the service worker and the server agree on. */
import { PAGE_SIZE_DEFAULT } from './limits'

/** One page of the gallery: `GET /api/wumpuses`. The first page has no cursor. */
export function wumpusListPath({ limit = PAGE_SIZE_DEFAULT, cursor }: { limit?: number; cursor?: string | null } = {}): string {
  const query = new URLSearchParams({ limit: String(limit) })
  if (cursor) query.set('cursor', cursor)
  return `/api/wumpuses?${query}`
}

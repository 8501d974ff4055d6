import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { PAGE_SIZE_DEFAULT, TOTAL_COUNT_HEADER } from '../../../contract/limits'
import type { Wumpus } from '../../../contract/wumpus'
import { apiGet, apiRequest, trusted } from '../../lib/api-client'

export interface WumpusPage {
  items: Wumpus[]
  /** All items on the server, from X-Total-Count. */
  total: number
  /** Cursor of the next page, from the Link header; null on the last page. */
  nextCursor: string | null
}

export async function fetchWumpusPage(cursor: string | null, signal?: AbortSignal): Promise<WumpusPage> {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE_DEFAULT) })
  if (cursor) query.set('cursor', cursor)
  const { data, headers } = await apiRequest(`/api/wumpuses?${query}`, trusted<Wumpus[]>(), { signal })
  const total = Number(headers.get(TOTAL_COUNT_HEADER))
  return {
    items: data,
    total: Number.isFinite(total) ? total : data.length,
    nextCursor: nextCursorFromLink(headers.get('Link')),
  }
}

/** Reads the cursor of the rel="next" target of a Link header, e.g. `</api/wumpuses?limit=24&cursor=X>; rel="next"`. */
export function nextCursorFromLink(link: string | null): string | null {
  if (!link) return null
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim())
    if (!match?.[1] || !/\brel\s*=\s*"?next"?/.test(match[2] ?? '')) continue
    return new URL(match[1], 'http://base.invalid').searchParams.get('cursor')
  }
  return null
}

export const wumpusListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['wumpuses', 'list'],
    queryFn: ({ pageParam, signal }) => fetchWumpusPage(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

export const wumpusQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['wumpuses', 'detail', id],
    queryFn: ({ signal }) => apiGet(`/api/wumpus/${encodeURIComponent(id)}`, trusted<Wumpus>(), { signal }),
  })

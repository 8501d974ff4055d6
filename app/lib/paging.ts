// Lists the API pages by cursor: each answer is one page, with the total in X-Total-Count and the next page
// in the Link header (`</api/wumpuses?limit=24&cursor=X>; rel="next"`). Every paged list reads them here.
import { LINK_HEADER, TOTAL_COUNT_HEADER } from '../../contract/limits'
import { apiRequestWithHeaders, type ResponseParser } from './api-client'
import { OFFLINE_COPY_HEADER } from './offline-copy'

export interface Page<T> {
  items: T[]
  /** All items on the server, from X-Total-Count (without it, this page's). */
  total: number
  /** Cursor of the next page, from the Link header; null on the last page. */
  nextCursor: string | null
  /** Answered by the service worker from its IndexedDB copy (the network failed). */
  fromOfflineCopy: boolean
}

/**
 * A page that came from the offline copy while the browser says it is online (the network came back a
 * moment after the refetch) is asked for again shortly, until the server answers.
 */
const RETRY_OFFLINE_COPY_MS = 2000

/** GET of one page of a list, checked with the parser. */
export async function fetchPage<T>(path: string, parser: ResponseParser<T[]>, signal?: AbortSignal): Promise<Page<T>> {
  const { data, headers } = await apiRequestWithHeaders(path, parser, { signal })
  return pageFrom(data, headers)
}

/** A page from a list answer and its paging headers. */
export function pageFrom<T>(items: T[], headers: Headers): Page<T> {
  const total = Number(headers.get(TOTAL_COUNT_HEADER))
  return {
    items,
    total: Number.isFinite(total) && headers.has(TOTAL_COUNT_HEADER) ? total : items.length,
    nextCursor: nextCursorFromLink(headers.get(LINK_HEADER)),
    fromOfflineCopy: headers.get(OFFLINE_COPY_HEADER) === '1',
  }
}

/** refetchInterval for paged lists: retry pages served from the offline copy once the browser is online. */
export function retryOfflineCopies(query: { state: { data?: { pages: Array<{ fromOfflineCopy: boolean }> } } }): number | false {
  // No navigator when the page is rendered on the server: nothing to retry there.
  const online = typeof navigator !== 'undefined' && navigator.onLine
  return online && query.state.data?.pages.some((page) => page.fromOfflineCopy) ? RETRY_OFFLINE_COPY_MS : false
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

import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { emojiListPath, stickersPath, tagListPath, wumpusListPath, wumpusPath } from '../../../contract/api-paths'
import { TOTAL_COUNT_HEADER } from '../../../contract/limits'
import type { StickerExport } from '../../../contract/stickers'
import type { EmojiCount, TagCount, Wumpus } from '../../../contract/wumpus'
import { apiRequest, apiRequestWithHeaders, trusted } from '../../lib/api-client'
import { OFFLINE_COPY_HEADER } from '../../lib/offline-copy'
import { forgetOnSignOutWhen, keepOnSignOut } from '../../lib/query-client'
import type { GallerySearch } from './gallery-search'

export interface WumpusPage {
  items: Wumpus[]
  /** All items on the server, from X-Total-Count. */
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

export async function fetchWumpusPage(search: GallerySearch, cursor: string | null, signal?: AbortSignal): Promise<WumpusPage> {
  const { data, headers } = await apiRequestWithHeaders(wumpusListPath({ ...search, cursor }), trusted<Wumpus[]>(), { signal })
  return wumpusPageFrom(data, headers)
}

/** A page of animations from a list answer and its paging headers. */
export function wumpusPageFrom(items: Wumpus[], headers: Headers): WumpusPage {
  const total = Number(headers.get(TOTAL_COUNT_HEADER))
  return {
    items,
    total: Number.isFinite(total) && headers.has(TOTAL_COUNT_HEADER) ? total : items.length,
    nextCursor: nextCursorFromLink(headers.get('Link')),
    fromOfflineCopy: headers.get(OFFLINE_COPY_HEADER) === '1',
  }
}

/** refetchInterval for paged lists: retry pages served from the offline copy once the browser is online. */
export function retryOfflineCopies(query: { state: { data?: { pages: WumpusPage[] } } }): number | false {
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

/** Every query key of animations and tags; invalidate `all` after a write. */
export const wumpusKeys = {
  all: ['wumpuses'] as const,
  lists: () => [...wumpusKeys.all, 'list'] as const,
  list: (search: GallerySearch) => [...wumpusKeys.lists(), search] as const,
  details: () => [...wumpusKeys.all, 'detail'] as const,
  detail: (id: string) => [...wumpusKeys.details(), id] as const,
  stickers: (id: string) => [...wumpusKeys.all, 'stickers', id] as const,
}

/** The counted lists (tags and emoji in use): invalidating `all` after a write refreshes both. */
export const tagKeys = {
  all: ['tags'] as const,
  top: (limit: number) => [...tagKeys.all, limit] as const,
  emoji: (limit: number) => [...tagKeys.all, 'emoji', limit] as const,
}

// The gallery and animation details are public: they stay cached across a sign-out, except remixes (one's own).
keepOnSignOut(wumpusKeys.lists(), wumpusKeys.details())
forgetOnSignOutWhen((data) => typeof (data as Partial<Wumpus> | undefined)?.remixOf === 'string')

/** The gallery, or what a search of it finds (no search: every animation, newest first). */
export const wumpusListQueryOptions = (search: GallerySearch = {}) =>
  infiniteQueryOptions({
    queryKey: wumpusKeys.list(search),
    queryFn: ({ pageParam, signal }) => fetchWumpusPage(search, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    refetchInterval: retryOfflineCopies,
  })

export const wumpusQueryOptions = (id: string) =>
  queryOptions({
    queryKey: wumpusKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(wumpusPath(id), trusted<Wumpus>(), { signal }),
  })

/** The most used tags with their counts. */
export const tagsQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: tagKeys.top(limit),
    queryFn: ({ signal }) => apiRequest(tagListPath(limit), trusted<TagCount[]>(), { signal }),
  })

/** The most used emoji with their names and counts. */
export const emojiQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: tagKeys.emoji(limit),
    queryFn: ({ signal }) => apiRequest(emojiListPath(limit), trusted<EmojiCount[]>(), { signal }),
  })

/** While any platform file is still being made, its list is asked for again this often. */
const STICKERS_PENDING_POLL_MS = 4000

/** GET /api/wumpus/{id}/stickers: one file per chat platform (ready, absent with the reason, or being made). */
export const stickersQueryOptions = (id: string) =>
  queryOptions({
    queryKey: wumpusKeys.stickers(id),
    queryFn: ({ signal }) => apiRequest(stickersPath(id), trusted<StickerExport[]>(), { signal }),
    refetchInterval: (query) => (query.state.data?.some((s) => s.status === 'pending') ? STICKERS_PENDING_POLL_MS : false),
  })

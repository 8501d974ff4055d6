import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { emojiListPath, stickersPath, tagListPath, wumpusListPath, wumpusPath, type GalleryListFilter } from '../../../contract/api-paths'
import type { StickerExport } from '../../../contract/stickers'
import type { EmojiCount, TagCount, Wumpus } from '../../../contract/wumpus'
import { apiRequest, trusted } from '../../lib/api-client'
import { fetchPage, retryOfflineCopies, type Page } from '../../lib/paging'
import { forgetOnSignOutWhen, keepOnSignOut } from '../../lib/query-client'

/** A page of the gallery or of another list of animations. */
export type WumpusPage = Page<Wumpus>

export function fetchWumpusPage(search: GalleryListFilter, cursor: string | null, signal?: AbortSignal): Promise<WumpusPage> {
  return fetchPage(wumpusListPath({ ...search, cursor }), trusted<Wumpus[]>(), signal)
}

/** Every query key of animations and tags; invalidate `all` after a write. */
export const wumpusKeys = {
  all: ['wumpuses'] as const,
  lists: () => [...wumpusKeys.all, 'list'] as const,
  list: (search: GalleryListFilter) => [...wumpusKeys.lists(), search] as const,
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
// A gallery page with sensitive animations in it was the signed-in person's (their choice to see them): the next
// person on this device does not inherit it.
forgetOnSignOutWhen(
  (data) =>
    (data as { pages?: Array<{ items?: Array<Partial<Wumpus>> }> } | undefined)?.pages?.some((page) =>
      page.items?.some((item) => item.sensitive === true),
    ) === true,
)

/** The gallery, or what a search of it finds (no search: every animation, newest first). */
export const wumpusListQueryOptions = (search: GalleryListFilter = {}) =>
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

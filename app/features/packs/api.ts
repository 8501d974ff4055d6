import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { API_PATHS, myPackListPath, packListPath, packPath, packTelegramPath } from '../../../contract/api-paths'
import type { CreatePack, CreatePersonalPack, Pack, PackDetail, PackTelegram, UpdatePack } from '../../../contract/pack'
import type { DeletedCount } from '../../../contract/wumpus'
import { apiRequest, trusted } from '../../lib/api-client'
import { fetchPage, type Page } from '../../lib/paging'
import { activityKeys } from '../../lib/query-keys'
import { refreshAfterWrites } from '../../lib/synced-queries'
import { PACK_EDIT_PREFIX, pageWithPendingEdits, withPendingEdits } from './pack-edits'

/** The query keys of packs: every pack query's key starts with `packKeys.all`. */
export const packKeys = {
  all: ['packs'] as const,
  list: () => [...packKeys.all, 'list'] as const,
  /** The signed-in user's personal packs. */
  mine: () => [...packKeys.all, 'mine'] as const,
  detail: (id: string) => [...packKeys.all, 'detail', id] as const,
}

// A personal pack's edit, once sent (or refused), changes what its pack and the lists show.
refreshAfterWrites(PACK_EDIT_PREFIX, () => [packKeys.all])

export type PackPage = Page<Pack>

const fetchPackPage = (path: string, signal: AbortSignal): Promise<PackPage> => fetchPage(path, trusted<Pack[]>(), signal)

/** GET /api/packs (the public, curated ones), newest first, a page at a time. */
export const packListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: packKeys.list(),
    queryFn: ({ pageParam, signal }) => fetchPackPage(packListPath({ cursor: pageParam }), signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

/** GET /api/me/packs: one's personal packs, most recently edited first, with the edits still queued applied. */
export const myPackListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: packKeys.mine(),
    queryFn: async ({ pageParam, signal }): Promise<PackPage> => {
      const page = await fetchPackPage(myPackListPath({ cursor: pageParam }), signal)
      return { ...page, items: await pageWithPendingEdits(page.items) }
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

/** While a sticker's platform files or the pack's Telegram sets are still being made, the pack is asked for again this often. */
const PENDING_POLL_MS = 5000

/**
 * GET /api/packs/{id}: the pack, its stickers in order and one download per platform; for the owner of a
 * personal pack, with their edits still queued on this device applied.
 */
export const packQueryOptions = (id: string) =>
  queryOptions({
    queryKey: packKeys.detail(id),
    queryFn: async ({ signal }) => withPendingEdits(await apiRequest(packPath(id), trusted<PackDetail>(), { signal })),
    refetchInterval: (query) =>
      query.state.data?.items.some((item) => !item.preview) ||
      query.state.data?.telegram?.state === 'making' ||
      query.state.data?.telegram?.emoji?.state === 'making'
        ? PENDING_POLL_MS
        : false,
  })

/** POST /api/packs/{id}/telegram: an admin's "make or update the Telegram set now"; the pack then shows its state. */
export function useMakeTelegramSet(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiRequest(packTelegramPath(id), trusted<PackTelegram>(), { method: 'POST' }),
    onSuccess: (telegram) => {
      queryClient.setQueryData<PackDetail>(packKeys.detail(id), (pack) => pack && { ...pack, telegram })
      return queryClient.invalidateQueries({ queryKey: packKeys.detail(id) })
    },
  })
}

/** After any pack write: the lists, the pack and the Activity page may show it. */
function refreshPacks(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: packKeys.all }),
    queryClient.invalidateQueries({ queryKey: activityKeys.all }),
  ])
}

export function useCreatePack() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (pack: CreatePack) => apiRequest(API_PATHS.packs, trusted<Pack>(), { method: 'POST', body: pack }),
    onSuccess: () => refreshPacks(queryClient),
  })
}

/** POST /api/me/packs: a personal pack (verified emails; it needs the network). */
export function useCreateMyPack() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (pack: CreatePersonalPack) => apiRequest(API_PATHS.myPacks, trusted<Pack>(), { method: 'POST', body: pack }),
    onSuccess: () => refreshPacks(queryClient),
  })
}

export function useUpdatePack(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (changes: UpdatePack) => apiRequest(packPath(id), trusted<Pack>(), { method: 'PUT', body: changes }),
    onSuccess: () => refreshPacks(queryClient),
  })
}

export function useDeletePack() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiRequest(packPath(id), trusted<DeletedCount>(), { method: 'DELETE' }),
    onSettled: () => refreshPacks(queryClient),
  })
}

import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { activityListSchema, type ActivityEntry } from '../../../contract/audit'
import type { MediaFormat } from '../../../contract/limits'
import type { User } from '../../../contract/user'
import { wumpusSchema, type Wumpus } from '../../../contract/wumpus'
import {
  deletedCountSchema,
  modifiedCountSchema,
  renderResponseSchema,
  uploadedAnimationFileSchema,
  userListSchema,
  type CreateWumpus,
  type UpdateWumpus,
  type UploadedAnimationFile,
} from '../../../contract/wumpus-write'
import { apiRequest, apiRequestWithHeaders, isApiError } from '../../lib/api-client'
import { authKeys } from '../auth/api'
import { profileKeys } from '../profiles/api'
import { nextCursorFromLink, tagKeys, wumpusKeys } from '../wumpuses/api'
import { uploadFile } from '../../lib/upload'

export type { UploadedAnimationFile }

/** How each format is named to people. */
export const FORMAT_LABEL: Record<MediaFormat, string> = { gif: 'GIF', apng: 'APNG', lottie: 'Lottie file' }

/** POST /api/uploads/animation?format=: the server inspects the bytes and answers what it found. */
export function uploadAnimationFile(
  format: MediaFormat,
  file: Blob,
  onProgress?: (fraction: number) => void,
  options: { signal?: AbortSignal } = {},
): Promise<UploadedAnimationFile> {
  return uploadFile(`/api/uploads/animation?format=${format}`, file, uploadedAnimationFileSchema, onProgress, {
    ...options,
    kind: FORMAT_LABEL[format],
  })
}

/** POST /api/uploads/lottie-link: the server fetches the Lottie behind the link and stores a copy. */
export function uploadLottieLink(url: string, signal?: AbortSignal): Promise<UploadedAnimationFile> {
  return apiRequest('/api/uploads/lottie-link', uploadedAnimationFileSchema, { method: 'POST', body: { url }, signal })
}

/** POST /api/renders: GIF and APNG rendered by the server from an uploaded Lottie. */
export function renderFromLottie(lottie: string) {
  return apiRequest('/api/renders', renderResponseSchema, { method: 'POST', body: { lottie } })
}

/** Why the server refused a file or a request, as it said it. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return isApiError(error) ? error.message : fallback
}

/** Field problems of a 400 answer (`details: [{ path, message }]`), by field name. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!isApiError(error, 400) || !Array.isArray(error.details)) return {}
  const errors: Record<string, string> = {}
  for (const detail of error.details as unknown[]) {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown }
    if (typeof path === 'string' && typeof message === 'string' && !errors[path]) errors[path] = message
  }
  return errors
}

// ---- Animations ----

/** After any write: the gallery, details, every profile's animation list and the tag counts may show it. */
function refreshAnimations(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: wumpusKeys.all }),
    queryClient.invalidateQueries({ queryKey: profileKeys.everyone }),
    queryClient.invalidateQueries({ queryKey: tagKeys.all }),
    queryClient.invalidateQueries({ queryKey: activityKeys.all }),
  ])
}

export function useCreateWumpus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (payload: CreateWumpus): Promise<Wumpus> =>
      apiRequest('/api/wumpuses', wumpusSchema, { method: 'POST', body: payload }),
    onSuccess: (created) => {
      queryClient.setQueryData(wumpusKeys.detail(created._id), created)
      return refreshAnimations(queryClient)
    },
  })
}

export function useUpdateWumpus(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (changes: UpdateWumpus): Promise<Wumpus> =>
      apiRequest(`/api/wumpuses/${encodeURIComponent(id)}`, wumpusSchema, { method: 'PUT', body: changes }),
    onSuccess: (updated) => {
      queryClient.setQueryData(wumpusKeys.detail(id), updated)
      return refreshAnimations(queryClient)
    },
  })
}

export function useDeleteWumpus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/wumpus/${encodeURIComponent(id)}`, deletedCountSchema, { method: 'DELETE' }),
    // Refetch whatever happened: a 0 means someone else removed it already.
    onSettled: () => refreshAnimations(queryClient),
  })
}

// ---- Users ----

export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'all'] as const,
}

export const usersQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.list(),
    queryFn: ({ signal }): Promise<User[]> => apiRequest('/api/users', userListSchema, { signal }),
  })

export function useMakeAdmin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest(`/api/user/admin/${encodeURIComponent(email)}`, modifiedCountSchema, { method: 'PUT' }),
    onSettled: (_result, _error, email) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.list() }),
        queryClient.invalidateQueries({ queryKey: authKeys.admin(email) }),
        queryClient.invalidateQueries({ queryKey: activityKeys.all }),
      ]),
  })
}

// ---- Activity (the admin audit log) ----

export interface ActivityPage {
  items: ActivityEntry[]
  nextCursor: string | null
}

export const ACTIVITY_PAGE_SIZE = 50

export const activityKeys = {
  all: ['activity'] as const,
}

/** GET /api/activity: admin actions, newest first, a page at a time. */
export const activityQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: activityKeys.all,
    queryFn: async ({ pageParam, signal }): Promise<ActivityPage> => {
      const query = new URLSearchParams({ limit: String(ACTIVITY_PAGE_SIZE) })
      if (pageParam) query.set('cursor', pageParam)
      const { data, headers } = await apiRequestWithHeaders(`/api/activity?${query}`, activityListSchema, { signal })
      return { items: data, nextCursor: nextCursorFromLink(headers.get('Link')) }
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

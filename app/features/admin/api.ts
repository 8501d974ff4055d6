import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import {
  activityPath,
  API_PATHS,
  makeAdminPath,
  uploadAnimationPath,
  userSessionsPath,
  wumpusEditPath,
  wumpusPath,
} from '../../../contract/api-paths'
import { FORMAT_LABEL } from '../../../contract/format-labels'
import { activityListSchema, type ActivityEntry } from '../../../contract/audit'
import { backupListSchema, backupSchema, type ApiBackup } from '../../../contract/backups'
import type { MediaFormat } from '../../../contract/limits'
import { endedSessionsSchema, type User } from '../../../contract/user'
import { deletedCountSchema, wumpusSchema, type Wumpus } from '../../../contract/wumpus'
import {
  modifiedCountSchema,
  renderResponseSchema,
  uploadedAnimationFileSchema,
  userListSchema,
  type CreateWumpusBody,
  type UpdateWumpusBody,
  type UploadedAnimationFile,
} from '../../../contract/wumpus-write'
import { apiRequest, isApiError } from '../../lib/api-client'
import { fetchPage } from '../../lib/paging'
import { adminRoleKey } from '../../lib/admin-role'
import { activityKeys, profileKeys } from '../../lib/query-keys'
import { tagKeys, wumpusKeys } from '../../entities/wumpus/api'
import { uploadFile } from '../../lib/upload'

export type { UploadedAnimationFile }

/** POST /api/uploads/animation?format=: the server inspects the bytes and answers what it found. */
export function uploadAnimationFile(
  format: MediaFormat,
  file: Blob,
  onProgress?: (fraction: number) => void,
  options: { signal?: AbortSignal } = {},
): Promise<UploadedAnimationFile> {
  return uploadFile(uploadAnimationPath(format), file, uploadedAnimationFileSchema, onProgress, {
    ...options,
    kind: FORMAT_LABEL[format],
  })
}

/** POST /api/uploads/lottie-link: the server fetches the Lottie behind the link and stores a copy. */
export function uploadLottieLink(url: string, signal?: AbortSignal): Promise<UploadedAnimationFile> {
  return apiRequest(API_PATHS.uploadLottieLink, uploadedAnimationFileSchema, { method: 'POST', body: { url }, signal })
}

/** POST /api/renders: GIF and APNG rendered by the server from an uploaded Lottie. */
export function renderFromLottie(lottie: string) {
  return apiRequest(API_PATHS.renders, renderResponseSchema, { method: 'POST', body: { lottie } })
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
    mutationFn: (payload: CreateWumpusBody): Promise<Wumpus> =>
      apiRequest(API_PATHS.wumpusList, wumpusSchema, { method: 'POST', body: payload }),
    onSuccess: (created) => {
      queryClient.setQueryData(wumpusKeys.detail(created._id), created)
      return refreshAnimations(queryClient)
    },
  })
}

export function useUpdateWumpus(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (changes: UpdateWumpusBody): Promise<Wumpus> =>
      apiRequest(wumpusEditPath(id), wumpusSchema, { method: 'PUT', body: changes }),
    onSuccess: (updated) => {
      queryClient.setQueryData(wumpusKeys.detail(id), updated)
      return refreshAnimations(queryClient)
    },
  })
}

export function useDeleteWumpus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiRequest(wumpusPath(id), deletedCountSchema, { method: 'DELETE' }),
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
    queryFn: ({ signal }): Promise<User[]> => apiRequest(API_PATHS.users, userListSchema, { signal }),
  })

export function useMakeAdmin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (email: string) => apiRequest(makeAdminPath(email), modifiedCountSchema, { method: 'PUT' }),
    onSettled: (_result, _error, email) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.list() }),
        queryClient.invalidateQueries({ queryKey: adminRoleKey(email) }),
        queryClient.invalidateQueries({ queryKey: activityKeys.all }),
      ]),
  })
}

/** DELETE /api/admin/{email}/sessions: every session of that user ends; answers how many did. */
export function useEndSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (email: string) => apiRequest(userSessionsPath(email), endedSessionsSchema, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: activityKeys.all }),
  })
}

// ---- Backups ----

export const backupKeys = { all: ['backups'] as const }

/** The server's backups, or why it makes none (no BACKUP_DIR, or a MongoDB store: the server's 409 message). */
export type BackupsState = { backups: ApiBackup[] } | { notSetUp: string }

export const backupsQueryOptions = () =>
  queryOptions({
    queryKey: backupKeys.all,
    queryFn: async ({ signal }): Promise<BackupsState> => {
      try {
        return await apiRequest(API_PATHS.backups, backupListSchema, { signal })
      } catch (error) {
        if (isApiError(error, 409)) return { notSetUp: error.message }
        throw error
      }
    },
  })

/** POST /api/backups: a backup made now, while the gallery serves. */
export function useBackUpNow() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiRequest(API_PATHS.backups, backupSchema, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: backupKeys.all }),
  })
}

// ---- Activity (the admin audit log) ----

export interface ActivityPage {
  items: ActivityEntry[]
  nextCursor: string | null
}

export const ACTIVITY_PAGE_SIZE = 50

/** GET /api/activity: admin actions, newest first, a page at a time. */
export const activityQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: activityKeys.all,
    queryFn: async ({ pageParam, signal }): Promise<ActivityPage> => {
      // No total: the log shows how many it has loaded, not how many there are.
      const { items, nextCursor } = await fetchPage(
        activityPath({ limit: ACTIVITY_PAGE_SIZE, cursor: pageParam }),
        activityListSchema,
        signal,
      )
      return { items, nextCursor }
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

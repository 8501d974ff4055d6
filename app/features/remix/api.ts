import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { wumpusColoursPath, wumpusEditPath, wumpusPath } from '../../../contract/api-paths'
import { myRemixListPath, remixKeysPath, remixPath, remixSharingPath } from '../../../contract/remix/remix-paths'
import type { RemixCreated, RemixRequest, RemixVisibility } from '../../../contract/remix/remix-api'
import type { ColourChoices } from '../../../contract/remix/recipe'
import type { Wumpus } from '../../../contract/wumpus'
import { apiRequest, apiSend, trusted } from '../../lib/api-client'
import { fetchPage } from '../../lib/paging'
import { wumpusKeys } from '../../entities/wumpus/api'

export const remixKeys = {
  all: ['remixes'] as const,
  mine: () => [...remixKeys.all, 'mine'] as const,
  colours: (id: string) => [...remixKeys.all, 'colours', id] as const,
}

/** GET /api/wumpus/{id}/colours: the colour slots a recipe can change, and presets. They follow the Lottie, which never changes under its URL. */
export const colourChoicesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: remixKeys.colours(id),
    queryFn: ({ signal }) => apiRequest(wumpusColoursPath(id), trusted<ColourChoices>(), { signal }),
    staleTime: Infinity,
  })

/** GET /api/me/remixes: one's own remixes, newest first, a page at a time. */
export const myRemixesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: remixKeys.mine(),
    queryFn: ({ pageParam, signal }) => fetchPage(myRemixListPath({ cursor: pageParam }), trusted<Wumpus[]>(), signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

/** POST /api/wumpus/{id}/remix: one's own version of the animation, named; answers the remix's id once its files are made. */
export function useCreateRemix(originalId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (request: RemixRequest) => apiRequest(remixPath(originalId), trusted<RemixCreated>(), { method: 'POST', body: request }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: remixKeys.mine() }),
        // The original's page counts its remixes.
        queryClient.invalidateQueries({ queryKey: wumpusKeys.detail(originalId) }),
      ]),
  })
}

type FileUrls = Pick<Wumpus, 'gif' | 'apng' | 'lottie' | 'preview'>

/**
 * Its file URLs carry keys that a change of sharing or a renewal replaces: the remix the server answers has
 * the new ones; its chat app files and the My remixes list are read again.
 */
function takeNewFileUrls(queryClient: ReturnType<typeof useQueryClient>, remixId: string, answer: Partial<Wumpus> | undefined) {
  const urls: Partial<FileUrls> = {}
  for (const key of ['gif', 'apng', 'lottie', 'preview'] as const) if (answer?.[key]) Object.assign(urls, { [key]: answer[key] })
  queryClient.setQueryData<Wumpus>(
    wumpusKeys.detail(remixId),
    (remix) => remix && { ...remix, ...urls, ...(answer?.visibility ? { visibility: answer.visibility } : {}) },
  )
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: wumpusKeys.stickers(remixId) }),
    queryClient.invalidateQueries({ queryKey: remixKeys.mine() }),
  ])
}

/** PUT /api/wumpus/{remixId}/sharing: shared by link, or private again. */
export function useRemixSharing(remixId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (visibility: RemixVisibility) =>
      apiRequest(remixSharingPath(remixId), trusted<Partial<Wumpus> | undefined>(), { method: 'PUT', body: { visibility } }),
    onSuccess: (answer, visibility) => takeNewFileUrls(queryClient, remixId, { ...answer, visibility }),
  })
}

/** POST /api/wumpus/{remixId}/key: new keys in its file URLs; the links copied before open nothing any more. */
export function useRenewRemixKeys(remixId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiRequest(remixKeysPath(remixId), trusted<Partial<Wumpus> | undefined>(), { method: 'POST' }),
    onSuccess: (answer) => takeNewFileUrls(queryClient, remixId, answer),
  })
}

/** PUT /api/wumpuses/{remixId} by its owner: a new name, which its files are downloaded under from then on. */
export function useRenameRemix(remixId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => apiRequest(wumpusEditPath(remixId), trusted<Wumpus>(), { method: 'PUT', body: { name } }),
    onSuccess: (answer) => {
      queryClient.setQueryData<Wumpus>(wumpusKeys.detail(remixId), answer)
      return Promise.all([
        // Its chat app files' names follow its name.
        queryClient.invalidateQueries({ queryKey: wumpusKeys.stickers(remixId) }),
        queryClient.invalidateQueries({ queryKey: remixKeys.mine() }),
      ])
    },
  })
}

/** DELETE /api/wumpus/{remixId} by its owner. */
export function useDeleteRemix(remix: Pick<Wumpus, '_id' | 'remixOf'>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiSend(wumpusPath(remix._id), { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: wumpusKeys.detail(remix._id) })
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: remixKeys.mine() }),
        remix.remixOf && queryClient.invalidateQueries({ queryKey: wumpusKeys.detail(remix.remixOf) }),
      ])
    },
  })
}

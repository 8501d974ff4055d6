import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { API_PATHS, profilePath, userPath } from '../../../contract/api-paths'
import type { ProfileUpdate, ProfileUpdateResponse, PublicProfile, User } from '../../../contract/user'
import { apiRequest, apiSend, trusted } from '../../lib/api-client'
import { profileKeys } from '../../lib/query-keys'
import { tagKeys, wumpusKeys } from '../../entities/wumpus/api'

/** Public images of our own, used when a user has no photo or cover. */
export const DEFAULT_AVATAR = '/images/default-avatar.svg'
export const DEFAULT_COVER = '/images/default-cover.svg'

/** Someone else's profile comes without the role (only one's own, or to verified admins, has it). */
export const profileQueryOptions = (email: string) =>
  queryOptions({
    queryKey: profileKeys.detail(email),
    queryFn: ({ signal }) => apiRequest(profilePath(email), trusted<PublicProfile>(), { signal }),
  })

interface UpdateProfileOptions {
  /** Receives the renewed session token (its claims carry the new name): the session stores it. */
  onTokenRenewed: (token: string) => void
}

/** PUT /api/user/{email} with the changed fields; hands the renewed token to the session, then refreshes the user's data. */
export function useUpdateProfile(email: string, { onTokenRenewed }: UpdateProfileOptions) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (changes: ProfileUpdate): Promise<ProfileUpdateResponse> =>
      apiRequest(userPath(email), trusted<ProfileUpdateResponse>(), { method: 'PUT', body: changes }),
    onSuccess: async ({ token, user }) => {
      onTokenRenewed(token)
      queryClient.setQueryData<User>(profileKeys.detail(email), user)
      // The name shows on the user's animation cards too.
      await queryClient.invalidateQueries({ queryKey: profileKeys.all(email) })
    },
  })
}

/**
 * PUT /api/user/{email} with `showSensitive`: then every gallery list and search, and the tag and emoji
 * counts, are asked again, as the server now answers them with (or without) the sensitive stickers.
 */
export function useUpdateSensitivePreference(email: string, { onTokenRenewed }: UpdateProfileOptions) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (showSensitive: boolean): Promise<ProfileUpdateResponse> =>
      apiRequest(userPath(email), trusted<ProfileUpdateResponse>(), { method: 'PUT', body: { showSensitive } }),
    onSuccess: async ({ token, user }) => {
      onTokenRenewed(token)
      queryClient.setQueryData<User>(profileKeys.detail(email), user)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: wumpusKeys.all }),
        queryClient.invalidateQueries({ queryKey: tagKeys.all }),
        queryClient.invalidateQueries({ queryKey: profileKeys.everyone }),
      ])
    },
  })
}

/** DELETE /api/sessions: every session of the signed-in account ends, this one included (the caller then signs out here). */
export function useSignOutEverywhere() {
  return useMutation({ mutationFn: () => apiSend(API_PATHS.sessions, { method: 'DELETE' }) })
}

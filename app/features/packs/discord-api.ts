// "Add to my Discord server" (README: Discord app): whether the server has it on, the ticket the button asks
// for, and the upload job the pack's page follows once Discord sends the person back (?discord=<job>).
import { queryOptions, useMutation } from '@tanstack/react-query'
import type { DiscordTicket, DiscordUpload } from '../../../contract/discord'
import { apiRequest, trusted } from '../../lib/api-client'

/** How often a job under way is asked about. */
const JOB_POLL_MS = 1500

/** GET /api/discord/uploads/{id}, asked again while the job waits or uploads. */
export const discordUploadQueryOptions = (jobId: string) =>
  queryOptions({
    queryKey: ['discord-upload', jobId] as const,
    queryFn: ({ signal }) => apiRequest(`/api/discord/uploads/${encodeURIComponent(jobId)}`, trusted<DiscordUpload>(), { signal }),
    refetchInterval: (query) => (query.state.data?.state === 'done' || query.state.data?.state === 'failed' ? false : JOB_POLL_MS),
  })

/** POST /api/packs/{id}/discord, then off to Discord through the address it answers. */
export function useAddToDiscord(packId: string, go: (url: string) => void = (url) => window.location.assign(url)) {
  return useMutation({
    mutationFn: () => apiRequest(`/api/packs/${encodeURIComponent(packId)}/discord`, trusted<DiscordTicket>(), { method: 'POST' }),
    onSuccess: ({ url }) => go(url),
  })
}

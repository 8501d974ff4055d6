import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { TELEGRAM_LINK_PATH, telegramLinkSchema } from '../../../contract/telegram-link'
import { apiRequest, trusted } from '../../lib/api-client'

/** Issue 36: one's Telegram link (GET /api/me/telegram), asked for only when the server has Telegram on. */
export const telegramLinkKeys = { link: ['me', 'telegram'] as const }

export const telegramLinkQueryOptions = () =>
  queryOptions({
    queryKey: telegramLinkKeys.link,
    queryFn: ({ signal }) => apiRequest(TELEGRAM_LINK_PATH, telegramLinkSchema, { signal }),
  })

/** DELETE /api/me/telegram: the sets made before stay on Telegram, the person's own. */
export function useUnlinkTelegram() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiRequest(TELEGRAM_LINK_PATH, trusted<{ unlinked: boolean }>(), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: telegramLinkKeys.link }),
  })
}

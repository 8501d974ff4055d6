import { queryOptions } from '@tanstack/react-query'
import { API_PATHS } from '../../contract/api-paths'
import type { ClientConfig } from '../../contract/client-config'
import { apiRequest, trusted } from './api-client'

/**
 * GET /api/config, asked once per page load and shared: each feature reads the part it needs with `select`
 * (`telegram`, `discord`), so one answer serves them all.
 */
export const clientConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'] as const,
    queryFn: ({ signal }) => apiRequest(API_PATHS.config, trusted<ClientConfig>(), { signal }),
    staleTime: Infinity,
  })

/** Whether the server makes Telegram sets (TELEGRAM_BOT_TOKEN set): a `select` for the config query. */
export const telegramOn = (config: ClientConfig) => config.telegram === true

/** Whether "Add to my Discord server" is on (the DISCORD_ settings given): a `select` for the config query. */
export const discordOn = (config: ClientConfig) => config.discord === true

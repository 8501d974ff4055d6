import { QueryClient, type DefaultOptions } from '@tanstack/react-query'
import { isApiError } from './api-client'

export function createQueryClient(queries: DefaultOptions['queries'] = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        // Always ask: offline, the service worker answers from what this device kept (React Query's
        // default would pause the request instead, and the page would wait for the network forever).
        networkMode: 'always',
        // Back online: refresh what is on screen, it may be an offline copy.
        refetchOnReconnect: 'always',
        // Retry network trouble and 5xx twice, never a 4xx answer, nor while offline.
        retry: (failureCount, error) =>
          failureCount < 2 && navigator.onLine && !(isApiError(error) && error.status >= 400 && error.status < 500),
        ...queries,
      },
      // Offline, a mutation fails at once with a clear error instead of waiting unseen.
      mutations: { networkMode: 'always' },
    },
  })
}

import { QueryClient, type DefaultOptions } from '@tanstack/react-query'
import { isApiError } from './api-client'

export function createQueryClient(queries: DefaultOptions['queries'] = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        // Retry network trouble and 5xx twice, never a 4xx answer.
        retry: (failureCount, error) =>
          failureCount < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
        ...queries,
      },
    },
  })
}

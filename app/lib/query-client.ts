import { partialMatchKey, QueryClient, type DefaultOptions, type QueryKey } from '@tanstack/react-query'
import { isApiError } from './api-client'

const keptOnSignOut: QueryKey[] = []
const personalAnswers: Array<(data: unknown) => boolean> = []

/**
 * Features name the queries that hold nothing personal (key prefixes from their key factories), so
 * sign-out keeps them without lib knowing any feature's keys. Called where the keys are defined: a
 * key cannot be used before its module has registered it.
 */
export function keepOnSignOut(...prefixes: QueryKey[]): void {
  keptOnSignOut.push(...prefixes)
}

/** Answers that are personal although their key is kept (a remix among animation details): sign-out forgets them. */
export function forgetOnSignOutWhen(isPersonal: (data: unknown) => boolean): void {
  personalAnswers.push(isPersonal)
}

export function isKeptOnSignOut(queryKey: QueryKey, data?: unknown): boolean {
  return keptOnSignOut.some((prefix) => partialMatchKey(queryKey, prefix)) && !personalAnswers.some((isPersonal) => isPersonal(data))
}

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

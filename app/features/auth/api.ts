import { queryOptions } from '@tanstack/react-query'
import { wumpusListPath } from '../../../contract/api-paths'
import type { Wumpus } from '../../../contract/wumpus'
import { apiRequest, trusted } from '../../lib/api-client'

export const authKeys = {
  mascots: () => ['auth', 'mascots'] as const,
  emailVerification: (email: string) => ['auth', 'email-verification', email] as const,
}

/** Two demo mascots' Lottie files, shown beside the sign-in form (the second one while signing in). */
export const authMascotsQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.mascots(),
    queryFn: async ({ signal }) => {
      const items = await apiRequest(wumpusListPath({ limit: 2 }), trusted<Wumpus[]>(), { signal })
      return items.map((item) => ({ name: item.name, lottie: item.lottie }))
    },
    staleTime: Infinity,
  })

import { queryOptions, useQuery } from '@tanstack/react-query'
import { isAdminPath, wumpusListPath } from '../../../contract/api-paths'
import type { Wumpus } from '../../../contract/wumpus'
import { apiRequest, trusted } from '../../lib/api-client'
import { useSession } from '../../lib/session-provider'

export const authKeys = {
  /** Whether that user is an admin. */
  admin: (email: string) => ['admin', email.toLowerCase()] as const,
  mascots: () => ['auth', 'mascots'] as const,
  emailVerification: (email: string) => ['auth', 'email-verification', email] as const,
}

/** GET /api/admin/{email}: whether that user is an admin. */
export const adminQueryOptions = (email: string) =>
  queryOptions({
    queryKey: authKeys.admin(email),
    queryFn: ({ signal }) => apiRequest(isAdminPath(email), trusted<{ admin: boolean }>(), { signal }),
  })

/** Whether the signed-in user is an admin; false while signed out, loading or when the check fails. */
export function useIsAdmin(): { isAdmin: boolean; isPending: boolean } {
  const session = useSession()
  const email = session.status === 'signed-in' ? session.user.email : ''
  const query = useQuery({ ...adminQueryOptions(email), enabled: email !== '' })
  return { isAdmin: query.data?.admin === true, isPending: email !== '' && query.isPending }
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

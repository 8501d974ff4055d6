// Whether someone is an admin (GET /api/admin/{email}): the dashboard's menu, the admin pages' guard and the
// edit page read it; making someone an admin refreshes it.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { isAdminPath } from '../../contract/api-paths'
import { apiRequest, trusted } from './api-client'
import { useSession } from './session-provider'

export const adminRoleKey = (email: string) => ['admin', email.toLowerCase()] as const

/** GET /api/admin/{email}: whether that user is an admin. */
export const adminQueryOptions = (email: string) =>
  queryOptions({
    queryKey: adminRoleKey(email),
    queryFn: ({ signal }) => apiRequest(isAdminPath(email), trusted<{ admin: boolean }>(), { signal }),
  })

/** Whether the signed-in user is an admin; false while signed out, loading or when the check fails. */
export function useIsAdmin(): { isAdmin: boolean; isPending: boolean } {
  const session = useSession()
  const email = session.status === 'signed-in' ? session.user.email : ''
  const query = useQuery({ ...adminQueryOptions(email), enabled: email !== '' })
  return { isAdmin: query.data?.admin === true, isPending: email !== '' && query.isPending }
}

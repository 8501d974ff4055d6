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

/**
 * What the admin pages' guard throws for a signed-in user without admin power: the page then says it is for
 * admins only (components/admins-only.tsx) instead of asking to sign in again.
 */
export class AdminsOnlyError extends Error {
  constructor() {
    super('This page is for admins only')
    this.name = 'AdminsOnlyError'
  }
}

export const isAdminsOnly = (error: unknown): boolean => error instanceof Error && error.name === 'AdminsOnlyError'

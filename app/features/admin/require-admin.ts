import type { QueryClient } from '@tanstack/react-query'
import { redirect, type ParsedLocation } from '@tanstack/react-router'
import { isApiError } from '../../lib/api-client'
import { adminQueryOptions } from '../../lib/admin-role'

interface AdminGuardArgs {
  /** The router context below /_authenticated, which has already waited for the session. */
  context: { queryClient: QueryClient; user: { email: string } }
  location: ParsedLocation
}

/**
 * beforeLoad of admin-only routes: waits for the admin check (the route shows its spinner meanwhile) and
 * sends everyone who is not an admin to /signIn (docs/pages.md#pages). A check that could not reach the server
 * (offline, 5xx) is an error for the route to show, not a verdict.
 */
export async function requireAdmin({ context, location }: AdminGuardArgs): Promise<void> {
  let admin = false
  try {
    ;({ admin } = await context.queryClient.ensureQueryData({
      ...adminQueryOptions(context.user.email),
      revalidateIfStale: true,
    }))
  } catch (error) {
    if (!isApiError(error) || error.status === 0 || error.status >= 500) throw error
  }
  if (!admin) throw redirect({ to: '/signIn', search: { from: location.href } })
}

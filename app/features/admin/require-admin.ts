import type { QueryClient } from '@tanstack/react-query'
import { isApiError } from '../../lib/api-client'
import { AdminsOnlyError, adminQueryOptions } from '../../lib/admin-role'

interface AdminGuardArgs {
  /** The router context below /_authenticated, which has already waited for the session. */
  context: { queryClient: QueryClient; user: { email: string } }
}

/**
 * beforeLoad of admin-only routes: waits for the admin check (the route shows its spinner meanwhile); a
 * signed-in user who is not an admin gets the page's "Admins only" answer (docs/pages.md#pages; visitors were
 * sent to /signIn by /_authenticated already). A check that could not reach the server (offline, 5xx) is an
 * error for the route to show, not a verdict.
 */
export async function requireAdmin({ context }: AdminGuardArgs): Promise<void> {
  let admin = false
  try {
    ;({ admin } = await context.queryClient.ensureQueryData({
      ...adminQueryOptions(context.user.email),
      revalidateIfStale: true,
    }))
  } catch (error) {
    if (!isApiError(error) || error.status === 0 || error.status >= 500) throw error
  }
  if (!admin) throw new AdminsOnlyError()
}

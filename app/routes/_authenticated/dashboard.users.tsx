import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { AllUsers } from '../../features/admin/components/all-users'
import { requireAdmin } from '../../features/admin/require-admin'

export const Route = createFileRoute('/_authenticated/dashboard/users')({
  beforeLoad: requireAdmin,
  // The admin api stays out of the entry chunk: it is fetched with the page.
  loader: ({ context }) =>
    import('../../features/admin/api').then(({ usersQueryOptions }) => context.queryClient.ensureQueryData(usersQueryOptions())),
  pendingComponent: PageLoader,
  pendingMs: 100,
  errorComponent: RouteError,
  component: AllUsersRoute,
})

function AllUsersRoute() {
  return <AllUsers me={Route.useRouteContext().user.email} />
}

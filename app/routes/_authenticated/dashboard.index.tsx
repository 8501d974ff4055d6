import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { MyAnimations } from '../../features/dashboard/components/my-animations'
import { userAnimationsQueryOptions } from '../../entities/wumpus/user-animations'
import { myRemixesQueryOptions } from '../../features/remix/api'

export const Route = createFileRoute('/_authenticated/dashboard/')({
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureInfiniteQueryData(userAnimationsQueryOptions(context.user.email)),
      context.queryClient.ensureInfiniteQueryData(myRemixesQueryOptions()),
    ]),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: DashboardHome,
})

function DashboardHome() {
  const { user } = Route.useRouteContext()
  return <MyAnimations email={user.email} />
}

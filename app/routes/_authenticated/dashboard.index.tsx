import { createFileRoute } from '@tanstack/react-router'
import { MyAnimations } from '../../features/dashboard/components/my-animations'
import { myAnimationsQueryOptions } from '../../features/profiles/api'

export const Route = createFileRoute('/_authenticated/dashboard/')({
  loader: ({ context }) => context.queryClient.prefetchInfiniteQuery(myAnimationsQueryOptions(context.user.email)),
  component: DashboardHome,
})

function DashboardHome() {
  const { user } = Route.useRouteContext()
  return <MyAnimations email={user.email} />
}

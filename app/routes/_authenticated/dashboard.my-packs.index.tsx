import { createFileRoute } from '@tanstack/react-router'
import { myPackListQueryOptions } from '../../features/packs/api'
import { MyPacks } from '../../features/packs/components/my-packs'

// Loading and errors: the router's defaults (PageLoader, RouteError), so no extra chunks for them.
export const Route = createFileRoute('/_authenticated/dashboard/my-packs/')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(myPackListQueryOptions()),
  component: MyPacksRoute,
})

function MyPacksRoute() {
  const { user } = Route.useRouteContext()
  return <MyPacks emailVerified={user.emailVerified} />
}

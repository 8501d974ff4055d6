import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { myPackListQueryOptions } from '../../features/packs/api'
import { MyPacks } from '../../features/packs/components/my-packs'

export const Route = createFileRoute('/_authenticated/dashboard/my-packs/')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(myPackListQueryOptions()),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: MyPacksRoute,
})

function MyPacksRoute() {
  const { user } = Route.useRouteContext()
  return <MyPacks emailVerified={user.emailVerified} />
}

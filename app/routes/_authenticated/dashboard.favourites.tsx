import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { favouriteListQueryOptions } from '../../features/favourites/api'
import { FavouritesPage } from '../../features/favourites/components/favourites-page'

export const Route = createFileRoute('/_authenticated/dashboard/favourites')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(favouriteListQueryOptions(context.user.email)),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: Favourites,
})

function Favourites() {
  const { user } = Route.useRouteContext()
  return <FavouritesPage email={user.email} />
}

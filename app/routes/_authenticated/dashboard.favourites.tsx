import { createFileRoute } from '@tanstack/react-router'
import { favouriteListQueryOptions } from '../../entities/favourite/list-query'
import { FavouritesPage } from '../../features/favourites/components/favourites-page'

// The router's default loader and error pages (one lazy chunk less in the entry: the home page's budget).
export const Route = createFileRoute('/_authenticated/dashboard/favourites')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(favouriteListQueryOptions(context.user.email)),
  component: Favourites,
})

function Favourites() {
  const { user } = Route.useRouteContext()
  return <FavouritesPage email={user.email} />
}

import { createFileRoute } from '@tanstack/react-router'
import { RemixPage } from '../../features/remix/components/remix-page'
import { colourChoicesQueryOptions } from '../../features/remix/api'
import { wumpusQueryOptions } from '../../entities/wumpus/api'
import { loadById } from '../../lib/load-by-id'
import { AnimationNotFound } from '../../entities/wumpus/animation-not-found'
import { lottieJsonQueryOptions } from '../../lib/lottie-json'

/**
 * The recipe in the address (contract/remix/recipe.ts, recipeToSearch). The editor checks it
 * (recipeFromSearch): the check's code stays out of the route tree every page loads.
 */
type RemixSearch = Partial<Record<'c' | 't' | 'tp' | 'o' | 's' | 'm', string | number>>

// The editor's code (the recipe functions, the caption font) loads with this route only. Loading and errors:
// the router's defaults; not found says what the detail page says.
export const Route = createFileRoute('/_authenticated/wumpus/$id_/remix')({
  validateSearch: (search: Record<string, unknown>) => search as RemixSearch,
  loader: ({ context, params }) =>
    loadById(params.id, async () => {
      void context.queryClient.prefetchQuery(colourChoicesQueryOptions(params.id))
      const original = await context.queryClient.ensureQueryData(wumpusQueryOptions(params.id))
      void context.queryClient.prefetchQuery(lottieJsonQueryOptions(original.lottie))
      return original
    }),
  notFoundComponent: () => <AnimationNotFound />,
  component: RemixRoute,
})

function RemixRoute() {
  const { id } = Route.useParams()
  const search = Route.useSearch()
  const { user } = Route.useRouteContext()
  const navigate = Route.useNavigate()
  return (
    <RemixPage
      id={id}
      search={search}
      emailVerified={user.emailVerified}
      // Each edit replaces the address: Back leaves the editor; Undo steps through the edits.
      onSearch={(next) => void navigate({ search: next, replace: true })}
    />
  )
}

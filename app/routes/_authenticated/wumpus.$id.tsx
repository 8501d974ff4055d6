import { createFileRoute, notFound } from '@tanstack/react-router'
import { ID_PATTERN } from '../../../contract/limits'
import { NotFound } from '../../components/not-found'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { stickersQueryOptions, wumpusQueryOptions } from '../../features/wumpuses/api'
import { WumpusDetail } from '../../features/wumpuses/components/wumpus-detail'
import { isApiError } from '../../lib/api-client'

export const Route = createFileRoute('/_authenticated/wumpus/$id')({
  loader: async ({ context, params }) => {
    if (!ID_PATTERN.test(params.id)) throw notFound()
    // The chat app files load beside the page (their section shows its own state).
    void context.queryClient.prefetchQuery(stickersQueryOptions(params.id))
    try {
      await context.queryClient.ensureQueryData(wumpusQueryOptions(params.id))
    } catch (error) {
      if (isApiError(error, 404)) throw notFound()
      throw error
    }
  },
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  notFoundComponent: WumpusNotFound,
  component: WumpusDetailPage,
})

function WumpusDetailPage() {
  const { id } = Route.useParams()
  return <WumpusDetail id={id} />
}

function WumpusNotFound() {
  return (
    <NotFound
      title="Wumpus not found"
      message="We looked in every room of the cave and found no animation with this id. It may have been removed."
    />
  )
}

import { createFileRoute } from '@tanstack/react-router'
import { NotFound } from '../../components/not-found'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { stickersQueryOptions, wumpusQueryOptions } from '../../entities/wumpus/api'
import { MakeItYours, RemixFacts } from '../../features/remix/components/remix-on-detail'
import { WumpusDetail } from '../../features/wumpuses/components/wumpus-detail'
import { loadById } from '../../lib/load-by-id'

export const Route = createFileRoute('/_authenticated/wumpus/$id')({
  loader: ({ context, params }) =>
    loadById(params.id, () => {
      // The chat app files load beside the page (their section shows its own state).
      void context.queryClient.prefetchQuery(stickersQueryOptions(params.id))
      return context.queryClient.ensureQueryData(wumpusQueryOptions(params.id))
    }),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  notFoundComponent: AnimationNotFound,
  component: WumpusDetailPage,
})

function WumpusDetailPage() {
  const { id } = Route.useParams()
  return (
    <WumpusDetail
      id={id}
      underName={(wumpus) => <RemixFacts wumpus={wumpus} />}
      afterDownloads={(wumpus) => <MakeItYours wumpus={wumpus} />}
    />
  )
}

function AnimationNotFound() {
  return (
    <NotFound
      title="Animation not found"
      message="We looked in every room of the cave and found no animation with this id. It may have been removed."
    />
  )
}

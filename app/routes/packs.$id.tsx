import { createFileRoute } from '@tanstack/react-router'
import { NotFound } from '../components/not-found'
import { PageLoader } from '../components/page-loader'
import { RouteError } from '../components/route-error'
import { packQueryOptions } from '../features/packs/api'
import { ReportButton } from '../features/reports/components/report-button'
import { PackPage } from '../features/packs/components/pack-page'
import { loadById } from '../lib/load-by-id'

export const Route = createFileRoute('/packs/$id')({
  loader: ({ context, params }) => loadById(params.id, () => context.queryClient.ensureQueryData(packQueryOptions(params.id))),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  notFoundComponent: () => (
    <NotFound title="Pack not found" message="There is no pack with this id, or it is private to its owner. It may have been deleted." />
  ),
  component: PackRoute,
})

function PackRoute() {
  const { id } = Route.useParams()
  return (
    <PackPage
      id={id}
      // A public pack or one shared by link, reported by anyone but its own maker.
      atEnd={(pack, mine) => pack.visibility !== 'private' && !mine && <ReportButton target={{ packId: pack.id }} name={pack.name} />}
    />
  )
}

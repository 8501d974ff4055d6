import { createFileRoute, notFound } from '@tanstack/react-router'
import { ID_PATTERN } from '../../contract/limits'
import { NotFound } from '../components/not-found'
import { PageLoader } from '../components/page-loader'
import { RouteError } from '../components/route-error'
import { packQueryOptions } from '../features/packs/api'
import { PackPage } from '../features/packs/components/pack-page'
import { isApiError } from '../lib/api-client'

export const Route = createFileRoute('/packs/$id')({
  loader: async ({ context, params }) => {
    if (!ID_PATTERN.test(params.id)) throw notFound()
    try {
      await context.queryClient.ensureQueryData(packQueryOptions(params.id))
    } catch (error) {
      if (isApiError(error, 404)) throw notFound()
      throw error
    }
  },
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  notFoundComponent: () => <NotFound title="Pack not found" message="There is no pack with this id. It may have been deleted." />,
  component: PackRoute,
})

function PackRoute() {
  const { id } = Route.useParams()
  return <PackPage id={id} />
}

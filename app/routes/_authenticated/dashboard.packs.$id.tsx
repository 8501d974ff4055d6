import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, notFound } from '@tanstack/react-router'
import { ID_PATTERN } from '../../../contract/limits'
import { NotFound } from '../../components/not-found'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { requireAdmin } from '../../features/admin/require-admin'
import { packQueryOptions } from '../../features/packs/api'
import { PackEditor } from '../../features/packs/components/pack-editor'
import { isApiError } from '../../lib/api-client'

export const Route = createFileRoute('/_authenticated/dashboard/packs/$id')({
  beforeLoad: requireAdmin,
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
  component: EditPackPage,
})

function EditPackPage() {
  const { id } = Route.useParams()
  const { data: pack } = useSuspenseQuery(packQueryOptions(id))
  const navigate = Route.useNavigate()
  // Keyed by the pack, so the form starts from the stored pack when another one opens.
  return <PackEditor key={pack.id} pack={pack} onSaved={(saved) => void navigate({ to: '/packs/$id', params: { id: saved.id } })} />
}

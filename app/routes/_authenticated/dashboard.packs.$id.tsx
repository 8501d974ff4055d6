import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { NotFound } from '../../components/not-found'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { requireAdmin } from '../../features/admin/require-admin'
import { packQueryOptions } from '../../features/packs/api'
import { PackEditor } from '../../features/packs/components/pack-editor'
import { loadById } from '../../lib/load-by-id'

export const Route = createFileRoute('/_authenticated/dashboard/packs/$id')({
  beforeLoad: requireAdmin,
  loader: ({ context, params }) => loadById(params.id, () => context.queryClient.ensureQueryData(packQueryOptions(params.id))),
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

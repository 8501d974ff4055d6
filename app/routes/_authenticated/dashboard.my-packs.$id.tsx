import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { NotFound } from '../../components/not-found'
import { packQueryOptions } from '../../features/packs/api'
import { PackEditor } from '../../features/packs/components/pack-editor'
import { loadById } from '../../lib/load-by-id'

const notYours = () => <NotFound title="Pack not found" message="You have no pack with this id. It may have been deleted." />

// Loading, errors and an unknown id: the router's defaults (PageLoader, RouteError, NotFound), so the
// entry chunk carries no extra lazy pieces for them.
export const Route = createFileRoute('/_authenticated/dashboard/my-packs/$id')({
  loader: ({ context, params }) => loadById(params.id, () => context.queryClient.ensureQueryData(packQueryOptions(params.id))),
  component: EditMyPackPage,
})

function EditMyPackPage() {
  const { id } = Route.useParams()
  const { user } = Route.useRouteContext()
  const { data: pack } = useSuspenseQuery(packQueryOptions(id))
  const navigate = Route.useNavigate()
  // Only one's own personal packs are edited here (admins edit curated ones under Packs).
  if (pack.visibility === 'public' || pack.createdBy !== user.email) return notYours()
  // Keyed by the pack, so the form starts from the stored pack when another one opens.
  return (
    <PackEditor key={pack.id} pack={pack} owner={user} onSaved={(saved) => void navigate({ to: '/packs/$id', params: { id: saved.id } })} />
  )
}

import { createFileRoute } from '@tanstack/react-router'
import { PackEditor } from '../../features/packs/components/pack-editor'

export const Route = createFileRoute('/_authenticated/dashboard/my-packs/new')({
  component: NewMyPackPage,
})

function NewMyPackPage() {
  const { user } = Route.useRouteContext()
  const navigate = Route.useNavigate()
  return <PackEditor owner={user} onSaved={(pack) => void navigate({ to: '/packs/$id', params: { id: pack.id } })} />
}

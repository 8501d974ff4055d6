import { createFileRoute } from '@tanstack/react-router'
import { requireAdmin } from '../../features/admin/require-admin'
import { PackEditor } from '../../features/packs/components/pack-editor'

export const Route = createFileRoute('/_authenticated/dashboard/packs/new')({
  beforeLoad: requireAdmin,
  component: NewPackPage,
})

function NewPackPage() {
  const navigate = Route.useNavigate()
  return <PackEditor onSaved={(pack) => void navigate({ to: '/packs/$id', params: { id: pack.id } })} />
}
